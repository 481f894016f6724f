// subagent-context/bullmq against a real redis-server and real BullMQ workers (in this
// process here; in child processes in fleet-crash.spec.ts).
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { spawnParallel, SubtaskLedger, type SubagentConfig, type SubagentRunInput } from '../dist/index.js'
import { RedisLedgerStore, startSubagentWorker, SubagentQueue, type SubagentWorker } from '../dist/fleet/bullmq.js'
import { type RedisServer, startRedis } from './redis.js'

let redis: RedisServer
const closers: (() => Promise<void>)[] = []
const connection = () => ({ host: redis.host, port: redis.port })
let queues = 0

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {})
  await redis?.stop()
})

function queue(queueName: string): SubagentQueue {
  const q = new SubagentQueue({ connection: connection(), queueName })
  closers.push(() => q.close())
  return q
}

function worker(queueName: string, run: (input: SubagentRunInput) => unknown, concurrency = 2): SubagentWorker {
  const w = startSubagentWorker({
    connection: connection(),
    queueName,
    run: run as never,
    concurrency,
    workerOptions: { lockDuration: 2000, stalledInterval: 1000 },
  })
  closers.push(() => w.close())
  return w
}

const configs = (n: number, tag: string): SubagentConfig[] =>
  Array.from({ length: n }, (_, i) => ({ taskId: `${tag}-${i}`, task: `Measure the latency of endpoint /api/${tag}/${i} and report it` }))

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(t)
      reject(signal.reason)
    })
  })

describe('SubagentQueue and startSubagentWorker', () => {
  it('runs a batch on two workers: outcomes in input order, run gets what it gets in process', async () => {
    const name = `q${++queues}`
    const seen: { worker: string; input: SubagentRunInput }[] = []
    const answer = (tag: string) => async (input: SubagentRunInput) => {
      seen.push({ worker: tag, input })
      expect(input.iteration()).toBe(1)
      await sleep(20)
      return { content: `The latency of endpoint /api/${input.taskId.replace('-', '/')} is 42 ms (worker ${tag}).`, usage: { totalTokens: 50 } }
    }
    worker(name, answer('A'))
    worker(name, answer('B'))
    const thread = 'user: we are auditing the API latency.\nassistant: I will check each endpoint.'
    const { outcomes, metrics } = await spawnParallel(configs(12, 'lat'), { executor: queue(name), fullThreadContext: thread, limits: { maxIterations: 3 } })
    expect(outcomes.map((o) => o.taskId)).toEqual(configs(12, 'lat').map((c) => c.taskId))
    expect(outcomes.every((o) => o.success)).toBe(true)
    outcomes.forEach((o, i) => expect(o.content).toContain(`/api/lat/${i} is 42 ms`))
    expect(outcomes.every((o) => o.metrics.iterations === 1 && o.metrics.tokensUsed === 50)).toBe(true)
    expect(metrics.succeeded).toBe(12)
    expect(new Set(seen.map((s) => s.worker))).toEqual(new Set(['A', 'B']))
    for (const { input } of seen) {
      expect(input.prompt).toContain(`/api/lat/${input.taskId.slice(4)}`)
      expect(input.context.task).toContain(`/api/lat/${input.taskId.slice(4)}`)
      expect(input.limits).toEqual({ maxIterations: 3, timeoutMs: 300000 })
      expect(input.signal).toBeInstanceOf(AbortSignal)
      // No sibling's task in the prompt.
      const others = configs(12, 'lat').filter((c) => c.taskId !== input.taskId)
      for (const c of others) expect(input.prompt).not.toContain(c.task)
    }
  })

  it('holds the limits across processes: timeout aborts the remote run, iterations and tokens fail the spawn', async () => {
    const name = `q${++queues}`
    let abortedRemotely = 0
    worker(name, async (input) => {
      if (input.taskId === 'slow') {
        try {
          await sleep(20_000, input.signal)
        } catch {
          abortedRemotely++
        }
        return 'too late'
      }
      if (input.taskId === 'loop') for (;;) input.iteration()
      return { content: 'A big answer about the endpoint latency.', usage: { totalTokens: 10_000 } }
    })
    const { outcomes } = await spawnParallel(
      [
        { taskId: 'slow', task: 'A slow task about latency' },
        { taskId: 'loop', task: 'A looping task about latency' },
        { taskId: 'big', task: 'A costly task about latency' },
      ],
      { executor: queue(name), limits: { timeoutMs: 1500, maxIterations: 5, maxTokens: 5000 } },
    )
    expect(outcomes.map((o) => o.error?.reason)).toEqual(['timeout', 'iteration-limit', 'token-limit'])
    // The parent's timeout cancelled the run on the worker, bounded by the worker's own timer too.
    for (let i = 0; i < 100 && abortedRemotely === 0; i++) await sleep(50)
    expect(abortedRemotely).toBe(1)
  })

  it("the batch's signal removes the jobs not started and aborts the running ones", async () => {
    const name = `q${++queues}`
    const started: string[] = []
    const aborted: string[] = []
    const controller = new AbortController()
    worker(
      name,
      async (input) => {
        started.push(input.taskId)
        if (started.length === 1) setTimeout(() => controller.abort(new Error('enough')), 100)
        try {
          await sleep(20_000, input.signal)
        } catch {
          aborted.push(input.taskId)
        }
        return 'stopped'
      },
      1,
    )
    const q = queue(name)
    const { outcomes } = await spawnParallel(configs(5, 'stop'), { executor: q, signal: controller.signal, batchId: 'stop-batch' })
    expect(outcomes.every((o) => !o.success && o.error?.reason === 'aborted')).toBe(true)
    for (let i = 0; i < 100 && aborted.length === 0; i++) await sleep(50)
    // One run started (jobs are added as their spawns are ready, in no fixed order) and was aborted.
    expect(started).toHaveLength(1)
    expect(aborted).toEqual(started)
    // The four that never started were removed from the queue.
    for (let i = 0; i < 5; i++) {
      if (`stop-${i}` !== started[0]) expect(await q.queue.getJob(`stop-batch-${i}`)).toBeUndefined()
    }
  })

  it('a parent restarted with the same batchId collects finished runs without running them again; completions recorded once', async () => {
    const name = `q${++queues}`
    const runs = new Map<string, number>()
    worker(name, async (input) => {
      runs.set(input.taskId, (runs.get(input.taskId) ?? 0) + 1)
      return `Endpoint ${input.taskId}: latency 42 ms, measured.`
    })
    const store = new RedisLedgerStore({ connection: connection(), key: 'restart-ledger' })
    closers.push(() => store.close())
    const first = await spawnParallel(configs(6, 'again'), { executor: queue(name), batchId: 'same', ledger: await SubtaskLedger.open(store) })
    const second = await spawnParallel(configs(6, 'again'), { executor: queue(name), batchId: 'same', ledger: await SubtaskLedger.open(store) })
    expect([...runs.values()]).toEqual([1, 1, 1, 1, 1, 1])
    expect(second.outcomes.map((o) => o.content)).toEqual(first.outcomes.map((o) => o.content))
    expect(second.outcomes.every((o) => o.success)).toBe(true)
    const ledger = await SubtaskLedger.open(store)
    expect(ledger.completions().map((c) => c.subtaskId).sort()).toEqual(configs(6, 'again').map((c) => c.taskId).sort())
  })

  it('Infinity limits travel as no limit (JSON has no Infinity)', async () => {
    const name = `q${++queues}`
    let limits: unknown
    worker(name, (input) => {
      limits = input.limits
      for (let i = 0; i < 50; i++) input.iteration()
      return 'Endpoint checked: fine.'
    })
    const { outcomes } = await spawnParallel([{ taskId: 'inf', task: 'Check the endpoint' }], {
      executor: queue(name),
      limits: { maxIterations: Infinity, maxTokens: Infinity, timeoutMs: Infinity },
    })
    expect(outcomes[0]!.error).toBeUndefined()
    expect(outcomes[0]!.metrics.iterations).toBe(50)
    expect(limits).toEqual({ maxIterations: Infinity, maxTokens: Infinity, timeoutMs: Infinity })
  })

  it('a job carries the prompt, the isolated context and the limits, never the thread', async () => {
    const name = `q${++queues}`
    worker(name, (input) => `Endpoint ${input.taskId}: 42 ms.`)
    const q = queue(name)
    const thread = Array.from({ length: 400 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `Note ${i}: the warehouse inventory for aisle ${i} was recounted; pallets ${i * 3} to ${i * 3 + 2} were moved to the loading dock.`,
    })) as { role: 'user' | 'assistant'; content: string }[]
    const threadChars = JSON.stringify(thread).length
    const { outcomes } = await spawnParallel(configs(3, 'size'), { executor: q, batchId: 'size', fullThreadContext: thread, budget: { contextTokens: 400 } })
    expect(outcomes.every((o) => o.success)).toBe(true)
    for (let i = 0; i < 3; i++) {
      const job = (await q.queue.getJob(`size-${i}`))!
      expect(Object.keys(job.data).sort()).toEqual(['batchId', 'cache', 'context', 'index', 'limits', 'prompt', 'taskId'])
      const size = JSON.stringify(job.data).length
      expect(size).toBeLessThan(threadChars / 10)
    }
  })

  it("the worker's own timer bounds a run when no parent cancels it", async () => {
    const name = `q${++queues}`
    let sawAbort = false
    worker(name, async (input) => {
      await sleep(20_000, input.signal).catch(() => (sawAbort = true))
      return 'late'
    })
    const q = queue(name)
    // The executor called directly, with a signal that never aborts: only the worker's timer can end the run.
    const answer = await q.execute(
      {
        batchId: 'direct',
        index: 0,
        taskId: 'hang',
        prompt: 'Hang',
        context: { task: 'Hang' } as never,
        limits: { timeoutMs: 300 },
        cache: { sharedPrefix: '', sharedPrefixTokens: 0, key: 'k' },
      },
      new AbortController().signal,
    )
    expect(answer).toEqual({ kind: 'failed', reason: 'timeout', message: 'the subagent did not answer within 300 ms', iterations: 0 })
    expect(sawAbort).toBe(true)
  })

  it('a queue closed while spawns wait fails them as outcomes', async () => {
    const name = `q${++queues}`
    const q = new SubagentQueue({ connection: connection(), queueName: name }) // no worker: the jobs wait
    const batch = spawnParallel(configs(3, 'closed'), { executor: q })
    await sleep(300)
    await q.close()
    const { outcomes } = await batch
    expect(outcomes.map((o) => o.error?.reason)).toEqual(['threw', 'threw', 'threw'])
    expect(outcomes[0]!.error!.message).toMatch(/the executor failed: .*closed/)
  })

  it('a run that throws or answers nothing is an outcome, not a rejection', async () => {
    const name = `q${++queues}`
    worker(name, (input) => {
      if (input.taskId === 'throws') throw new Error('model down')
      return '   '
    })
    const { outcomes } = await spawnParallel(
      [
        { taskId: 'throws', task: 'Task one' },
        { taskId: 'empty', task: 'Task two' },
      ],
      { executor: queue(name) },
    )
    expect(outcomes.map((o) => [o.error?.reason, o.error?.message])).toEqual([
      ['threw', 'model down'],
      ['empty-result', 'the subagent returned an empty result'],
    ])
  })

  it('checks its arguments, naming them', async () => {
    // @ts-expect-error wrong on purpose
    expect(() => new SubagentQueue({ connection: connection() })).toThrow(/SubagentQueue: `options.queueName` must be a non-empty string/)
    expect(() => new SubagentQueue({ connection: connection(), queueName: 'a:b' })).toThrow(RangeError)
    // @ts-expect-error wrong on purpose
    expect(() => startSubagentWorker({ connection: connection(), queueName: 'x' })).toThrow(/startSubagentWorker: `options.run` must be a function/)
    expect(() => startSubagentWorker({ connection: connection(), queueName: 'x', run: () => 'x', concurrency: 0 })).toThrow(RangeError)
    // @ts-expect-error wrong on purpose
    await expect(spawnParallel([{ task: 't' }], { executor: {} })).rejects.toThrow(/spawnParallel: `options.executor` must be a SpawnExecutor/)
    await expect(spawnParallel([{ task: 't' }], { executor: { execute: async () => ({ kind: 'failed', reason: 'threw', message: 'x', iterations: 0 }) }, batchId: 'a:b' })).rejects.toThrow(
      /spawnParallel: `options.batchId`/,
    )
  })
})

describe("README's fleet example (examples/fleet)", () => {
  it('runs with two worker processes; run again with the same batch id, it runs nothing again', async () => {
    const dir = join(import.meta.dirname, '..', 'examples', 'fleet')
    const env = { ...process.env, REDIS_HOST: redis.host, REDIS_PORT: String(redis.port) }
    const workers: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, [join(dir, 'worker.mjs')], { env, stdio: ['ignore', 'pipe', 'inherit'] }))
    try {
      const pids = await Promise.all(
        workers.map(
          (w) =>
            new Promise<number>((resolve, reject) => {
              w.stdout!.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && resolve(w.pid!))
              w.once('exit', (code) => reject(new Error(`worker exited with ${code}`)))
            }),
        ),
      )
      const parent = () => promisify(execFile)(process.execPath, [join(dir, 'parent.mjs'), 'readme-batch'], { env }).then((r) => r.stdout)
      const first = await parent()
      expect(first).toContain('batch readme-batch: 6/6 succeeded; the ledger holds 6 completions')
      const by = [...first.matchAll(/done by worker (\d+)/g)].map((m) => Number(m[1]))
      expect(by).toHaveLength(6)
      expect(by.every((pid) => pids.includes(pid))).toBe(true)
      expect(await parent()).toBe(first)
    } finally {
      await Promise.all(workers.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : (w.once('exit', resolve), w.kill('SIGTERM'))))))
    }
  })
})
