// Subagents on BullMQ: the parent's `spawnParallel` hands each rendered prompt to a queue
// (`SubagentQueue`, a `SpawnExecutor`); worker processes (`startSubagentWorker`) call the
// caller's `run` and send back the raw answer, which the parent filters and records.
// Jobs are named by the batch id and position: a parent restarted with the same `batchId`
// adds no job twice and collects what finished while it was away. A worker that dies
// mid-run leaves its jobs locked until BullMQ's stalled-job check moves them back to wait,
// where another worker takes them.
import { type ConnectionOptions, Job, Queue, QueueEvents, Worker, type JobsOptions, type WorkerOptions } from 'bullmq'
import { Redis, type RedisOptions } from 'ioredis'

import { fail, range } from '../args.js'
import { type RemoteAnswer, type RemoteSpawn, runRemoteSpawn, type SpawnExecutor } from '../executor.js'
import type { SpawnOptions } from '../spawn-options.js'

/** An ioredis client, or the options of one (`{ host, port, … }`). */
export type RedisConnection = Redis | RedisOptions

export interface SubagentQueueOptions {
  /** Redis, where the queue lives. A client given is duplicated for the queue's own connections and never closed. */
  connection: RedisConnection
  /** The BullMQ queue's name: workers started with the same name take its jobs. */
  queueName: string
  /**
   * Options of every job, over the defaults: one attempt (a subagent's failure is an
   * outcome, not a retry) and finished jobs kept a day, so that a restarted parent finds them.
   */
  jobOptions?: Omit<JobsOptions, 'jobId'>
}

export interface SubagentWorkerOptions {
  connection: RedisConnection
  queueName: string
  /** The caller's model call: it gets what it gets in process (taskId, prompt, context, signal, limits, cache, iteration). */
  run: SpawnOptions['run']
  /** Runs at once in this worker. @default 1 */
  concurrency?: number
  /** BullMQ's worker options, passed through (lockDuration, stalledInterval, maxStalledCount, …). */
  workerOptions?: Omit<WorkerOptions, 'connection' | 'concurrency' | 'autorun'>
}

/** A started worker: `close()` waits for its runs in flight, then disconnects. */
export interface SubagentWorker {
  /** The BullMQ worker, for its events (`completed`, `stalled`, `error`, …). */
  readonly worker: Worker<RemoteSpawn, RemoteAnswer>
  close(): Promise<void>
}

const JOB_NAME = 'subagent'
/** The safety net under the event stream: every 2 s, up to 100 jobs waited on for 10 s or more are read from their state. */
const SWEEP_EVERY_MS = 2_000
const SWEEP_AFTER_MS = 10_000
const SWEEP_BATCH = 100
/** How long a cancellation stays readable for a job that has not started yet, in seconds. */
const CANCEL_TTL_S = 24 * 3600

const jobId = (batchId: string, index: number) => `${batchId}-${index}`
const cancelChannel = (queueName: string) => `subagent-context:cancel:${queueName}`
const cancelKey = (queueName: string, id: string) => `subagent-context:cancelled:${queueName}:${id}`

function checkConnection(fn: string, connection: unknown): RedisConnection {
  if (typeof connection !== 'object' || connection === null || Array.isArray(connection)) {
    fail(fn, 'options.connection', 'an ioredis client or its options ({ host, port, … })', connection)
  }
  return connection as RedisConnection
}

function checkQueueName(fn: string, queueName: unknown): string {
  if (typeof queueName !== 'string' || queueName === '') fail(fn, 'options.queueName', 'a non-empty string', queueName)
  if (queueName.includes(':')) range(fn, 'options.queueName', 'a name without `:`', JSON.stringify(queueName))
  return queueName
}

/** A connection of our own: a duplicate of the caller's client, or a new client from options. */
function ownClient(connection: RedisConnection, extra: RedisOptions = {}): Redis {
  return connection instanceof Redis ? connection.duplicate(extra) : new Redis({ ...connection, ...extra })
}

/**
 * What BullMQ gets: options (it opens and closes its own clients), or the caller's client
 * (BullMQ duplicates it where it needs to and leaves it open).
 */
function bullConnection(connection: RedisConnection): ConnectionOptions {
  return (connection instanceof Redis ? connection : { ...connection }) as ConnectionOptions
}

interface Waiter {
  resolve(answer: RemoteAnswer): void
  reject(error: Error): void
}

/**
 * A BullMQ queue of subagent runs: pass it to `spawnParallel` as `executor`. Each spawn
 * is one job (`<batchId>-<index>`) carrying the rendered prompt, the isolated context and
 * the limits; `signal` removes a job not started and aborts a running one.
 */
export class SubagentQueue implements SpawnExecutor {
  readonly queueName: string
  /** The BullMQ queue (its jobs can be inspected with `getJob`, `getJobCounts`, …). */
  readonly queue: Queue<RemoteSpawn, RemoteAnswer>
  /** The queue's event stream, read from where it stood when the queue was made (see `#listen`). */
  readonly #events: Promise<QueueEvents>
  readonly #client: Redis
  readonly #waiters = new Map<string, Set<Waiter>>()
  readonly #jobOptions: JobsOptions
  /** When each waited-on job was first waited on (for `#sweep`). */
  readonly #since = new Map<string, number>()
  readonly #sweeper: ReturnType<typeof setInterval>
  #sweeping = false
  #closed = false

  constructor(options: SubagentQueueOptions) {
    const fn = 'SubagentQueue'
    if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(fn, 'options', 'an object with `connection` and `queueName`', options)
    const connection = checkConnection(fn, options.connection)
    this.queueName = checkQueueName(fn, options.queueName)
    if (options.jobOptions !== undefined && (typeof options.jobOptions !== 'object' || options.jobOptions === null)) {
      fail(fn, 'options.jobOptions', 'an object (BullMQ JobsOptions)', options.jobOptions)
    }
    this.#jobOptions = { attempts: 1, removeOnComplete: { age: CANCEL_TTL_S }, removeOnFail: { age: CANCEL_TTL_S }, ...options.jobOptions }
    this.#client = ownClient(connection)
    this.queue = new Queue<RemoteSpawn, RemoteAnswer>(this.queueName, { connection: bullConnection(connection) })
    this.queue.setMaxListeners(0)
    this.queue.on('error', () => {})
    this.#client.on('error', () => {})
    this.#events = this.#listen(connection)
    this.#events.catch(() => {})
    this.#sweeper = setInterval(() => void this.#sweep(), SWEEP_EVERY_MS)
    this.#sweeper.unref()
  }

  /**
   * Starts reading the event stream from its last entry now: BullMQ's default ('$') reads
   * from wherever the stream stands at each blocking read, and misses what came between
   * two reads; a definite id misses nothing after it.
   */
  async #listen(connection: RedisConnection): Promise<QueueEvents> {
    const key = this.queue.keys.events!
    const last = await this.#client.xrevrange(key, '+', '-', 'COUNT', 1)
    const lastEventId = last[0]?.[0] ?? '0-0'
    const events = new QueueEvents(this.queueName, { connection: bullConnection(connection), lastEventId })
    events.setMaxListeners(0)
    events.on('completed', ({ jobId: id, returnvalue }) => this.#settle(id, (w) => w.resolve(returnvalue as unknown as RemoteAnswer)))
    events.on('failed', ({ jobId: id, failedReason }) => this.#settle(id, (w) => w.reject(new Error(`the job ${id} failed: ${failedReason}`))))
    // Errors of the event stream's connection are retried by ioredis; reported through the spawns that wait.
    events.on('error', () => {})
    await events.waitUntilReady()
    return events
  }

  /** Settles the job's waiters when it has finished (read from its state, not from an event). */
  async #check(id: string): Promise<void> {
    const job = await Job.fromId<RemoteSpawn, RemoteAnswer>(this.queue, id)
    if (job?.finishedOn === undefined) return
    if (job.failedReason) this.#settle(id, (w) => w.reject(new Error(`the job ${id} failed: ${job.failedReason}`)))
    else if (job.returnvalue) this.#settle(id, (w) => w.resolve(job.returnvalue))
  }

  /**
   * A safety net under the event stream: jobs waited on for a while are read from their
   * state, a few at a time, in case their event was lost (a stream trimmed under a reader
   * that lagged, a connection that dropped).
   */
  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closed) return
    this.#sweeping = true
    try {
      const now = Date.now()
      const due = [...this.#since].filter(([, since]) => now - since >= SWEEP_AFTER_MS).slice(0, SWEEP_BATCH)
      await Promise.all(due.map(([id]) => this.#check(id).catch(() => {})))
      // Those still waited on go to the end of the line: the next sweep reads others first.
      for (const [id, since] of due) if (this.#since.delete(id)) this.#since.set(id, since)
    } finally {
      this.#sweeping = false
    }
  }

  #settle(id: string, settle: (waiter: Waiter) => void): void {
    const waiters = this.#waiters.get(id)
    if (!waiters) return
    this.#waiters.delete(id)
    this.#since.delete(id)
    for (const w of waiters) settle(w)
  }

  /** Adds the spawn's job (none when one with its id exists) and resolves to its answer once a worker sent it. */
  async execute(spawn: RemoteSpawn, signal: AbortSignal): Promise<RemoteAnswer> {
    if (this.#closed) throw new Error('SubagentQueue.execute: the queue is closed')
    const id = jobId(spawn.batchId, spawn.index)
    let waiter!: Waiter
    const answer = new Promise<RemoteAnswer>((resolve, reject) => (waiter = { resolve, reject }))
    answer.catch(() => {})
    const set = this.#waiters.get(id) ?? new Set<Waiter>()
    set.add(waiter)
    this.#waiters.set(id, set)
    if (!this.#since.has(id)) this.#since.set(id, Date.now())
    const forget = () => {
      set.delete(waiter)
      if (set.size === 0 && this.#waiters.get(id) === set) {
        this.#waiters.delete(id)
        this.#since.delete(id)
      }
    }
    const onAbort = () => {
      forget()
      waiter.reject(new Error('aborted'))
      void this.#cancel(id, signal.reason)
    }
    try {
      // The event stream listens before the job exists, so that its end cannot be missed;
      // a job that ended before (a restarted parent) is read from its state below.
      await this.#events
      if (signal.aborted) throw signal.reason
      signal.addEventListener('abort', onAbort, { once: true })
      await this.queue.add(JOB_NAME, spawn, { ...this.#jobOptions, jobId: id })
      await this.#check(id)
      return await answer
    } finally {
      signal.removeEventListener('abort', onAbort)
      forget()
    }
  }

  /** Drops a job that has not started; aborts it where it runs. */
  async #cancel(id: string, reason: unknown): Promise<void> {
    if (this.#closed) return
    try {
      if ((await this.queue.remove(id)) === 1) return
      const message = reason instanceof Error ? reason.message : String(reason)
      await this.#client.set(cancelKey(this.queueName, id), message, 'EX', CANCEL_TTL_S)
      await this.#client.publish(cancelChannel(this.queueName), JSON.stringify({ id, message }))
    } catch {
      // Redis is gone: the worker's own timeout still bounds the run.
    }
  }

  /** Stops waiting (the spawns still waiting fail) and disconnects. Jobs already added stay in Redis. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    clearInterval(this.#sweeper)
    for (const id of [...this.#waiters.keys()]) this.#settle(id, (w) => w.reject(new Error('SubagentQueue: closed')))
    await Promise.allSettled([this.#events.then((e) => e.close()), this.queue.close()])
    await this.#client.quit().catch(() => this.#client.disconnect())
  }
}

/**
 * Starts a worker process's side: takes the queue's jobs, `concurrency` at a time, calls
 * `run` as `spawnSubagent` would (under the spawn's timeout and iteration limit, with a
 * signal that aborts when the parent cancels) and sends back the answer. A worker that
 * dies mid-run leaves its jobs to BullMQ's stalled-job recovery: another worker runs them.
 */
export function startSubagentWorker(options: SubagentWorkerOptions): SubagentWorker {
  const fn = 'startSubagentWorker'
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(fn, 'options', 'an object with `connection`, `queueName` and `run`', options)
  const connection = checkConnection(fn, options.connection)
  const queueName = checkQueueName(fn, options.queueName)
  const run = options.run
  if (typeof run !== 'function') fail(fn, 'options.run', 'a function', run)
  const concurrency = options.concurrency ?? 1
  if (typeof concurrency !== 'number') fail(fn, 'options.concurrency', 'a whole number ≥ 1', concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1) range(fn, 'options.concurrency', 'a whole number ≥ 1', concurrency)
  const workerOptions = options.workerOptions ?? {}
  if (typeof workerOptions !== 'object' || workerOptions === null) fail(fn, 'options.workerOptions', 'an object (BullMQ WorkerOptions)', workerOptions)

  const running = new Map<string, AbortController>()
  const client = ownClient(connection)
  const subscriber = ownClient(connection, { maxRetriesPerRequest: null })
  client.on('error', () => {})
  subscriber.on('error', () => {})
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const { id, message } = JSON.parse(text) as { id: string; message: string }
      running.get(id)?.abort(new Error(message))
    } catch {
      // Not ours.
    }
  })
  void subscriber.subscribe(cancelChannel(queueName)).catch(() => {})

  const worker = new Worker<RemoteSpawn, RemoteAnswer>(
    queueName,
    async (job, _token, bullSignal) => {
      const id = job.id!
      const controller = new AbortController()
      running.set(id, controller)
      const onBull = () => controller.abort(bullSignal!.reason)
      bullSignal?.addEventListener('abort', onBull, { once: true })
      try {
        // Cancelled before this worker listened for it?
        const cancelled = await client.get(cancelKey(queueName, id)).catch(() => null)
        if (cancelled !== null) controller.abort(new Error(cancelled))
        return await runRemoteSpawn(run, job.data, controller.signal)
      } finally {
        running.delete(id)
        bullSignal?.removeEventListener('abort', onBull)
      }
    },
    { ...workerOptions, connection: bullConnection(connection), concurrency },
  )
  worker.on('error', () => {})
  let closing: Promise<void> | undefined
  return {
    worker,
    close: () =>
      (closing ??= (async () => {
        await worker.close()
        await Promise.allSettled([subscriber.quit(), client.quit()])
      })()),
  }
}
