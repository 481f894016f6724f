// RedisLedgerStore against a real redis-server: a ledger that several processes open and
// write at once, record by record, with no lost update.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { FileLedgerStore, MemoryLedgerStore, SubtaskLedger } from '../dist/index.js'
import { RedisLedgerStore } from '../dist/fleet/bullmq.js'
import { type RedisServer, startRedis } from './redis.js'

const writer = join(import.meta.dirname, 'fixtures', 'redis-ledger-writer.mjs')
const entry = join(import.meta.dirname, '..', 'dist', 'index.js')
const fleetEntry = join(import.meta.dirname, '..', 'dist', 'fleet', 'bullmq.js')

let redis: RedisServer
const stores: RedisLedgerStore[] = []
const storeAt = (key: string) => {
  const store = new RedisLedgerStore({ connection: { host: redis.host, port: redis.port }, key })
  stores.push(store)
  return store
}

beforeAll(async () => {
  redis = await startRedis()
})
afterAll(async () => {
  for (const s of stores) await s.close()
  await redis?.stop()
})

function runWriters(key: string, tags: string[], count: number): Promise<{ tag: string; artifacts: string[] }[]> {
  return new Promise((resolve, reject) => {
    const children = tags.map((tag) =>
      spawn(process.execPath, [writer, String(redis.port), key, tag, String(count), entry, fleetEntry], { stdio: ['pipe', 'pipe', 'pipe'] }),
    )
    const outs = children.map(() => '')
    const errs = children.map(() => '')
    let ready = 0
    let closed = 0
    children.forEach((child, i) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        const first = !outs[i]!.includes('ready\n')
        outs[i] += d
        if (first && outs[i]!.includes('ready\n') && ++ready === children.length) for (const c of children) c.stdin.end('go\n')
      })
      child.stderr.setEncoding('utf8').on('data', (d: string) => (errs[i] += d))
      child.on('error', reject)
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`writer ${tags[i]} exited with ${code}: ${errs[i]}`))
        if (++closed === children.length) {
          resolve(outs.map((o) => JSON.parse(o.split('\n').filter((l) => l.startsWith('{'))[0]!) as { tag: string; artifacts: string[] }))
        }
      })
    })
  })
}

describe('RedisLedgerStore', () => {
  it('three processes each record 200 completions at once: all 600 are there when it is opened again', async () => {
    const key = 'bar-600'
    const reports = await runWriters(key, ['a', 'b', 'c'], 200)
    const ledger = await SubtaskLedger.open(storeAt(key))
    const ids = ledger.completions().map((c) => c.subtaskId)
    expect(ids).toHaveLength(600)
    expect(new Set(ids).size).toBe(600)
    for (const tag of ['a', 'b', 'c']) for (let i = 0; i < 200; i++) expect(ids).toContain(`${tag}-${i}`)
    // Each writer's completions stay in the order it recorded them.
    for (const tag of ['a', 'b', 'c']) {
      const own = ids.filter((id) => id.startsWith(`${tag}-`)).map((id) => Number(id.slice(2)))
      expect(own).toEqual([...own].sort((x, y) => x - y))
    }
    // Artifacts: 10 per writer, with ids Redis numbered, none shared between processes.
    const artifacts = ledger.artifacts()
    expect(artifacts).toHaveLength(30)
    expect(new Set(artifacts.map((a) => a.id)).size).toBe(30)
    expect(reports.flatMap((r) => r.artifacts).sort()).toEqual(artifacts.map((a) => a.id).sort())
    // Notes: one section per writer, each with its last value; backpack: two items per writer.
    const sections = ledger.noteSections()
    expect(sections.map((s) => s.section).sort()).toEqual(['Run a', 'Run b', 'Run c'])
    for (const s of sections) expect(s.content).toBe(`Last completed: ${s.section.slice(4)}-150`)
    expect(ledger.backpack.items()).toHaveLength(6)
    // What was written is what a reader ranks: a later subtask finds the relevant summary.
    expect(ledger.relevantArtifacts('Finding from b-40')[0]?.subtaskId).toBe('b-40')
  }, 60_000)

  it('keeps one completion per subtask, the later; refresh() shows what another process recorded', async () => {
    const one = await SubtaskLedger.open(storeAt('refresh'))
    const two = await SubtaskLedger.open(storeAt('refresh'))
    await one.recordCompletion({ subtaskId: 's1', description: 'first', summary: 'First try.' })
    await two.recordCompletion({ subtaskId: 's2', description: 'second', summary: 'Second.' })
    await two.recordCompletion({ subtaskId: 's1', description: 'first', summary: 'First, again.' })
    expect(one.completions().map((c) => c.subtaskId)).toEqual(['s1'])
    // refresh() waits for this ledger's own writes still in flight.
    void one.recordArtifact({ type: 'FINDING', content: 'Found while refreshing', relevance: 0.5, subtaskId: 's1' })
    await one.refresh()
    expect(one.artifacts().map((a) => a.content)).toEqual(['Found while refreshing'])
    expect(one.completions().map((c) => [c.subtaskId, c.summary])).toEqual([
      ['s2', 'Second.'],
      ['s1', 'First, again.'],
    ])
    const removed = await two.backpack.add('Shared item', { id: 'shared' }).then(() => one.refresh()).then(() => one.backpack.remove('shared'))
    expect(removed).toBe(true)
    await two.refresh()
    expect(two.backpack.items()).toEqual([])
    await one.updateNotes('Plan', 'Step one')
    await one.updateNotes('Plan', 'Step two')
    expect(await one.removeNote('Missing')).toBe(false)
    await two.refresh()
    expect(two.noteSections()).toEqual([{ section: 'Plan', content: 'Step two' }])
  })

  it('a new ledger on a Redis key that holds one refuses to overwrite it', async () => {
    const first = await SubtaskLedger.open(storeAt('owned'))
    await first.recordCompletion({ subtaskId: 'x', description: 'x', summary: 'Done.' })
    const second = new SubtaskLedger({ store: storeAt('owned') })
    await expect(second.recordCompletion({ subtaskId: 'y', description: 'y', summary: 'Done.' })).rejects.toThrow(/already holds a ledger/)
  })

  it('save() imports a whole ledger from another store, and load() gives it back', async () => {
    const memory = new SubtaskLedger({ store: new MemoryLedgerStore() })
    await memory.recordCompletion({ subtaskId: 'm1', description: 'd', summary: 'Memory one.' })
    await memory.recordArtifact({ type: 'DECISION', content: 'Use Redis', relevance: 1, subtaskId: 'm1' })
    await memory.updateNotes('Context', 'Imported')
    const state = (await memory.store.load())!
    const store = storeAt('imported')
    await store.save(state)
    const loaded = await store.load()
    expect(loaded).toEqual(state)
    const ledger = await SubtaskLedger.open(store)
    const next = await ledger.recordArtifact({ type: 'TODO', content: 'Next', relevance: 0.2, subtaskId: 'm2' })
    expect(next.id).toBe('artifact-2')
  })

  it('checks its arguments, naming them', () => {
    // @ts-expect-error wrong on purpose
    expect(() => new RedisLedgerStore({ connection: { port: 1 } })).toThrow(/RedisLedgerStore: `options.key` must be a non-empty string/)
    // @ts-expect-error wrong on purpose
    expect(() => new RedisLedgerStore({ key: 'k', connection: 'redis://x' })).toThrow(TypeError)
    expect(FileLedgerStore).toBeTypeOf('function')
  })
})
