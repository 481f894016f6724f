// ContextIsolationManager (seed: ADR-078): one per project. It builds the architectural
// context once and reuses it, reads the files a task needs from inside the project root
// only (every path is checked before anything is opened: no `..`, no absolute path, no
// encoded or look-alike form of either, and no symlink that resolves outside the root),
// keeps the isolated contexts it made in a bounded cache with expiry, and hands out the
// ready call for the user's Task tool.
import { constants } from 'node:fs'
import { open, realpath } from 'node:fs/promises'
import { isAbsolute, join, sep } from 'node:path'

import type { IsolationResult, SubagentConfig } from '../index.js'
import { ArchitecturalContext } from './architecture.js'
import type { FromProjectOptions } from './architecture.js'
import { createIsolatedContext, renderPrompt } from './isolate.js'
import { describe } from './args.js'

export interface ContextIsolationManagerOptions {
  /** The project root: files are read from inside it only. */
  projectRoot: string
  /** The architectural context to use; built with `ArchitecturalContext.fromProject(projectRoot)` on first need otherwise. */
  architecture?: ArchitecturalContext
  /** Options of `fromProject` when the manager builds the architectural context. */
  architectureOptions?: FromProjectOptions
  /** Largest file read, in bytes. @default 262144 (256 KiB) */
  maxFileBytes?: number
  /** Largest total of one task's files, in bytes. @default 1048576 (1 MiB) */
  maxTotalBytes?: number
  /** How long a context stays in the cache, in ms. @default 3600000 (1 hour) */
  ttlMs?: number
  /** Contexts kept at most; the least recently used goes first. @default 100 */
  maxEntries?: number
  /** The `subagent_type` of `dispatch` when none is given. @default 'general-purpose' */
  defaultAgentType?: string
  /** Cap on each context's relevant context, exact tokens. */
  maxContextTokens?: number
}

/** The ready call for a Task tool: give it to the tool as its input. */
export interface TaskToolCall {
  subagent_type: string
  /** `"<taskId>: Execute isolated task"` */
  description: string
  prompt: string
}

/** A path was refused: it is not inside the project root. */
export class ProjectPathError extends Error {
  override readonly name = 'ProjectPathError'
  readonly code = 'ERR_PATH_OUTSIDE_ROOT'
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message)
  }
}

interface Entry {
  config: SubagentConfig & { files: Record<string, string>; clarifications: string[]; constraints: string[] }
  result: IsolationResult
  expiresAt: number
  bytes: number
}

const FN = 'ContextIsolationManager'

function typeError(method: string, path: string, expected: string, value: unknown): never {
  throw Object.assign(new TypeError(`${FN}.${method}: \`${path}\` must be ${expected}, got ${describe(value)}`), { code: 'ERR_INVALID_ARG_TYPE' })
}

function str(method: string, path: string, value: unknown): string {
  if (typeof value !== 'string') typeError(method, path, 'a string', value)
  return value
}

function taskIdOf(method: string, value: unknown): string {
  const id = str(method, 'taskId', value)
  // It goes into a one-line description: no line breaks or control characters.
  if (id.trim() === '' || /[\u0000-\u001f\u007f\u2028\u2029]/.test(id)) {
    throw Object.assign(new RangeError(`${FN}.${method}: \`taskId\` must be a non-empty single line without control characters, got ${JSON.stringify(id)}`), {
      code: 'ERR_INVALID_ARG_VALUE',
    })
  }
  return id
}

function strings(method: string, path: string, value: unknown): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) typeError(method, path, 'an array of strings', value)
  return value.map((v, i) => str(method, `${path}[${i}]`, v))
}

function whole(path: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number') typeError('constructor', path, 'a positive whole number', value)
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${FN}.constructor: \`${path}\` must be a positive whole number, got ${value}`)
  return value
}

/** Every form of `path` an attacker might rely on something to decode: percent-encoding (repeated), compatibility forms. */
function forms(path: string): string[] {
  const out = [path]
  let current = path
  for (let i = 0; i < 4; i++) {
    let decoded: string
    try {
      decoded = decodeURIComponent(current)
    } catch {
      decoded = current.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    }
    if (decoded === current) break
    out.push(decoded)
    current = decoded
  }
  for (const f of [...out]) {
    const nfkc = f.normalize('NFKC')
    if (nfkc !== f) out.push(nfkc)
  }
  return out
}

/**
 * Why `path` may not be read from inside the root, or `undefined` when its form is fine.
 * Only relative paths made of plain segments pass; `\` counts as a separator everywhere.
 */
function lexicalProblem(path: string): string | undefined {
  if (path === '') return 'it is empty'
  for (const f of forms(path)) {
    if (f.includes('\0')) return 'it contains a NUL character'
    if (isAbsolute(f) || /^[\\/]/.test(f) || /^[A-Za-z]:/.test(f) || f.startsWith('~')) return 'absolute paths are not allowed'
    const segments = f.split(/[\\/]+/)
    if (segments.some((s) => s === '..')) return "'..' segments are not allowed"
    if (f !== path && /[\\/]/.test(f) !== /[\\/]/.test(path)) return 'encoded separators are not allowed'
  }
  return undefined
}

/**
 * The isolated contexts of one project's tasks: architectural context built once, files
 * read from inside the root within size caps, a bounded cache with expiry, and the Task
 * tool call for each.
 */
export class ContextIsolationManager {
  readonly projectRoot: string
  readonly maxFileBytes: number
  readonly maxTotalBytes: number
  readonly ttlMs: number
  readonly maxEntries: number
  readonly defaultAgentType: string
  readonly maxContextTokens: number | undefined
  #architecture: Promise<ArchitecturalContext> | undefined
  readonly #architectureOptions: FromProjectOptions | undefined
  readonly #cache = new Map<string, Entry>()
  #root: Promise<string> | undefined

  /** The ADR's form: the project root, and optionally the other options. */
  constructor(projectRoot: string, options?: Omit<ContextIsolationManagerOptions, 'projectRoot'>)
  constructor(options: ContextIsolationManagerOptions)
  constructor(first: string | ContextIsolationManagerOptions, rest?: Omit<ContextIsolationManagerOptions, 'projectRoot'>) {
    let options: ContextIsolationManagerOptions
    if (typeof first === 'string') {
      if (first === '') typeError('constructor', 'projectRoot', 'a directory path', first)
      if (rest !== undefined && (typeof rest !== 'object' || rest === null)) typeError('constructor', 'options', 'an object', rest)
      options = { ...rest, projectRoot: first }
    } else {
      options = first
    }
    if (typeof options !== 'object' || options === null) typeError('constructor', 'options', 'a project root path or an object with `projectRoot`', options)
    const root = options.projectRoot
    if (typeof root !== 'string' || root === '') typeError('constructor', 'options.projectRoot', 'a directory path', root)
    this.projectRoot = root
    this.maxFileBytes = whole('options.maxFileBytes', options.maxFileBytes, 256 * 1024)
    this.maxTotalBytes = whole('options.maxTotalBytes', options.maxTotalBytes, 1024 * 1024)
    this.ttlMs = whole('options.ttlMs', options.ttlMs, 3_600_000)
    this.maxEntries = whole('options.maxEntries', options.maxEntries, 100)
    this.defaultAgentType = options.defaultAgentType === undefined ? 'general-purpose' : str('constructor', 'options.defaultAgentType', options.defaultAgentType)
    this.maxContextTokens = options.maxContextTokens === undefined ? undefined : whole('options.maxContextTokens', options.maxContextTokens, 0)
    if (options.architecture !== undefined) this.#architecture = Promise.resolve(options.architecture)
    this.#architectureOptions = options.architectureOptions
  }

  /** The project's architectural context: built on first call, the same promise afterwards. */
  architecture(): Promise<ArchitecturalContext> {
    if (!this.#architecture) {
      const building = ArchitecturalContext.fromProject(this.projectRoot, this.#architectureOptions)
      // A failed build is retried on the next call rather than cached.
      building.catch(() => {
        if (this.#architecture === building) this.#architecture = undefined
      })
      this.#architecture = building
    }
    return this.#architecture
  }

  #realRoot(): Promise<string> {
    this.#root ??= realpath(this.projectRoot)
    return this.#root
  }

  /**
   * Reads one file from inside the root. Refused with `ProjectPathError`: absolute paths,
   * `..` segments (also percent-encoded or in compatibility forms) and paths whose real
   * location (after symlinks) is outside the root. Refused with `RangeError`: a file over
   * `maxFileBytes`. What is read is the resolved file, opened without following a link.
   */
  async readProjectFile(path: string, method = 'readProjectFile', label = 'path'): Promise<string> {
    str(method, label, path)
    const problem = lexicalProblem(path)
    if (problem) throw new ProjectPathError(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) is refused: ${problem}; give a path relative to the project root`, path)
    const root = await this.#realRoot()
    let real: string
    try {
      real = await realpath(join(root, path))
    } catch (error) {
      throw Object.assign(new Error(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) cannot be read: ${(error as Error).message}`, { cause: error }), {
        code: (error as { code?: string }).code,
      })
    }
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new ProjectPathError(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) is refused: it resolves outside the project root (through a symbolic link)`, path)
    }
    // O_NOFOLLOW: had the resolved path been swapped for a link since, opening fails.
    const handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0))
    try {
      const stat = await handle.stat()
      if (!stat.isFile()) throw new ProjectPathError(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) is not a regular file`, path)
      if (stat.size > this.maxFileBytes) {
        throw Object.assign(new RangeError(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) is ${stat.size} bytes, over \`maxFileBytes\` (${this.maxFileBytes})`), {
          code: 'ERR_FILE_TOO_LARGE',
        })
      }
      const buffer = Buffer.alloc(Math.min(stat.size, this.maxFileBytes) + 1)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      if (bytesRead > this.maxFileBytes) {
        throw Object.assign(new RangeError(`${FN}.${method}: \`${label}\` (${JSON.stringify(path)}) grew past \`maxFileBytes\` (${this.maxFileBytes}) while being read`), {
          code: 'ERR_FILE_TOO_LARGE',
        })
      }
      return buffer.subarray(0, bytesRead).toString('utf8')
    } finally {
      await handle.close()
    }
  }

  /**
   * Builds and caches the isolated context of a task: its description, the contents of
   * `requiredFiles` (read from inside the project root, within `maxFileBytes` each and
   * `maxTotalBytes` together), `constraints` and the architectural context. Replaces an
   * earlier context of the same task.
   */
  async createIsolatedContext(taskId: string, description: string, requiredFiles: readonly string[] = [], constraints: readonly string[] = []): Promise<IsolationResult> {
    const m = 'createIsolatedContext'
    const id = taskIdOf(m, taskId)
    const task = str(m, 'description', description)
    if (task.trim() === '') throw new RangeError(`${FN}.${m}: \`description\` must be a non-empty string`)
    const paths = strings(m, 'requiredFiles', requiredFiles)
    const rules = strings(m, 'constraints', constraints)
    // Check every path's form before reading any file.
    paths.forEach((p, i) => {
      const problem = lexicalProblem(p)
      if (problem) throw new ProjectPathError(`${FN}.${m}: \`requiredFiles[${i}]\` (${JSON.stringify(p)}) is refused: ${problem}; give a path relative to the project root`, p)
    })
    const files: Record<string, string> = {}
    let bytes = 0
    for (const [i, p] of paths.entries()) {
      const content = await this.readProjectFile(p, m, `requiredFiles[${i}]`)
      bytes += Buffer.byteLength(content)
      if (bytes > this.maxTotalBytes) {
        throw Object.assign(new RangeError(`${FN}.${m}: the required files come to more than \`maxTotalBytes\` (${this.maxTotalBytes}) at \`requiredFiles[${i}]\` (${JSON.stringify(p)})`), {
          code: 'ERR_FILE_TOO_LARGE',
        })
      }
      files[p] = content
    }
    const architecture = await this.architecture()
    const config: Entry['config'] = {
      taskId: id,
      task,
      files,
      constraints: rules,
      clarifications: [],
      architecture,
      ...(this.maxContextTokens !== undefined && { maxContextTokens: this.maxContextTokens }),
    }
    return this.#store(id, config, bytes)
  }

  #store(taskId: string, config: Entry['config'], bytes: number): IsolationResult {
    const result = createIsolatedContext(config)
    this.#cache.delete(taskId)
    this.#cache.set(taskId, { config, result, expiresAt: Date.now() + this.ttlMs, bytes })
    while (this.#cache.size > this.maxEntries) this.#cache.delete(this.#cache.keys().next().value!)
    return result
  }

  #entry(method: string, taskId: string): Entry | undefined {
    const id = taskIdOf(method, taskId)
    const entry = this.#cache.get(id)
    if (!entry) return undefined
    if (entry.expiresAt <= Date.now()) {
      this.#cache.delete(id)
      return undefined
    }
    // Least recently used goes first: a read moves the entry to the end.
    this.#cache.delete(id)
    this.#cache.set(id, entry)
    return entry
  }

  #required(method: string, taskId: string): Entry {
    const entry = this.#entry(method, taskId)
    if (!entry) {
      throw Object.assign(new Error(`${FN}.${method}: no context for task ${JSON.stringify(taskId)} (never created, completed, expired or evicted)`), {
        code: 'ERR_UNKNOWN_TASK',
      })
    }
    return entry
  }

  /** The task's isolated context, or `undefined` when it was never made, is complete, expired or was evicted. */
  get(taskId: string): IsolationResult | undefined {
    return this.#entry('get', taskId)?.result
  }

  /** Whether the cache holds a live context for the task. */
  has(taskId: string): boolean {
    return this.#entry('has', taskId) !== undefined
  }

  /** Contexts in the cache (expired ones are dropped first). */
  get size(): number {
    const now = Date.now()
    for (const [id, e] of this.#cache) if (e.expiresAt <= now) this.#cache.delete(id)
    return this.#cache.size
  }

  /** The task is done: its context leaves the cache. Returns whether it was there. */
  complete(taskId: string): boolean {
    const id = taskIdOf('complete', taskId)
    const live = this.#entry('complete', id) !== undefined
    this.#cache.delete(id)
    return live
  }

  /** Adds a clarification (an answer to the subagent's question) to the task's context. */
  addClarification(taskId: string, clarification: string): IsolationResult {
    const m = 'addClarification'
    const entry = this.#required(m, taskId)
    const text = str(m, 'clarification', clarification)
    return this.#store(taskId, { ...entry.config, clarifications: [...entry.config.clarifications, text] }, entry.bytes)
  }

  /**
   * Adds a file to the task's context: `content` as given, or read from inside the
   * project root (with the same checks as `createIsolatedContext`) when omitted.
   */
  async addFileContent(taskId: string, path: string, content?: string): Promise<IsolationResult> {
    const m = 'addFileContent'
    this.#required(m, taskId)
    str(m, 'path', path)
    const problem = lexicalProblem(path)
    if (problem) throw new ProjectPathError(`${FN}.${m}: \`path\` (${JSON.stringify(path)}) is refused: ${problem}; give a path relative to the project root`, path)
    const text = content === undefined ? await this.readProjectFile(path, m, 'path') : str(m, 'content', content)
    if (Buffer.byteLength(text) > this.maxFileBytes) {
      throw Object.assign(new RangeError(`${FN}.${m}: \`content\` of ${JSON.stringify(path)} is over \`maxFileBytes\` (${this.maxFileBytes})`), { code: 'ERR_FILE_TOO_LARGE' })
    }
    // Read again: the entry may have changed (or gone) while the file was read.
    const entry = this.#required(m, taskId)
    const previous = entry.config.files[path]
    const bytes = entry.bytes - (previous === undefined ? 0 : Buffer.byteLength(previous)) + Buffer.byteLength(text)
    if (bytes > this.maxTotalBytes) {
      throw Object.assign(new RangeError(`${FN}.${m}: the task's files would come to ${bytes} bytes, over \`maxTotalBytes\` (${this.maxTotalBytes})`), {
        code: 'ERR_FILE_TOO_LARGE',
      })
    }
    return this.#store(taskId, { ...entry.config, files: { ...entry.config.files, [path]: text } }, bytes)
  }

  /**
   * The ready call for the user's Task tool: `{ subagent_type, description, prompt }` with
   * description `"<taskId>: Execute isolated task"` and the rendered prompt. A plain
   * object of strings: `JSON.stringify` gives the tool input, escaped.
   */
  dispatch(taskId: string, agentType?: string): TaskToolCall {
    const m = 'dispatch'
    const entry = this.#required(m, taskId)
    const type = agentType === undefined ? this.defaultAgentType : str(m, 'agentType', agentType)
    if (type.trim() === '' || /[\u0000-\u001f\u007f]/.test(type)) {
      throw new RangeError(`${FN}.${m}: \`agentType\` must be a non-empty single line, got ${JSON.stringify(type)}`)
    }
    return Object.freeze({
      subagent_type: type,
      description: `${taskId}: Execute isolated task`,
      prompt: renderPrompt(entry.result.isolatedContext),
    })
  }
}
