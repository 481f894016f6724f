// The fleet's crash bar: 300 spawns on three worker processes; one worker is SIGKILLed
// after 30 runs have started and the parent after 120; a parent restarted with the same
// batchId gets all 300 outcomes, right and in order, with no more runs repeated than were
// in flight on the killed worker, answers from at least two workers, each subtask
// recorded once in the shared ledger, and no prompt holding a sibling's task.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, expect, it } from 'vitest'

import { SubtaskLedger } from '../dist/index.js'
import { RedisLedgerStore } from '../dist/fleet/bullmq.js'
import { type RedisServer, startRedis } from './redis.js'

const fixtures = join(import.meta.dirname, 'fixtures')
const entry = join(import.meta.dirname, '..', 'dist', 'index.js')
const fleetEntry = join(import.meta.dirname, '..', 'dist', 'fleet', 'bullmq.js')

let redis: RedisServer
let dir: string
const children: ChildProcess[] = []

beforeAll(async () => {
  redis = await startRedis()
  dir = mkdtempSync(join(tmpdir(), 'subagent-fleet-'))
})
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  await redis?.stop()
  rmSync(dir, { recursive: true, force: true })
})

function start(script: string, args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(fixtures, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => out, exited }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(what: string, test: () => boolean, timeoutMs: number): Promise<void> {
  for (let waited = 0; !test(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

interface LogLine {
  kind: 'start' | 'end'
  taskId: string
  pid: number
  prompt?: string
}

const readLog = (log: string): LogLine[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [kind, taskId, pid, prompt] = l.split(' ')
          return { kind: kind as 'start' | 'end', taskId: taskId!, pid: Number(pid), prompt }
        })
    : []

it('300 spawns on three workers survive a SIGKILLed worker and a SIGKILLed, restarted parent', async () => {
  const log = join(dir, 'runs.log')
  const port = String(redis.port)
  const queueName = 'crash'
  const workers = [0, 1, 2].map(() => start('fleet-worker.mjs', [port, queueName, log, fleetEntry]))
  for (const w of workers) await until('a worker to be ready', () => w.output().includes('ready\n'), 20_000)
  const pids = workers.map((w) => w.child.pid!)

  const parentArgs = (out: string) => [port, queueName, 'batch-300', 'crash-ledger', out, entry, fleetEntry]
  const first = start('fleet-parent.mjs', parentArgs(join(dir, 'first.json')))

  // After 30 runs have started: SIGKILL the worker with the most runs in flight.
  await until('30 runs to start', () => readLog(log).filter((l) => l.kind === 'start').length >= 30, 30_000)
  const inFlight = (lines: LogLine[], pid: number) => {
    const open = new Set<string>()
    for (const l of lines) if (l.pid === pid) l.kind === 'start' ? open.add(l.taskId) : open.delete(l.taskId)
    return open
  }
  const before = readLog(log)
  const victim = workers.reduce((a, b) => (inFlight(before, b.child.pid!).size > inFlight(before, a.child.pid!).size ? b : a))
  victim.child.kill('SIGKILL')
  await victim.exited
  // What the killed worker had started and not finished: its appends were synchronous, so the log is complete.
  const killedInFlight = inFlight(readLog(log), victim.child.pid!)

  // After 120 runs have started: SIGKILL the parent, then restart it with the same batchId.
  await until('120 runs to start', () => readLog(log).filter((l) => l.kind === 'start').length >= 120, 30_000)
  first.child.kill('SIGKILL')
  await first.exited
  expect(existsSync(join(dir, 'first.json'))).toBe(false) // it really died before the end
  const second = start('fleet-parent.mjs', parentArgs(join(dir, 'second.json')))
  const code = await Promise.race([second.exited, sleep(45_000).then(() => 'timeout')])
  expect(code, second.output()).toBe(0)

  const outcomes = JSON.parse(readFileSync(join(dir, 'second.json'), 'utf8')) as { taskId: string; success: boolean; content: string }[]
  // All 300, right and in order.
  expect(outcomes).toHaveLength(300)
  outcomes.forEach((o, i) => {
    expect(o.taskId).toBe(`shard-${i}`)
    expect(o.success).toBe(true)
    expect(o.content).toContain(`Shard ZQX${i}Q checksum is ${(i * 7919) % 10007}`)
  })
  // Answers from at least two workers (the killed one's finished answers count too).
  const answeredBy = new Set(outcomes.map((o) => Number(/computed by worker (\d+)/.exec(o.content)?.[1])))
  expect([...answeredBy].every((pid) => pids.includes(pid))).toBe(true)
  expect(answeredBy.size).toBeGreaterThanOrEqual(2)

  // No more runs repeated than were in flight on the killed worker: only those ran twice.
  const lines = readLog(log)
  const starts = new Map<string, number>()
  for (const l of lines) if (l.kind === 'start') starts.set(l.taskId, (starts.get(l.taskId) ?? 0) + 1)
  expect(starts.size).toBe(300)
  const repeated = [...starts].filter(([, n]) => n > 1).map(([id]) => id)
  expect(repeated.length).toBeLessThanOrEqual(killedInFlight.size)
  for (const id of repeated) expect(killedInFlight.has(id)).toBe(true)
  // Every run the killed worker left unfinished was recovered by another worker.
  for (const id of killedInFlight) {
    expect(lines.some((l) => l.kind === 'end' && l.taskId === id && l.pid !== victim.child.pid)).toBe(true)
  }
  // No prompt held a sibling's task text.
  expect(lines.filter((l) => l.kind === 'start' && l.prompt !== 'own')).toEqual([])

  // Each subtask recorded once in the shared ledger.
  const store = new RedisLedgerStore({ connection: { host: redis.host, port: redis.port }, key: 'crash-ledger' })
  const ledger = await SubtaskLedger.open(store)
  const ids = ledger.completions().map((c) => c.subtaskId)
  await store.close()
  expect(ids).toHaveLength(300)
  expect(new Set(ids)).toEqual(new Set(outcomes.map((o) => o.taskId)))

  for (const w of workers) if (w !== victim) w.child.kill('SIGTERM')
  await Promise.all(workers.filter((w) => w !== victim).map((w) => w.exited))
  console.log(
    `fleet crash: killed worker had ${killedInFlight.size} in flight; ${repeated.length} runs repeated; answers from ${answeredBy.size} workers; ${lines.filter((l) => l.kind === 'start').length} runs in all`,
  )
}, 90_000)
