// A subtask ledger in Redis that many processes open at once: every completion, artifact,
// backpack item and notes section is its own record (a hash field, ordered by a sorted
// set), each written by one Lua script, so that writers never overwrite each other.
import { Redis, type RedisOptions } from 'ioredis'

import { fail } from '../args.js'
import {
  type Artifact,
  type BackpackItem,
  type CompletionSummary,
  LedgerCorruptError,
  type LedgerRecords,
  type LedgerState,
  type LedgerStore,
  parseLedgerJson,
} from '../ledger-store.js'
import { parseNotes, renderNotes } from '../ledger-notes.js'

export interface RedisLedgerStoreOptions {
  /** An ioredis client (left open by `close`), or the options of one the store opens (and closes). */
  connection: Redis | RedisOptions
  /** The prefix of the ledger's keys: `<key>:completions`, `<key>:artifacts`, … */
  key: string
}

/** Stores `ARGV[2]` under field `ARGV[1]`; orders it last (`ARGV[3]` = 'last') or keeps its place when it was there. */
const PUT = `
local n = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == 'last' then
  redis.call('ZADD', KEYS[2], n, ARGV[1])
else
  redis.call('ZADD', KEYS[2], 'NX', n, ARGV[1])
end
return n`

const REMOVE = `
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])`

/** Gives the artifact the next number of `KEYS[3]` and stores it under `artifact-<n>`. */
const ADD_ARTIFACT = `
local n = redis.call('INCR', KEYS[3])
local id = 'artifact-' .. n
redis.call('HSET', KEYS[1], id, ARGV[1])
redis.call('ZADD', KEYS[2], n, id)
return n`

type Kind = 'completions' | 'artifacts' | 'backpack' | 'notes'
const KINDS: readonly Kind[] = ['completions', 'artifacts', 'backpack', 'notes']

/**
 * A `SubtaskLedger`'s store in Redis, shared by every process that opens it: each change
 * is one record written atomically, so several processes record at once and lose nothing
 * (a completion recorded twice for one subtask is kept once, the later one). Open it with
 * `await SubtaskLedger.open(store)` in each process; `ledger.refresh()` reads what the
 * others recorded since. Artifact ids are numbered by Redis, unique across processes.
 */
export class RedisLedgerStore implements LedgerStore {
  readonly key: string
  readonly records: LedgerRecords
  readonly #redis: Redis
  readonly #own: boolean

  constructor(options: RedisLedgerStoreOptions) {
    const fn = 'RedisLedgerStore'
    if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(fn, 'options', 'an object with `connection` and `key`', options)
    const { connection, key } = options
    if (typeof key !== 'string' || key.trim() === '') fail(fn, 'options.key', 'a non-empty string', key)
    if (typeof connection !== 'object' || connection === null || Array.isArray(connection)) {
      fail(fn, 'options.connection', 'an ioredis client or its options ({ host, port, … })', connection)
    }
    this.key = key
    this.#own = !(connection instanceof Redis)
    this.#redis = connection instanceof Redis ? connection : new Redis({ maxRetriesPerRequest: 3, ...connection })
    const k = (kind: Kind) => [`${key}:${kind}`, `${key}:${kind}:order`, `${key}:seq`]
    const put = (kind: Kind, id: string, json: string, order: 'last' | 'keep') =>
      this.#redis.eval(PUT, 3, ...k(kind), id, json, order).then(() => {})
    const remove = (kind: Kind, id: string) => this.#redis.eval(REMOVE, 2, ...k(kind).slice(0, 2), id).then((n) => n === 1)
    this.records = Object.freeze({
      putCompletion: (c: CompletionSummary) => put('completions', c.subtaskId, JSON.stringify(c), 'last'),
      addArtifact: async (a: Omit<Artifact, 'id'>): Promise<Artifact> => {
        const body = { type: a.type, content: a.content, relevance: a.relevance, subtaskId: a.subtaskId, recordedAt: a.recordedAt }
        const n = await this.#redis.eval(ADD_ARTIFACT, 3, `${key}:artifacts`, `${key}:artifacts:order`, `${key}:artifacts:next`, JSON.stringify(body))
        return { id: `artifact-${String(n)}`, ...body }
      },
      putBackpackItem: (item: BackpackItem) => put('backpack', item.id, JSON.stringify(item), 'keep'),
      removeBackpackItem: (id: string) => remove('backpack', id),
      clearBackpack: () => this.#redis.del(`${key}:backpack`, `${key}:backpack:order`).then(() => {}),
      putNote: (section: string, content: string) => put('notes', section, content, 'keep'),
      removeNote: (section: string) => remove('notes', section),
    })
  }

  get description(): string {
    return `redis ${this.key}`
  }

  /** Every process's records, read in one transaction (a consistent snapshot). */
  async load(): Promise<LedgerState | undefined> {
    const multi = this.#redis.multi()
    for (const kind of KINDS) {
      multi.hgetall(`${this.key}:${kind}`)
      multi.zrange(`${this.key}:${kind}:order`, '0', '-1')
    }
    multi.get(`${this.key}:artifacts:next`)
    const replies = await multi.exec()
    if (!replies) throw new Error(`RedisLedgerStore.load: the transaction on ${this.key} was aborted`)
    for (const [error] of replies) if (error) throw error
    const values = replies.map(([, value]) => value)
    const ordered = (at: number): [string, string][] => {
      const hash = values[at * 2] as Record<string, string>
      const order = values[at * 2 + 1] as string[]
      return order.filter((id) => id in hash).map((id) => [id, hash[id]!])
    }
    const parse = (kind: Kind, id: string, json: string): unknown => {
      try {
        return JSON.parse(json)
      } catch (error) {
        throw new LedgerCorruptError(`${this.key}:${kind} ${id}`, `not valid JSON: ${(error as Error).message}`, { cause: error })
      }
    }
    const completions = ordered(0).map(([id, json]) => parse('completions', id, json))
    const artifacts = ordered(1).map(([id, json]) => ({ ...(parse('artifacts', id, json) as object), id }))
    const backpack = ordered(2).map(([id, json]) => parse('backpack', id, json))
    const sections = ordered(3).map(([section, content]) => ({ section, content }))
    if (completions.length + artifacts.length + backpack.length + sections.length === 0) return undefined
    const next = Number(values[8] ?? 0) + 1
    const state = parseLedgerJson({ format: 'subagent-context/ledger', version: 1, nextArtifact: next, completions, artifacts, backpack })
    if (typeof state === 'string') throw new LedgerCorruptError(this.key, state)
    return { ...state, notes: renderNotes(sections) }
  }

  /**
   * Replaces the whole ledger in one transaction (to import one from another store). A
   * ledger on this store never calls it: it writes record by record.
   */
  async save(state: LedgerState): Promise<void> {
    const k = this.key
    const multi = this.#redis.multi()
    for (const kind of KINDS) multi.del(`${k}:${kind}`, `${k}:${kind}:order`)
    let n = 0
    for (const c of state.completions) multi.hset(`${k}:completions`, c.subtaskId, JSON.stringify(c)).zadd(`${k}:completions:order`, ++n, c.subtaskId)
    for (const a of state.artifacts) {
      const { id, ...body } = a
      const number = /^artifact-(\d+)$/.exec(id)
      multi.hset(`${k}:artifacts`, id, JSON.stringify(body)).zadd(`${k}:artifacts:order`, number ? Number(number[1]) : ++n, id)
    }
    for (const b of state.backpack) multi.hset(`${k}:backpack`, b.id, JSON.stringify(b)).zadd(`${k}:backpack:order`, ++n, b.id)
    for (const s of parseNotes(state.notes)) multi.hset(`${k}:notes`, s.section, s.content).zadd(`${k}:notes:order`, ++n, s.section)
    multi.set(`${k}:artifacts:next`, String(Math.max(0, state.nextArtifact - 1)))
    multi.set(`${k}:seq`, String(n))
    const replies = await multi.exec()
    for (const [error] of replies ?? []) if (error) throw error
  }

  /** Closes the connection the store opened (a client it was given stays open). */
  async close(): Promise<void> {
    if (this.#own && this.#redis.status !== 'end') await this.#redis.quit().catch(() => this.#redis.disconnect())
  }
}
