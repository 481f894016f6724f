// Where a subtask ledger lives: a directory (`ledger.json` and a human-editable `NOTES.md`,
// each replaced atomically) or memory.
import { describe } from './args.js'
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'

/** The kinds of artifact a subtask can leave for later ones. */
export type ArtifactType = 'FINDING' | 'DECISION' | 'RESOURCE' | 'ERROR' | 'TODO'

/** Every `ArtifactType`, in the order they are documented. */
export const ARTIFACT_TYPES: readonly ArtifactType[] = Object.freeze(['FINDING', 'DECISION', 'RESOURCE', 'ERROR', 'TODO'])

/** What a finished subtask left behind: its summary, as `recordCompletion` stored it. */
export interface CompletionSummary {
  readonly subtaskId: string
  /** The subtask's task text. */
  readonly description: string
  /** Two or three sentences: what was done and what came of it. */
  readonly summary: string
  readonly findings: readonly string[]
  readonly decisions: readonly string[]
  /** Files, URLs, commands, tables: where the next subtask can look. */
  readonly resources: readonly string[]
  /** ISO 8601 time of `recordCompletion`. */
  readonly completedAt: string
}

/** A typed note a subtask left, selected for later subtasks by relevance. */
export interface Artifact {
  /** Given by the ledger: `artifact-1`, `artifact-2`, … */
  readonly id: string
  readonly type: ArtifactType
  readonly content: string
  /** 0..1, how much the recording subtask thinks it matters: weighs the relevance found for a task. */
  readonly relevance: number
  /** The subtask that recorded it. */
  readonly subtaskId: string
  /** ISO 8601 time of `recordArtifact`. */
  readonly recordedAt: string
}

/** Something carried to every subtask, within the backpack's token cap. */
export interface BackpackItem {
  readonly id: string
  readonly content: string
  /** Exact `o200k_base` tokens of `content`. */
  readonly tokens: number
  /** ISO 8601 time of `add`. */
  readonly addedAt: string
}

/** Everything a store saves: what `SubtaskLedger` hands it, and gets back from `load`. */
export interface LedgerState {
  /** Oldest first. */
  readonly completions: readonly CompletionSummary[]
  /** Oldest first. */
  readonly artifacts: readonly Artifact[]
  readonly backpack: readonly BackpackItem[]
  /** The notes, as the markdown of `NOTES.md`. */
  readonly notes: string
  /** The number of the next artifact id (ids are never reused). */
  readonly nextArtifact: number
}

/**
 * Record-by-record writes, for a store that several processes share (`RedisLedgerStore`):
 * each call changes one record atomically and leaves every other record as it is, so two
 * processes writing at once lose nothing of each other's. A ledger whose store has
 * `records` writes through them and never calls `save`; `load` reads every process's records.
 */
export interface LedgerRecords {
  /** Stores the subtask's summary, replacing one recorded before for the same `subtaskId` (one per subtask), and makes it the most recent. */
  putCompletion(completion: CompletionSummary): Promise<void>
  /** Stores an artifact under an id the store gives (`artifact-<n>`, unique across processes); resolves to it. */
  addArtifact(artifact: Omit<Artifact, 'id'>): Promise<Artifact>
  /** Stores a backpack item, replacing the one with its id. */
  putBackpackItem(item: BackpackItem): Promise<void>
  /** Resolves to whether the item was there. */
  removeBackpackItem(id: string): Promise<boolean>
  clearBackpack(): Promise<void>
  /** Sets one notes section (`''` is the untitled lead); a new section goes last. */
  putNote(section: string, content: string): Promise<void>
  /** Resolves to whether the section was there. */
  removeNote(section: string): Promise<boolean>
}

/**
 * Storage for a `SubtaskLedger`. `save` resolves once the state is durable; the ledger
 * never calls it again before the previous call has settled. A store with `records`
 * (shared by several processes) is written record by record instead of with `save`.
 */
export interface LedgerStore {
  /** What was saved, or `undefined` when nothing has been yet. A damaged store rejects with `LedgerCorruptError`. */
  load(): Promise<LedgerState | undefined>
  save(state: LedgerState): Promise<void>
  /**
   * The notes, when they were changed outside the ledger (a `NOTES.md` edited by hand)
   * since the last `load` or `save`; `undefined` otherwise. Synchronous and cheap: the
   * ledger asks before it reads or changes its notes.
   */
  notesChangedOutside?(): string | undefined
  /** Names the store in error messages, e.g. the directory. */
  readonly description: string
  /** Record-by-record writes: when present, the ledger uses them instead of `save`. */
  readonly records?: LedgerRecords
}

/** A stored ledger that cannot be read: it is left as it is, never overwritten. */
export class LedgerCorruptError extends Error {
  override readonly name = 'LedgerCorruptError'
  constructor(
    /** The damaged file. */
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `subagent-context: the ledger file ${path} is damaged (${reason}); it was left untouched. Repair it, or move it away to start afresh.`,
      options,
    )
  }
}

const FORMAT = 'subagent-context/ledger'
const VERSION = 1

/** The JSON of `ledger.json`: the state without the notes, which live in `NOTES.md`. */
function serialize(state: LedgerState): string {
  return `${JSON.stringify(
    {
      format: FORMAT,
      version: VERSION,
      nextArtifact: state.nextArtifact,
      completions: state.completions,
      artifacts: state.artifacts,
      backpack: state.backpack,
    },
    null,
    1,
  )}\n`
}

/** Checks the parsed JSON of a ledger; returns the state (notes empty) or why it is not one. */
export function parseLedgerJson(value: unknown): Omit<LedgerState, 'notes'> | string {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
  if (!isObject(value)) return 'not a JSON object'
  if (value.format !== FORMAT) return `"format" is not "${FORMAT}"`
  if (value.version !== VERSION) return `unknown version ${JSON.stringify(value.version)}`
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string')
  const check = (key: string, test: (item: Record<string, unknown>) => string | undefined): string | undefined => {
    const list = value[key]
    if (!Array.isArray(list)) return `"${key}" is not an array`
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i]
      const problem = isObject(item) ? test(item) : 'not an object'
      if (problem) return `${key}[${i}]: ${problem}`
    }
    return undefined
  }
  const fields = (item: Record<string, unknown>, names: string[]) => names.find((n) => typeof item[n] !== 'string')
  const problem =
    check('completions', (c) => {
      const bad = fields(c, ['subtaskId', 'description', 'summary', 'completedAt'])
      if (bad) return `"${bad}" is not a string`
      const list = ['findings', 'decisions', 'resources'].find((k) => !strings(c[k]))
      return list ? `"${list}" is not an array of strings` : undefined
    }) ??
    check('artifacts', (a) => {
      const bad = fields(a, ['id', 'type', 'content', 'subtaskId', 'recordedAt'])
      if (bad) return `"${bad}" is not a string`
      if (!ARTIFACT_TYPES.includes(a.type as ArtifactType)) return `unknown type ${JSON.stringify(a.type)}`
      return typeof a.relevance === 'number' && a.relevance >= 0 && a.relevance <= 1 ? undefined : '"relevance" is not a number from 0 to 1'
    }) ??
    check('backpack', (b) => {
      const bad = fields(b, ['id', 'content', 'addedAt'])
      if (bad) return `"${bad}" is not a string`
      return Number.isInteger(b.tokens) && (b.tokens as number) >= 0 ? undefined : '"tokens" is not a whole number'
    })
  if (problem) return problem
  if (!Number.isInteger(value.nextArtifact) || (value.nextArtifact as number) < 1) return '"nextArtifact" is not a whole number ≥ 1'
  return {
    completions: value.completions as CompletionSummary[],
    artifacts: value.artifacts as Artifact[],
    backpack: value.backpack as BackpackItem[],
    nextArtifact: value.nextArtifact as number,
  }
}

/** Per directory, the tail of its chain of writes: writers in one process take turns. */
const writeQueues = new Map<string, Promise<unknown>>()

function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(key) ?? Promise.resolve()
  const run = previous.then(work, work)
  const tail = run.catch(() => {})
  writeQueues.set(key, tail)
  void tail.then(() => {
    if (writeQueues.get(key) === tail) writeQueues.delete(key)
  })
  return run
}

let temporaries = 0

/**
 * Replaces `path` with `content` so that a crash at any moment leaves either the old
 * file or the new one, whole: write a temporary file beside it, flush it to disk,
 * rename it over the old one (atomic within a directory), then flush the directory so
 * the rename itself survives a power loss.
 */
async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${++temporaries}.tmp`
  const handle = await open(temporary, 'w', 0o644)
  try {
    await handle.writeFile(content, 'utf8')
    await handle.sync()
  } catch (error) {
    await handle.close().catch(() => {})
    await unlink(temporary).catch(() => {})
    throw error
  }
  await handle.close()
  try {
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => {})
    throw error
  }
  syncDirectory(join(path, '..'))
}

function syncDirectory(dir: string): void {
  // Windows cannot open a directory for syncing, and NTFS makes the rename durable itself.
  if (process.platform === 'win32') return
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Some file systems refuse fsync on directories; the rename is then as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Whether process `pid` is alive (so its temporary files may still be in use). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

interface FileSignature {
  mtimeMs: number
  size: number
  ino: number
}

function signature(path: string): FileSignature | undefined {
  try {
    const s = statSync(path)
    return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino }
  } catch {
    return undefined
  }
}

const sameSignature = (a: FileSignature | undefined, b: FileSignature | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino)

/**
 * A ledger in a directory: `ledger.json` (summaries, artifacts, backpack) and `NOTES.md`
 * (the notes, in markdown sections, for people to read and edit). Each file is replaced
 * atomically (write, fsync, rename, fsync the directory), so a crash at any moment loses
 * nothing that was saved before it. Writers in one process take turns, per directory.
 * A file that cannot be read is reported with `LedgerCorruptError` and never overwritten.
 */
export class FileLedgerStore implements LedgerStore {
  /** The directory, resolved. */
  readonly dir: string
  readonly ledgerPath: string
  readonly notesPath: string
  /** What `NOTES.md` held when last read or written, and its file signature then. */
  #notes: string | undefined
  #notesSignature: FileSignature | undefined

  constructor(dir: string) {
    if (typeof dir !== 'string' || dir.length === 0) {
      throw new TypeError(`FileLedgerStore: \`dir\` must be a non-empty string, got ${describe(dir)}`)
    }
    this.dir = resolve(dir)
    this.ledgerPath = join(this.dir, 'ledger.json')
    this.notesPath = join(this.dir, 'NOTES.md')
  }

  get description(): string {
    return this.dir
  }

  async load(): Promise<LedgerState | undefined> {
    this.#removeStaleTemporaries()
    let text: string | undefined
    try {
      text = await readFile(this.ledgerPath, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const notes = await this.#readNotes()
    if (text === undefined) return notes ? { completions: [], artifacts: [], backpack: [], notes, nextArtifact: 1 } : undefined
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new LedgerCorruptError(this.ledgerPath, `not valid JSON: ${(error as Error).message}`, { cause: error })
    }
    const state = parseLedgerJson(json)
    if (typeof state === 'string') throw new LedgerCorruptError(this.ledgerPath, state)
    return { ...state, notes }
  }

  save(state: LedgerState): Promise<void> {
    const json = serialize(state)
    const notes = state.notes
    return serialized(this.dir, async () => {
      await mkdir(this.dir, { recursive: true })
      if (notes !== this.#notes) {
        this.#notes = notes
        await writeAtomically(this.notesPath, notes)
        this.#notesSignature = signature(this.notesPath)
      }
      await writeAtomically(this.ledgerPath, json)
    })
  }

  notesChangedOutside(): string | undefined {
    const now = signature(this.notesPath)
    if (sameSignature(now, this.#notesSignature)) return undefined
    let text = ''
    try {
      text = readFileSync(this.notesPath, 'utf8')
    } catch {
      // Deleted by hand: the notes are empty now.
    }
    this.#notesSignature = now
    if (text === this.#notes) return undefined
    this.#notes = text
    return text
  }

  async #readNotes(): Promise<string> {
    let text = ''
    try {
      text = await readFile(this.notesPath, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    this.#notes = text
    this.#notesSignature = signature(this.notesPath)
    return text
  }

  /** Temporary files a killed process left behind (never those of a live one). */
  #removeStaleTemporaries(): void {
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch {
      return
    }
    for (const name of names) {
      const m = /^(?:ledger\.json|NOTES\.md)\.(\d+)\.\d+\.tmp$/.exec(name)
      if (!m) continue
      const pid = Number(m[1])
      if (pid === process.pid || alive(pid)) continue
      try {
        unlinkSync(join(this.dir, name))
      } catch {
        // Gone already, or not ours to remove: harmless either way.
      }
    }
  }
}

/** A ledger kept in memory: for tests and short runs. Saves are copies, so later changes to the ledger do not leak in. */
export class MemoryLedgerStore implements LedgerStore {
  #state: LedgerState | undefined

  /** Starts empty, or with `initial` (copied). */
  constructor(initial?: LedgerState) {
    this.#state = initial === undefined ? undefined : structuredClone(initial)
  }

  get description(): string {
    return 'memory'
  }

  async load(): Promise<LedgerState | undefined> {
    return this.#state === undefined ? undefined : structuredClone(this.#state)
  }

  async save(state: LedgerState): Promise<void> {
    this.#state = structuredClone(state)
  }
}
