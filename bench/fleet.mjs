// Issue 21: subagents through BullMQ on Redis. No-op subagents (each answers its task at
// once) through the queue with 1, 2 and 4 worker processes, in spawns per second, beside
// the same batch in process; and one spawn at a time, so that the queue's own cost per
// spawn shows. Starts its own redis-server (Debian's `redis-server`) on a free loopback port.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { spawnParallel } from '../dist/index.js'
import { SubagentQueue } from '../dist/fleet/bullmq.js'
import { fmt, median, root, table } from './lib.mjs'

const SPAWNS = 600
const ONE_AT_A_TIME = 60
const RUNS = 3

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('bench fleet: `redis-server` is not on PATH (Debian: apt-get install -y redis-server)')
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'))
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' })
  const { Redis } = await import('ioredis')
  const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => 50 })
  for (let i = 0; i < 200; i++) {
    try {
      await probe.connect()
      break
    } catch {
      await sleep(50)
    }
  }
  await probe.ping()
  probe.disconnect()
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve(rmSync(dir, { recursive: true, force: true })))
        child.kill('SIGKILL')
      }),
  }
}

function startWorkers(n, port, queueName) {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [join(root, 'bench', 'fleet-worker.mjs'), String(port), queueName], { stdio: ['ignore', 'pipe', 'inherit'] })
          child.stdout.setEncoding('utf8').on('data', (d) => d.includes('ready') && resolve(child))
          child.once('error', reject)
        }),
    ),
  )
}

const stopWorkers = (children) => Promise.all(children.map((c) => new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGTERM')))))

const configs = (n, tag) => Array.from({ length: n }, (_, i) => ({ taskId: `${tag}-${i}`, task: `Check endpoint /api/${tag}/${i} and report its status` }))
const noop = ({ context }) => `Done: ${context.task}`

export async function run() {
  const lines = []
  const say = (s = '') => lines.push(s)
  const redis = await startRedis()
  const connection = { host: '127.0.0.1', port: redis.port }
  let batches = 0
  try {
    // In process: the same batch, the same no-op run.
    const inProcess = []
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now()
      const { metrics } = await spawnParallel(configs(SPAWNS, `local${r}`), { run: noop, concurrency: 64 })
      if (metrics.succeeded !== SPAWNS) throw new Error(`in process: ${metrics.succeeded}/${SPAWNS} succeeded`)
      inProcess.push(SPAWNS / ((performance.now() - started) / 1000))
    }
    const rows = [['in process (no queue)', '—', fmt(median(inProcess), 0), fmt(1000 / median(inProcess), 2)]]
    const byWorkers = {}
    for (const workers of [1, 2, 4]) {
      const queueName = `bench-${workers}`
      const children = await startWorkers(workers, redis.port, queueName)
      const queue = new SubagentQueue({ connection, queueName })
      const rates = []
      try {
        // One unmeasured batch: connections, Lua scripts and JIT warm.
        await spawnParallel(configs(50, `warm${workers}`), { executor: queue, batchId: `warm-${workers}` })
        for (let r = 0; r < RUNS; r++) {
          const started = performance.now()
          const { metrics } = await spawnParallel(configs(SPAWNS, `q${workers}r${r}`), { executor: queue, batchId: `b${++batches}` })
          if (metrics.succeeded !== SPAWNS) throw new Error(`${workers} workers: ${metrics.succeeded}/${SPAWNS} succeeded`)
          rates.push(SPAWNS / ((performance.now() - started) / 1000))
        }
      } finally {
        await queue.close()
        await stopWorkers(children)
      }
      byWorkers[workers] = median(rates)
      rows.push([`queue, ${workers} worker process${workers > 1 ? 'es' : ''}`, String(workers), fmt(median(rates), 0), fmt(1000 / median(rates), 2)])
    }

    // One spawn at a time: the trip's latency, in process and through the queue (1 worker).
    const sequential = async (spawnOne) => {
      const times = []
      for (let i = 0; i < ONE_AT_A_TIME; i++) {
        const started = performance.now()
        const outcome = await spawnOne(i)
        if (!outcome.success) throw new Error(`one at a time: ${outcome.error?.message}`)
        times.push(performance.now() - started)
      }
      return median(times.slice(5))
    }
    const localMs = await sequential(async (i) => (await spawnParallel(configs(1, `local-seq${i}`), { run: noop })).outcomes[0])
    const children = await startWorkers(1, redis.port, 'bench-seq')
    const queue = new SubagentQueue({ connection, queueName: 'bench-seq' })
    let queueMs
    try {
      queueMs = await sequential(async (i) => (await spawnParallel(configs(1, `seq${i}`), { executor: queue, batchId: `seq-${i}` })).outcomes[0])
    } finally {
      await queue.close()
      await stopWorkers(children)
    }

    say('## Fleets: subagents on BullMQ (issue 21)')
    say()
    say(
      `No-op subagents (each answers its task at once), ${SPAWNS} per batch, median of ${RUNS} batches after a warm-up; through \`subagent-context/bullmq\` the parent isolates, renders, filters and records as in process, and worker processes (16 runs at once each) call \`run\`. Redis is a local \`redis-server\` on loopback. The parent, Redis and the workers share this machine's cores, so more workers than cores only adds contention.`,
    )
    say()
    say(table(['where the runs happen', 'workers', 'spawns/s', 'ms per spawn (wall / spawns)'], rows))
    say()
    const scaling = byWorkers[4] / byWorkers[1]
    say(
      scaling < 1.2
        ? `With runs that cost nothing, more workers do not raise the rate here (${fmt(scaling, 2)}× from 1 to 4): the parent (one process isolating, rendering, adding jobs, reading the event stream and filtering) and Redis bound it on this machine's cores. Workers pay off when runs take time, as model calls do.`
        : `From 1 to 4 workers the rate grows ${fmt(scaling, 2)}×.`,
    )
    say()
    say(
      `One spawn at a time (\`spawnParallel\` of one config, median of ${ONE_AT_A_TIME - 5}): ${fmt(localMs, 2)} ms in process, ${fmt(queueMs, 2)} ms through the queue with one worker: **${fmt(queueMs - localMs, 2)} ms of overhead per spawn** (job added, taken by the worker, its answer back through the event stream). In a batch the overhead overlaps: ${fmt(1000 / byWorkers[1] - 1000 / median(inProcess), 2)} ms per spawn of wall time with one worker beside in process.`,
    )
  } finally {
    await redis.stop()
  }
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run())
