// The subtask ledger: what earlier subtasks learned, carried to later ones selectively
// and within a budget. Completion summaries and typed artifacts are ranked by the core's
// relevance engine (`RelevanceIndex`: the terms and BM25 of extraction); notes are
// markdown sections; the backpack is a small set of items every subtask gets, bounded in
// exact tokens. `contextFor` renders what the next subtask should see.
import { randomBytes } from 'node:crypto'

import { describe } from './args.js'
import * as native from '../index.js'
import {
  ARTIFACT_TYPES,
  type Artifact,
  type ArtifactType,
  type BackpackItem,
  type CompletionSummary,
  type LedgerRecords,
  type LedgerState,
  type LedgerStore,
  MemoryLedgerStore,
} from './ledger-store.js'
import { GROUP_SEPARATOR, GROUPS, ITEM_SEPARATOR, renderArtifact, renderBackpackItem, renderNoteSection, renderSummary } from './ledger-render.js'
import { hasSectionHeading, type NoteSection, parseNotes, renderNotes, trimLines } from './ledger-notes.js'

export type { NoteSection } from './ledger-notes.js'

/** Default cap of the backpack, in exact `o200k_base` tokens. */
export const DEFAULT_BACKPACK_TOKENS = 500
/** Default cap of the notes (the whole `NOTES.md`), in exact `o200k_base` tokens. */
export const DEFAULT_NOTES_TOKENS = 2000
/**
 * A summary, artifact or notes section bears on a task when it scores at least this
 * (0..1: the share of a plain full match of the task's terms, rare terms counting more)
 * and at least `RELATIVE_SCORE` of the best score among its kind.
 */
export const DEFAULT_MIN_SCORE = 0.1
export const RELATIVE_SCORE = 0.4
/** How many recent summaries `relevantSummaries` falls back to when none bears on the task. */
export const FALLBACK_SUMMARIES = 2
/** `contextFor`'s summaries: the best 3 of the last 10 (the seed story's numbers). */
export const DEFAULT_MAX_SUMMARIES = 3
export const DEFAULT_SUMMARY_WINDOW = 10
/** `contextFor`'s artifacts: the 5 that bear most on the task, a handful of facts beside the summaries. */
export const DEFAULT_MAX_ARTIFACTS = 5

/**
 * The request to put to a subagent as it finishes, so that its answer can go to
 * `parseCompletionSummary` and then `recordCompletion`.
 */
export const COMPLETION_SUMMARY_PROMPT = `Before you finish, summarize this subtask for the subtasks that come after it. They will not see your work, only this summary, so name things exactly (files, functions, endpoints, values, commands).

Answer in this form, with two or three points in all under Findings, Decisions and Resources (leave out a heading that has nothing):

Summary: <one or two sentences: what was done and what came of it>
Findings:
- <a fact you established that later work depends on>
Decisions:
- <a choice you made, and why in a few words>
Resources:
- <a file, URL, command or table where the next subtask can look>`

/** What `recordCompletion` takes. */
export interface CompletionInput {
  subtaskId: string
  /** The subtask's task text. */
  description: string
  /** Two or three sentences: what was done and what came of it. */
  summary: string
  findings?: readonly string[]
  decisions?: readonly string[]
  /** Files, URLs, commands, tables: where the next subtask can look. */
  resources?: readonly string[]
}

/** What `recordArtifact` takes. */
export interface ArtifactInput {
  type: ArtifactType
  content: string
  /** 0..1, how much it matters beyond its own subtask: a task's relevance to it is weighed by `0.5 + relevance / 2`. */
  relevance: number
  /** The subtask that records it. */
  subtaskId: string
}

/** A summary `relevantSummaries` chose, with its score. */
export interface RankedSummary extends CompletionSummary {
  /** 0..1 against the task (see `DEFAULT_MIN_SCORE`). */
  readonly score: number
  /** `true` when nothing bore on the task and this is one of the most recent summaries instead. */
  readonly fallback: boolean
}

/** An artifact `relevantArtifacts` chose, with its score (text relevance weighed by the artifact's own `relevance`). */
export interface RankedArtifact extends Artifact {
  readonly score: number
}

export interface RelevantSummariesOptions {
  /** At most this many summaries. @default 3 */
  max?: number
  /** Only among the last this many completed subtasks. @default 10 */
  window?: number
  /** 0..1: the least score that bears on the task. @default 0.1 */
  minScore?: number
}

export interface RelevantArtifactsOptions {
  /** At most this many artifacts. @default 5 */
  max?: number
  /** Only artifacts of these types. Default: every type. */
  types?: readonly ArtifactType[]
  /** 0..1: the least score that bears on the task. @default 0.1 */
  minScore?: number
}

export interface ContextForOptions {
  /** A cap on the block's exact `o200k_base` tokens, never a target. No cap by default. */
  maxTokens?: number
  /** Summaries: at most this many, from the last `window` completed subtasks. @default 3, 10 */
  maxSummaries?: number
  window?: number
  /** At most this many artifacts. @default 5 */
  maxArtifacts?: number
  /** 0..1: the least score that bears on the task. @default 0.1 */
  minScore?: number
}

/** The block the next subtask sees, and what went into it. */
export interface LedgerContext {
  /** Markdown: `### Notes`, `### Earlier subtasks`, `### Artifacts`, `### Backpack`; empty when there is nothing. */
  readonly text: string
  /** Exact `o200k_base` tokens of `text`. */
  readonly tokens: number
  /** Notes sections included (`''` is the untitled lead), most relevant first. */
  readonly notes: readonly string[]
  /** Subtask ids of the summaries included, most relevant first. */
  readonly summaries: readonly string[]
  /** Artifact ids included, most relevant first. */
  readonly artifacts: readonly string[]
  /** Backpack item ids included. */
  readonly backpack: readonly string[]
  /** How many items that would have been included did not fit `maxTokens`. */
  readonly omitted: number
}

export interface SubtaskLedgerOptions {
  /** Where the ledger is kept. @default new MemoryLedgerStore() */
  store?: LedgerStore
  /** The backpack's cap, in exact `o200k_base` tokens. @default 500 */
  backpackTokens?: number
  /** The notes' cap (the whole markdown), in exact `o200k_base` tokens. @default 2000 */
  notesTokens?: number
}

/** `backpack.add` refused: the item does not fit in what is free. */
export class BackpackFullError extends RangeError {
  override readonly name = 'BackpackFullError'
  constructor(
    readonly needed: number,
    readonly free: number,
    readonly capacity: number,
  ) {
    super(
      `SubtaskLedger.backpack.add: the item is ${needed} tokens but only ${free} of the backpack's ${capacity} are free; remove items or raise \`backpackTokens\``,
    )
  }
}

/** The parts of a finishing subagent's answer to `COMPLETION_SUMMARY_PROMPT`. */
export interface ParsedCompletionSummary {
  summary: string
  findings: string[]
  decisions: string[]
  resources: string[]
}

/**
 * Reads an answer to `COMPLETION_SUMMARY_PROMPT`: `Summary:`, then bullet lists under
 * `Findings:`, `Decisions:` and `Resources:` (markdown emphasis and `#` headings around
 * the labels are tolerated). Text without the labels becomes the summary, whole.
 */
export function parseCompletionSummary(text: string): ParsedCompletionSummary {
  if (typeof text !== 'string') throw new TypeError(`parseCompletionSummary: \`text\` must be a string, got ${describe(text)}`)
  const out: ParsedCompletionSummary = { summary: '', findings: [], decisions: [], resources: [] }
  const label = /^\s*(?:#+\s*)?[*_]*\s*(summary|findings?|decisions?|resources?)\s*[*_]*\s*:?\s*[*_]*\s*(.*)$/i
  let current: 'summary' | 'findings' | 'decisions' | 'resources' | undefined
  const summary: string[] = []
  let sawLabel = false
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const m = label.exec(line)
    if (m && (m[2]!.trim() === '' || /^summary$/i.test(m[1]!) || line.includes(':'))) {
      sawLabel = true
      const name = m[1]!.toLowerCase()
      current = name.startsWith('summary')
        ? 'summary'
        : name.startsWith('finding')
          ? 'findings'
          : name.startsWith('decision')
            ? 'decisions'
            : 'resources'
      const rest = m[2]!.trim()
      if (rest) {
        if (current === 'summary') summary.push(rest)
        else out[current].push(rest.replace(/^[-*+]\s+|^\d+[.)]\s+/, ''))
      }
      continue
    }
    if (!current || line.trim() === '') continue
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (current === 'summary') summary.push(line.trim())
    else if (item) out[current].push(item[1]!.trim())
    else if (out[current].length > 0) out[current][out[current].length - 1] += ` ${line.trim()}`
  }
  out.summary = sawLabel ? summary.join(' ').trim() : text.trim()
  return out
}

// ---------------------------------------------------------------------------------------------
// Argument checks: a TypeError or RangeError naming the method and the parameter.

function typeError(method: string, param: string, expected: string, value: unknown): TypeError {
  return new TypeError(`SubtaskLedger.${method}: \`${param}\` must be ${expected}, got ${describe(value)}`)
}

function text(method: string, param: string, value: unknown, { nonEmpty = false } = {}): string {
  if (typeof value !== 'string') throw typeError(method, param, nonEmpty ? 'a non-empty string' : 'a string', value)
  if (nonEmpty && value.trim() === '') throw new RangeError(`SubtaskLedger.${method}: \`${param}\` must be a non-empty string`)
  return value
}

function textList(method: string, param: string, value: unknown): readonly string[] {
  if (value === undefined || value === null) return Object.freeze([])
  if (!Array.isArray(value)) throw typeError(method, param, 'an array of strings', value)
  return Object.freeze(value.map((v, i) => text(method, `${param}[${i}]`, v)))
}

function object(method: string, param: string, value: unknown, optional: boolean): Record<string, unknown> {
  if (optional && (value === undefined || value === null)) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw typeError(method, param, 'an object', value)
  return value as Record<string, unknown>
}

/** A whole number ≥ `min`, `Infinity` allowed when `infinite`. */
function count(method: string, param: string, value: unknown, fallback: number, { min = 0, infinite = true } = {}): number {
  if (value === undefined || value === null) return fallback
  const expected = `a whole number ≥ ${min}${infinite ? ' or Infinity' : ''}`
  if (typeof value !== 'number') throw typeError(method, param, expected, value)
  if (value === Infinity && infinite) return value
  if (!Number.isInteger(value) || value < min) throw new RangeError(`SubtaskLedger.${method}: \`${param}\` must be ${expected}, got ${value}`)
  return value
}

function fraction(method: string, param: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number') throw typeError(method, param, 'a number from 0 to 1', value)
  if (!(value >= 0 && value <= 1)) throw new RangeError(`SubtaskLedger.${method}: \`${param}\` must be a number from 0 to 1, got ${value}`)
  return value
}

// ---------------------------------------------------------------------------------------------
// Rendering: each piece of the block is rendered and counted once, when first needed.

/** A stored item with its document in a relevance index and its rendered piece, counted. */
interface Entry<T> {
  readonly item: T
  readonly doc: number
  piece?: string
  tokens?: number
}

function counted<T>(entry: Entry<T>, render: (item: T) => string): { piece: string; tokens: number } {
  if (entry.piece === undefined) {
    entry.piece = render(entry.item)
    entry.tokens = native.countTokens(entry.piece)
  }
  return { piece: entry.piece, tokens: entry.tokens! }
}

// ---------------------------------------------------------------------------------------------

/** A promise with its settle functions, for the saves that many changes wait on together. */
interface Batch {
  promise: Promise<void>
  resolve: () => void
  reject: (error: unknown) => void
}

function batch(): Batch {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  // A caller that ignores a change's promise must not get an unhandled rejection for it.
  promise.catch(() => {})
  return { promise, resolve, reject }
}

/**
 * What earlier subtasks learned, for later ones: completion summaries loaded by relevance
 * (top 3 of the last 10 by default, the last 2 as fallback), notes in markdown sections,
 * typed artifacts selected by relevance, and a backpack bounded in tokens. `contextFor`
 * renders what the next subtask should see, within a token budget.
 *
 * Every method that changes the ledger applies the change at once (later reads see it)
 * and returns a promise that resolves once the change is durable in the store. Changes
 * made while a save is running are saved together by the next one.
 */
export class SubtaskLedger {
  readonly store: LedgerStore
  /** Items every subtask gets, within `backpackTokens`. */
  readonly backpack: Backpack
  readonly notesTokens: number

  #completions: Entry<CompletionSummary>[] = []
  #bySubtask = new Map<string, Entry<CompletionSummary>>()
  #summaryIndex = new native.RelevanceIndex()
  #artifacts: Entry<Artifact>[] = []
  #byDoc = new Map<number, Entry<Artifact>>()
  #artifactIndex = new native.RelevanceIndex()
  #nextArtifact = 1
  #notesText = ''
  #notes: Entry<NoteSection>[] = []
  #notesIndex = new native.RelevanceIndex()
  /** Whether the store's content is known to be this ledger's (loaded, or checked empty). */
  #owned: boolean
  #saving: Promise<void> | undefined
  #pending: Batch | undefined
  #failed: unknown
  /** The store's record-by-record writes, when it is shared by several processes. */
  readonly #records: LedgerRecords | undefined
  /** With records: settles once the store is known to be this ledger's; writes chain on it, in call order. */
  #recordsReady: Promise<void> | undefined
  /** With records: the writes not settled yet (`refresh` waits for them). */
  readonly #writing = new Set<Promise<unknown>>()

  /**
   * An empty ledger in `options.store` (memory by default). A store that already holds a
   * ledger is never overwritten: the first change then rejects; load it with
   * `SubtaskLedger.open(store)` instead.
   */
  constructor(options: SubtaskLedgerOptions = {}) {
    const o = object('constructor', 'options', options, true)
    const store = o.store ?? new MemoryLedgerStore()
    if (typeof store !== 'object' || typeof (store as LedgerStore).load !== 'function' || typeof (store as LedgerStore).save !== 'function') {
      throw typeError('constructor', 'options.store', 'a LedgerStore (FileLedgerStore, MemoryLedgerStore or an object with load and save)', store)
    }
    this.store = store as LedgerStore
    this.#records = this.store.records
    this.notesTokens = count('constructor', 'options.notesTokens', o.notesTokens, DEFAULT_NOTES_TOKENS)
    const records = this.#records
    const writer: BackpackWriter = records
      ? {
          shared: true,
          put: (item) => this.#write((r) => r.putBackpackItem(item)),
          remove: (id) => this.#write((r) => r.removeBackpackItem(id)).then(() => {}),
          clear: () => this.#write((r) => r.clearBackpack()),
        }
      : { shared: false, put: () => this.#persist(), remove: () => this.#persist(), clear: () => this.#persist() }
    this.backpack = new Backpack(count('constructor', 'options.backpackTokens', o.backpackTokens, DEFAULT_BACKPACK_TOKENS), writer)
    this.#owned = o.store === undefined
  }

  /** Loads the ledger saved in `store` (an empty one when there is none). A damaged store rejects with `LedgerCorruptError`. */
  static async open(store: LedgerStore, options: Omit<SubtaskLedgerOptions, 'store'> = {}): Promise<SubtaskLedger> {
    const ledger = new SubtaskLedger({ ...object('open', 'options', options, true), store })
    const state = await store.load()
    if (state) ledger.#restore(state)
    ledger.#owned = true
    return ledger
  }

  /**
   * Reads the store again and replaces what this ledger holds with it: with a store that
   * several processes share (`RedisLedgerStore`), what the others recorded since `open`.
   * Resolves once every change this ledger made before the call was written.
   */
  async refresh(): Promise<void> {
    if (this.#records) await Promise.allSettled([...this.#writing])
    else if (this.#saving) await this.#saving.catch(() => {})
    const state = await this.store.load()
    this.#completions = []
    this.#bySubtask = new Map()
    this.#summaryIndex = new native.RelevanceIndex()
    this.#artifacts = []
    this.#byDoc = new Map()
    this.#artifactIndex = new native.RelevanceIndex()
    this.backpack._restore([])
    this.#setNotes('')
    if (state) this.#restore(state)
    this.#owned = true
  }

  #restore(state: LedgerState): void {
    for (const c of state.completions) this.#addCompletion(freezeCompletion(c))
    for (const a of state.artifacts) this.#addArtifact(Object.freeze({ ...a }))
    this.#nextArtifact = Math.max(state.nextArtifact, this.#nextArtifact)
    this.backpack._restore(state.backpack.map((b) => Object.freeze({ ...b })))
    this.#setNotes(state.notes)
  }

  // -------------------------------------------------------------------------------------------
  // Completion summaries

  /**
   * Records what a finished subtask left behind. A subtask recorded again replaces its
   * earlier summary and counts as the most recent. Resolves to the stored summary.
   */
  recordCompletion(completion: CompletionInput): Promise<CompletionSummary> {
    return this.#change(() => {
      const m = 'recordCompletion'
      const c = object(m, 'completion', completion, false)
      const summary = freezeCompletion({
        subtaskId: text(m, 'completion.subtaskId', c.subtaskId, { nonEmpty: true }),
        description: text(m, 'completion.description', c.description),
        summary: text(m, 'completion.summary', c.summary, { nonEmpty: true }),
        findings: textList(m, 'completion.findings', c.findings),
        decisions: textList(m, 'completion.decisions', c.decisions),
        resources: textList(m, 'completion.resources', c.resources),
        completedAt: new Date().toISOString(),
      })
      this.#addCompletion(summary)
      return summary
    }, (r, summary) => r.putCompletion(summary))
  }

  #addCompletion(summary: CompletionSummary): void {
    const old = this.#bySubtask.get(summary.subtaskId)
    if (old) {
      this.#summaryIndex.remove(old.doc)
      this.#completions.splice(this.#completions.indexOf(old), 1)
    }
    // What a summary is scored on is what the subtask left (its results and the id later
    // tasks may cite), not its task text: an instruction is worded like the next task and
    // on its topic, so scoring it found the chain's broad first steps ("Audit the checkout
    // forms…") over the step whose results the task builds on (BENCHMARKS.md, "Subtask ledger").
    const doc = this.#summaryIndex.add(
      [summary.subtaskId, summary.summary, ...summary.findings, ...summary.decisions, ...summary.resources].join('\n'),
    )
    const entry: Entry<CompletionSummary> = { item: summary, doc }
    this.#completions.push(entry)
    this.#bySubtask.set(summary.subtaskId, entry)
  }

  /** Every recorded summary, oldest first. */
  completions(): CompletionSummary[] {
    return this.#completions.map((e) => e.item)
  }

  /**
   * The summaries among the last `window` completed subtasks that bear on `description`,
   * most relevant first (ties: the more recent first), at most `max`; when none does, the
   * last two (most recent first), marked `fallback`. A summary is scored on what its subtask
   * left (summary, findings, decisions, resources and its id), not on its task text.
   */
  relevantSummaries(description: string, options: RelevantSummariesOptions = {}): RankedSummary[] {
    const m = 'relevantSummaries'
    text(m, 'description', description)
    const o = object(m, 'options', options, true)
    const max = count(m, 'options.max', o.max, 3)
    const window = count(m, 'options.window', o.window, DEFAULT_SUMMARY_WINDOW)
    const minScore = fraction(m, 'options.minScore', o.minScore, DEFAULT_MIN_SCORE)
    return this.#relevantSummaries(description, max, window, minScore, true)
  }

  #relevantSummaries(description: string, max: number, window: number, minScore: number, fallback: boolean): RankedSummary[] {
    if (max === 0 || window === 0 || this.#completions.length === 0) return []
    const recent = window >= this.#completions.length ? this.#completions : this.#completions.slice(-window)
    const byDoc = new Map(recent.map((e) => [e.doc, e]))
    const hits = this.#summaryIndex.search(description, { among: [...byDoc.keys()], max: Infinity })
    const best = hits[0]?.score ?? 0
    const kept = hits
      .filter((h) => h.score >= minScore && h.score >= RELATIVE_SCORE * best)
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, max)
      .map((h) => ({ ...byDoc.get(h.id)!.item, score: h.score, fallback: false }))
    if (kept.length > 0 || !fallback) return kept
    const scores = new Map(hits.map((h) => [h.id, h.score]))
    return recent
      .slice(-Math.min(FALLBACK_SUMMARIES, max))
      .reverse()
      .map((e) => ({ ...e.item, score: scores.get(e.doc) ?? 0, fallback: true }))
  }

  // -------------------------------------------------------------------------------------------
  // Artifacts

  /** Records a typed artifact; resolves to it, with the id the ledger gave it. */
  recordArtifact(artifact: ArtifactInput): Promise<Artifact> {
    if (this.#records) {
      // A shared store gives the id (unique across processes): the artifact is added here once it has.
      let input: Omit<Artifact, 'id'>
      try {
        input = this.#artifactInput(artifact)
      } catch (error) {
        return Promise.reject(error)
      }
      return this.#write((r) => r.addArtifact(input)).then((stored) => {
        const frozen = Object.freeze({ ...stored })
        this.#addArtifact(frozen)
        return frozen
      })
    }
    return this.#change(() => {
      const stored: Artifact = Object.freeze({ id: `artifact-${this.#nextArtifact}`, ...this.#artifactInput(artifact) })
      this.#nextArtifact++
      this.#addArtifact(stored)
      return stored
    })
  }

  /** The artifact `recordArtifact` stores, without its id; throws on bad input. */
  #artifactInput(artifact: ArtifactInput): Omit<Artifact, 'id'> {
    {
      const m = 'recordArtifact'
      const a = object(m, 'artifact', artifact, false)
      if (!ARTIFACT_TYPES.includes(a.type as ArtifactType)) {
        const expected = `one of ${ARTIFACT_TYPES.map((t) => `'${t}'`).join(', ')}`
        if (typeof a.type !== 'string') throw typeError(m, 'artifact.type', expected, a.type)
        throw new RangeError(`SubtaskLedger.${m}: \`artifact.type\` must be ${expected}, got '${a.type}'`)
      }
      if (a.relevance === undefined) throw typeError(m, 'artifact.relevance', 'a number from 0 to 1', a.relevance)
      return {
        type: a.type as ArtifactType,
        content: text(m, 'artifact.content', a.content, { nonEmpty: true }),
        relevance: fraction(m, 'artifact.relevance', a.relevance, 0),
        subtaskId: text(m, 'artifact.subtaskId', a.subtaskId, { nonEmpty: true }),
        recordedAt: new Date().toISOString(),
      }
    }
  }

  #addArtifact(artifact: Artifact): void {
    const doc = this.#artifactIndex.add(`${artifact.subtaskId}\n${artifact.content}`)
    const entry = { item: artifact, doc }
    this.#artifacts.push(entry)
    this.#byDoc.set(doc, entry)
  }

  /** Every recorded artifact, oldest first. */
  artifacts(): Artifact[] {
    return this.#artifacts.map((e) => e.item)
  }

  /**
   * The artifacts that bear on `description`, most relevant first (text relevance weighed
   * by the artifact's own `relevance`; ties: the more recent first), at most `max`.
   */
  relevantArtifacts(description: string, options: RelevantArtifactsOptions = {}): RankedArtifact[] {
    const m = 'relevantArtifacts'
    text(m, 'description', description)
    const o = object(m, 'options', options, true)
    const max = count(m, 'options.max', o.max, 5)
    const minScore = fraction(m, 'options.minScore', o.minScore, DEFAULT_MIN_SCORE)
    let types: readonly ArtifactType[] | undefined
    if (o.types !== undefined && o.types !== null) {
      if (!Array.isArray(o.types)) throw typeError(m, 'options.types', 'an array of artifact types', o.types)
      o.types.forEach((t, i) => {
        if (!ARTIFACT_TYPES.includes(t)) throw typeError(m, `options.types[${i}]`, `one of ${ARTIFACT_TYPES.join(', ')}`, t)
      })
      types = o.types as ArtifactType[]
    }
    return this.#relevantArtifacts(description, max, minScore, types).map(({ entry, score }) => ({ ...entry.item, score }))
  }

  #relevantArtifacts(description: string, max: number, minScore: number, types?: readonly ArtifactType[]) {
    if (max === 0 || this.#artifacts.length === 0) return []
    const hits = this.#artifactIndex.search(description, { minScore, max: Infinity })
    const weighed: { entry: Entry<Artifact>; score: number }[] = []
    for (const h of hits) {
      const entry = this.#byDoc.get(h.id)!
      if (types && !types.includes(entry.item.type)) continue
      weighed.push({ entry, score: h.score * (0.5 + entry.item.relevance / 2) })
    }
    const best = weighed.reduce((b, w) => Math.max(b, w.score), 0)
    return weighed
      .filter((w) => w.score >= RELATIVE_SCORE * best)
      .sort((a, b) => b.score - a.score || b.entry.doc - a.entry.doc)
      .slice(0, max)
  }

  // -------------------------------------------------------------------------------------------
  // Notes

  /** The notes as markdown (`# Notes`, then `## Section` and its content). */
  notes(): string {
    this.#syncNotes()
    return this.#notesText
  }

  /** The notes' sections, in order (`''` names the untitled text before the first section). */
  noteSections(): NoteSection[] {
    this.#syncNotes()
    return this.#notes.map((e) => e.item)
  }

  /**
   * Sets a notes section's content (a new section goes last). Refused with a RangeError
   * when the notes would grow past `notesTokens`; the content must not hold `## `
   * headings of its own (use `###`).
   */
  updateNotes(section: string, content: string): Promise<void> {
    return this.#change(() => {
      const m = 'updateNotes'
      const name = text(m, 'section', section).trim()
      if (name === '' || name.includes('\n')) throw new RangeError(`SubtaskLedger.${m}: \`section\` must be a non-empty single line`)
      const body = trimLines(text(m, 'content', content))
      if (hasSectionHeading(body)) {
        throw new RangeError(`SubtaskLedger.${m}: \`content\` must not contain \`## \` headings (they would start new sections); use \`###\``)
      }
      this.#syncNotes()
      const sections = this.#notes.map((e) => e.item)
      const at = sections.findIndex((s) => s.section === name)
      const updated = { section: name, content: body }
      if (at >= 0) sections[at] = updated
      else sections.push(updated)
      const markdown = renderNotes(sections)
      const before = native.countTokens(this.#notesText)
      const after = native.countTokens(markdown)
      if (after > this.notesTokens && after > before) {
        throw new RangeError(
          `SubtaskLedger.${m}: the notes would be ${after} tokens, over their cap of ${this.notesTokens} (${Math.max(0, this.notesTokens - before)} are free, this change needs ${after - before}); shorten or remove sections, or raise \`notesTokens\``,
        )
      }
      this.#setNotes(markdown)
      return updated
    }, (r, updated) => r.putNote(updated.section, updated.content)).then(() => {})
  }

  /** Removes a notes section; resolves to whether it was there. */
  removeNote(section: string): Promise<boolean> {
    return this.#change(() => {
      const name = text('removeNote', 'section', section).trim()
      this.#syncNotes()
      const sections = this.#notes.map((e) => e.item)
      const kept = sections.filter((s) => s.section !== name)
      if (kept.length === sections.length) return false
      this.#setNotes(renderNotes(kept))
      return name
    }, (r, name) => (name === false ? Promise.resolve(false) : r.removeNote(name))).then((name) => name !== false)
  }

  #setNotes(markdown: string): void {
    this.#notesText = markdown
    this.#notesIndex = new native.RelevanceIndex()
    this.#notes = parseNotes(markdown).map((item) => ({ item, doc: this.#notesIndex.add(`${item.section}\n${item.content}`) }))
  }

  /** Reads back a `NOTES.md` edited by hand since the ledger last read or wrote it. */
  #syncNotes(): void {
    const changed = this.store.notesChangedOutside?.()
    if (changed !== undefined) this.#setNotes(changed)
  }

  // -------------------------------------------------------------------------------------------
  // The block for the next subtask

  /**
   * What the next subtask should see, within `maxTokens` exact tokens: the backpack, then
   * the notes sections, summaries and artifacts that bear on `subtaskDescription`, most
   * relevant first, then the other notes sections while room is left. Summaries and
   * artifacts that do not bear on the task are never included (no fallback here). The
   * block lists notes, earlier subtasks, artifacts and backpack, each most relevant first.
   */
  contextFor(subtaskDescription: string, options: ContextForOptions = {}): LedgerContext {
    const m = 'contextFor'
    text(m, 'subtaskDescription', subtaskDescription)
    const o = object(m, 'options', options, true)
    const maxTokens = count(m, 'options.maxTokens', o.maxTokens, Infinity)
    const maxSummaries = count(m, 'options.maxSummaries', o.maxSummaries, DEFAULT_MAX_SUMMARIES)
    const window = count(m, 'options.window', o.window, DEFAULT_SUMMARY_WINDOW)
    const maxArtifacts = count(m, 'options.maxArtifacts', o.maxArtifacts, DEFAULT_MAX_ARTIFACTS)
    const minScore = fraction(m, 'options.minScore', o.minScore, DEFAULT_MIN_SCORE)
    this.#syncNotes()

    // Candidates in the order they get the budget.
    type Candidate = { group: 0 | 1 | 2 | 3; id: string; piece: string; tokens: number; order: number }
    const candidates: Candidate[] = []
    for (const [i, b] of this.backpack.items().entries()) {
      candidates.push({ group: 3, id: b.id, piece: renderBackpackItem(b), tokens: -1, order: i })
    }
    const relevant: (Candidate & { score: number })[] = []
    const noteHits = this.#notes.length ? this.#notesIndex.search(subtaskDescription, { max: Infinity }) : []
    const noteBest = noteHits[0]?.score ?? 0
    const noteScore = new Map(noteHits.filter((h) => h.score >= minScore && h.score >= RELATIVE_SCORE * noteBest).map((h) => [h.id, h.score]))
    for (const e of this.#notes) {
      const score = noteScore.get(e.doc)
      if (score !== undefined) relevant.push({ group: 0, id: e.item.section, ...counted(e, renderNoteSection), order: e.doc, score })
    }
    for (const s of this.#relevantSummaries(subtaskDescription, maxSummaries, window, minScore, false)) {
      const e = this.#bySubtask.get(s.subtaskId)!
      relevant.push({ group: 1, id: s.subtaskId, ...counted(e, renderSummary), order: e.doc, score: s.score })
    }
    for (const { entry, score } of this.#relevantArtifacts(subtaskDescription, maxArtifacts, minScore)) {
      relevant.push({ group: 2, id: entry.item.id, ...counted(entry, renderArtifact), order: entry.doc, score })
    }
    relevant.sort((a, b) => b.score - a.score || a.group - b.group || b.order - a.order)
    candidates.push(...relevant)
    for (const e of this.#notes) {
      if (!noteScore.has(e.doc)) candidates.push({ group: 0, id: e.item.section, ...counted(e, renderNoteSection), order: e.doc })
    }

    // Take candidates while the estimate fits, then count the block exactly and drop the
    // last taken until it fits: BPE counts are not additive across joins, so the estimate
    // (pieces, headers and one token per separator) is only a guide.
    const headerTokens = GROUPS.map((g) => native.countTokens(g))
    const taken: Candidate[] = []
    const opened = [false, false, false, false]
    let estimate = 0
    let omitted = 0
    for (const c of candidates) {
      if (c.tokens < 0) c.tokens = native.countTokens(c.piece)
      const cost = c.tokens + 1 + (opened[c.group] ? 0 : headerTokens[c.group]! + 1)
      if (estimate + cost > maxTokens) {
        omitted++
        continue
      }
      estimate += cost
      opened[c.group] = true
      taken.push(c)
    }
    let block = render(taken)
    let tokens = block === '' ? 0 : native.countTokens(block)
    while (tokens > maxTokens && taken.length > 0) {
      taken.pop()
      omitted++
      block = render(taken)
      tokens = block === '' ? 0 : native.countTokens(block)
    }
    const ids = (group: number) => taken.filter((c) => c.group === group).map((c) => c.id)
    return Object.freeze({
      text: block,
      tokens,
      notes: ids(0),
      summaries: ids(1),
      artifacts: ids(2),
      backpack: ids(3),
      omitted,
    })

    function render(list: Candidate[]): string {
      const parts: string[] = []
      for (let g = 0; g < GROUPS.length; g++) {
        const items = list.filter((c) => c.group === g)
        // Notes keep their file order; the backpack its own; the rest most relevant first.
        if (g === 0 || g === 3) items.sort((a, b) => a.order - b.order)
        if (items.length > 0) parts.push(`${GROUPS[g]}\n\n${items.map((c) => c.piece).join(ITEM_SEPARATOR[g])}`)
      }
      return parts.join(GROUP_SEPARATOR)
    }
  }

  // -------------------------------------------------------------------------------------------
  // Saving

  /** The state as the store saves it: copies of the lists (the items are frozen). */
  #state(): LedgerState {
    return {
      completions: this.#completions.map((e) => e.item),
      artifacts: this.#artifacts.map((e) => e.item),
      backpack: this.backpack.items(),
      notes: this.#notesText,
      nextArtifact: this.#nextArtifact,
    }
  }

  /**
   * Applies `apply` now (throwing rejects, nothing changed) and resolves once it is saved:
   * with `save`, or with a shared store by `record` (the one record the change touched).
   */
  #change<T>(apply: () => T, record?: (records: LedgerRecords, value: T) => Promise<unknown>): Promise<T> {
    let value: T
    try {
      value = apply()
    } catch (error) {
      return Promise.reject(error)
    }
    if (this.#records && record) return this.#write((r) => record(r, value)).then(() => value)
    return this.#persist().then(() => value)
  }

  /**
   * One record-by-record write, issued after the check that the store is this ledger's
   * (once) and after the writes called before it: a connection keeps their order.
   */
  #write<T>(write: (records: LedgerRecords) => Promise<T>): Promise<T> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed)
    const records = this.#records!
    this.#recordsReady ??= this.#owned ? Promise.resolve() : this.#checkOwned()
    const done = this.#recordsReady.then(() => write(records))
    this.#writing.add(done)
    const settled = () => void this.#writing.delete(done)
    done.then(settled, settled)
    return done
  }

  /** A new ledger in a store that already holds one would overwrite it: refuse. */
  async #checkOwned(): Promise<void> {
    if (this.#owned) return
    const existing = await this.store.load()
    if (existing && (existing.completions.length || existing.artifacts.length || existing.backpack.length || existing.notes.trim())) {
      this.#failed = new Error(
        `SubtaskLedger: the store (${this.store.description}) already holds a ledger, which a new one would overwrite; load it with \`await SubtaskLedger.open(store)\``,
      )
      throw this.#failed
    }
    this.#owned = true
  }

  /**
   * Saves the current state: at once when no save is running, else with the next save,
   * which then covers every change made meanwhile.
   */
  #persist(): Promise<void> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed)
    this.#pending ??= batch()
    const waiting = this.#pending.promise
    if (!this.#saving) this.#flush()
    return waiting
  }

  #flush(): void {
    const current = this.#pending!
    this.#pending = undefined
    const state = this.#state()
    this.#saving = (async () => {
      await this.#checkOwned()
      await this.store.save(state)
    })()
      .then(current.resolve, current.reject)
      .finally(() => {
        this.#saving = undefined
        if (this.#pending) {
          if (this.#failed !== undefined) {
            this.#pending.reject(this.#failed)
            this.#pending = undefined
          } else this.#flush()
        }
      })
  }
}

function freezeCompletion(c: CompletionSummary): CompletionSummary {
  return Object.freeze({
    subtaskId: c.subtaskId,
    description: c.description,
    summary: c.summary,
    findings: Object.freeze([...c.findings]),
    decisions: Object.freeze([...c.decisions]),
    resources: Object.freeze([...c.resources]),
    completedAt: c.completedAt,
  })
}

/** How a backpack's changes reach the store: the whole state saved, or one record written (a shared store). */
interface BackpackWriter {
  /** A shared store: item ids are random (`item-` and 12 hex digits), so that processes do not collide. */
  readonly shared: boolean
  put(item: BackpackItem): Promise<void>
  remove(id: string): Promise<void>
  clear(): Promise<void>
}

/** The items every subtask gets, bounded in exact `o200k_base` tokens. */
export class Backpack {
  readonly capacity: number
  #items: BackpackItem[] = []
  #next = 1
  readonly #writer: BackpackWriter

  /** @internal */
  constructor(capacity: number, writer: BackpackWriter) {
    this.capacity = capacity
    this.#writer = writer
  }

  /** @internal */
  _restore(items: BackpackItem[]): void {
    this.#items = items
    for (const b of items) {
      const n = /^item-(\d+)$/.exec(b.id)
      if (n) this.#next = Math.max(this.#next, Number(n[1]) + 1)
    }
  }

  /** Tokens in use. */
  get used(): number {
    return this.#items.reduce((sum, b) => sum + b.tokens, 0)
  }

  /** Tokens free. */
  get free(): number {
    return Math.max(0, this.capacity - this.used)
  }

  /** The items, in the order added. */
  items(): BackpackItem[] {
    return [...this.#items]
  }

  /**
   * Adds an item (or replaces the one with `options.id`). Refused with `BackpackFullError`
   * (a RangeError saying how much is free) when it does not fit; nothing changes then.
   */
  add(content: string, options: { id?: string } = {}): Promise<BackpackItem> {
    let item: BackpackItem
    try {
      const m = 'backpack.add'
      text(m, 'content', content, { nonEmpty: true })
      const o = object(m, 'options', options, true)
      const generated = this.#writer.shared ? `item-${randomBytes(6).toString('hex')}` : `item-${this.#next}`
      const id = o.id === undefined || o.id === null ? generated : text(m, 'options.id', o.id, { nonEmpty: true })
      const tokens = native.countTokens(content)
      const replaced = this.#items.find((b) => b.id === id)
      const free = this.capacity - this.used + (replaced?.tokens ?? 0)
      if (tokens > free) throw new BackpackFullError(tokens, Math.max(0, free), this.capacity)
      item = Object.freeze({ id, content, tokens, addedAt: new Date().toISOString() })
      if (replaced) this.#items[this.#items.indexOf(replaced)] = item
      else this.#items.push(item)
      if (o.id === undefined || o.id === null) this.#next++
    } catch (error) {
      return Promise.reject(error)
    }
    return this.#writer.put(item).then(() => item)
  }

  /** Removes an item; resolves to whether it was there. */
  remove(id: string): Promise<boolean> {
    if (typeof id !== 'string') return Promise.reject(typeError('backpack.remove', 'id', 'a string', id))
    const before = this.#items.length
    this.#items = this.#items.filter((b) => b.id !== id)
    const removed = this.#items.length < before
    return removed ? this.#writer.remove(id).then(() => true) : Promise.resolve(false)
  }

  /** Empties the backpack. */
  clear(): Promise<void> {
    this.#items = []
    return this.#writer.clear()
  }
}
