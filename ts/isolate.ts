// The whitelist at the door: a caller's config is copied field by field into a plain
// object before the native code sees it. Only own enumerable properties with allowed
// names are read, each exactly once (a getter that answers differently the second
// time is never asked twice), and only strings, arrays of strings and objects of
// strings are copied; everything else is named in `droppedKeys` and never read.
import * as native from '../index.js'
import type {
  ArchitecturalContext,
  IsolateAsyncOptions,
  IsolateOptions,
  IsolationResult,
  MarkerRule,
  PrepareThreadAsyncOptions,
  PrepareThreadOptions,
  RenderPromptOptions,
  SubagentConfig,
  SubagentContext,
} from '../index.js'
import { settle } from './settle.js'
import { type AnyMessage, toNativeThread } from './messages.js'

export type {
  IsolateAsyncOptions,
  IsolateOptions,
  IsolationResult,
  MarkerRule,
  PrepareThreadAsyncOptions,
  PrepareThreadOptions,
  RenderPromptOptions,
  SharedMaterial,
  SubagentConfig,
  SubagentContext,
} from '../index.js'

/** A prompt in two parts (`renderPromptParts`): `shared + task` is the whole prompt. */
export interface PromptParts {
  /** What siblings given the same material share, byte for byte; empty in the ADR order. */
  shared: string
  /** The task, its own material, the relevant context and the notes. */
  task: string
}

const CONTEXT_FIELDS = ['originalQuery', 'relevantContext', 'userId', 'instructions'] as const
const ARCHITECTURE_FIELDS = [
  'projectStructure',
  'keyPatterns',
  'relevantAdrs',
  'dependencies',
  'namingConventions',
  'trackNomenclature',
] as const
const CONFIG_FIELDS = [
  'task',
  'taskId',
  'context',
  'constraints',
  'files',
  'architecture',
  'clarifications',
  'siblingTasks',
  'maxContextTokens',
  'markers',
] as const
const CONTEXT_OBJECT_FIELDS = ['taskId', 'task', ...CONTEXT_FIELDS, 'constraints', 'files', 'architecture', 'clarifications'] as const

type Plain = Record<string, unknown>

const isPlain = (value: object) => Object.prototype.toString.call(value) === '[object Object]'

/** Reads one caller object for `fn`, recording the keys it leaves behind. */
class Reader {
  /** Keys left behind, named from the root (`context.extra`, `files[Symbol(x)]`). */
  readonly dropped: string[] = []
  constructor(
    private readonly fn: string,
    private readonly root: string,
  ) {}

  private drop(path: string) {
    this.dropped.push(path.startsWith(`${this.root}.`) ? path.slice(this.root.length + 1) : path)
  }

  fail(path: string, expected: string, got: unknown): never {
    const what =
      got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got === 'object' ? 'an object' : typeof got
    throw Object.assign(new TypeError(`${this.fn}: \`${path}\` must be ${expected}, got ${what}`), {
      code: 'ERR_INVALID_ARG_TYPE',
    })
  }

  /** Runs caller code (a getter, a proxy trap), turning what it throws into a TypeError naming `path`. */
  private guard<T>(path: string, read: () => T): T {
    try {
      return read()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw Object.assign(new TypeError(`${this.fn}: reading \`${path}\` threw: ${message}`, { cause: error }), {
        code: 'ERR_INVALID_ARG_TYPE',
      })
    }
  }

  /**
   * The allowed own enumerable fields of `value`, each read once; other keys are
   * recorded as dropped under `path`. `undefined` and `null` fields count as absent.
   */
  fields<K extends string>(value: unknown, path: string, allowed: readonly K[]): Partial<Record<K, unknown>> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'an object', value)
    const out: Partial<Record<K, unknown>> = {}
    const keys = this.guard(path, () => Reflect.ownKeys(value))
    for (const key of keys) {
      const name = typeof key === 'symbol' ? `[${String(key)}]` : key
      const descriptor = this.guard(`${path}.${name}`, () => Reflect.getOwnPropertyDescriptor(value, key))
      if (typeof key !== 'string' || !descriptor?.enumerable || !(allowed as readonly string[]).includes(key)) {
        if (descriptor) this.drop(`${path}.${name}`)
        continue
      }
      const field = this.guard(`${path}.${key}`, () =>
        'value' in descriptor ? descriptor.value : descriptor.get?.call(value),
      )
      if (field !== undefined && field !== null) out[key as K] = field
    }
    return out
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, 'a string', value)
    return value
  }

  optionalString(value: unknown, path: string): string | undefined {
    return value === undefined ? undefined : this.string(value, path)
  }

  /** An array of strings, each element read once. */
  strings(value: unknown, path: string): string[] | undefined {
    if (value === undefined) return undefined
    if (!Array.isArray(value)) this.fail(path, 'an array of strings', value)
    const length = this.guard(`${path}.length`, () => value.length)
    const out: string[] = []
    for (let i = 0; i < length; i++) {
      const descriptor = this.guard(`${path}[${i}]`, () => Reflect.getOwnPropertyDescriptor(value, i))
      const item = descriptor && this.guard(`${path}[${i}]`, () => ('value' in descriptor ? descriptor.value : descriptor.get?.call(value)))
      out.push(this.string(item, `${path}[${i}]`))
    }
    return out
  }

  /** An object of strings (`path → content`): own enumerable string keys, values read once. */
  record(value: unknown, path: string): Record<string, string> | undefined {
    if (value === undefined) return undefined
    // A Map or other built-in would silently read as empty.
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlain(value)) {
      this.fail(path, 'an object of strings', value)
    }
    const entries: [string, string][] = []
    for (const key of this.guard(path, () => Reflect.ownKeys(value))) {
      const name = typeof key === 'symbol' ? `[${String(key)}]` : JSON.stringify(key)
      const descriptor = this.guard(`${path}[${name}]`, () => Reflect.getOwnPropertyDescriptor(value, key))
      if (typeof key !== 'string' || !descriptor?.enumerable) {
        if (descriptor) this.drop(`${path}[${name}]`)
        continue
      }
      const item = this.guard(`${path}[${name}]`, () => ('value' in descriptor ? descriptor.value : descriptor.get?.call(value)))
      entries.push([key, this.string(item, `${path}[${name}]`)])
    }
    return Object.fromEntries(entries)
  }

  architecture(value: unknown, path: string): ArchitecturalContext | undefined {
    if (value === undefined) return undefined
    const a = this.fields(value, path, ARCHITECTURE_FIELDS)
    return {
      projectStructure: this.optionalString(a.projectStructure, `${path}.projectStructure`) ?? '',
      keyPatterns: this.strings(a.keyPatterns, `${path}.keyPatterns`) ?? [],
      relevantAdrs: this.strings(a.relevantAdrs, `${path}.relevantAdrs`) ?? [],
      dependencies: this.record(a.dependencies, `${path}.dependencies`) ?? {},
      namingConventions: this.optionalString(a.namingConventions, `${path}.namingConventions`) ?? '',
      trackNomenclature: this.optionalString(a.trackNomenclature, `${path}.trackNomenclature`) ?? '',
    }
  }

  markers(value: unknown, path: string): MarkerRule[] | undefined {
    if (value === undefined) return undefined
    if (!Array.isArray(value)) this.fail(path, 'an array of marker rules', value)
    return Array.from({ length: this.guard(path, () => value.length) }, (_, i) => {
      const rule = this.fields(this.guard(`${path}[${i}]`, () => value[i]), `${path}[${i}]`, [
        'name',
        'form',
        'action',
      ] as const)
      return rule as MarkerRule
    })
  }
}

/** The plain copy of a `SubagentConfig` the native call gets, and the keys left behind. */
function readConfig(fn: string, config: unknown): { plain: Plain; dropped: string[] } {
  const r = new Reader(fn, 'config')
  const c = r.fields(config, 'config', CONFIG_FIELDS)
  const context = c.context === undefined ? undefined : r.fields(c.context, 'config.context', CONTEXT_FIELDS)
  const plain: Plain = {
    task: r.string(c.task, 'config.task'),
    taskId: r.optionalString(c.taskId, 'config.taskId'),
    context: context && {
      originalQuery: r.optionalString(context.originalQuery, 'config.context.originalQuery'),
      relevantContext: r.optionalString(context.relevantContext, 'config.context.relevantContext'),
      userId: r.optionalString(context.userId, 'config.context.userId'),
      instructions: r.optionalString(context.instructions, 'config.context.instructions'),
    },
    constraints: r.strings(c.constraints, 'config.constraints'),
    files: r.record(c.files, 'config.files'),
    architecture: r.architecture(c.architecture, 'config.architecture'),
    clarifications: r.strings(c.clarifications, 'config.clarifications'),
    siblingTasks: r.strings(c.siblingTasks, 'config.siblingTasks'),
    maxContextTokens: c.maxContextTokens,
    markers: r.markers(c.markers, 'config.markers'),
  }
  return { plain, dropped: r.dropped }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

function toContext(raw: native.NativeIsolation): SubagentContext {
  const context: SubagentContext = {
    ...(raw.taskId !== undefined && raw.taskId !== null && { taskId: raw.taskId }),
    task: raw.task,
    ...(raw.originalQuery != null && { originalQuery: raw.originalQuery }),
    ...(raw.relevantContext != null && { relevantContext: raw.relevantContext }),
    ...(raw.userId != null && { userId: raw.userId }),
    ...(raw.instructions != null && { instructions: raw.instructions }),
    constraints: raw.constraints,
    files: Object.fromEntries(raw.filePaths.map((path, i) => [path, raw.fileContents[i]!])),
    clarifications: raw.clarifications,
  }
  const a = raw.architecture
  if (a) {
    context.architecture = {
      projectStructure: a.projectStructure,
      keyPatterns: a.keyPatterns,
      relevantAdrs: a.relevantAdrs,
      dependencies: Object.fromEntries(a.dependencyNames.map((name, i) => [name, a.dependencyVersions[i]!])),
      namingConventions: a.namingConventions,
      trackNomenclature: a.trackNomenclature,
    }
  }
  return context
}

function toResult(raw: native.NativeIsolation, dropped: string[]): IsolationResult {
  return deepFreeze({
    isolatedContext: toContext(raw),
    metrics: {
      parentTokens: raw.parentTokens,
      isolatedTokens: raw.isolatedTokens,
      reductionRatio: raw.parentTokens === 0 ? 0 : 1 - raw.isolatedTokens / raw.parentTokens,
      droppedKeys: dropped,
      markersRemoved: raw.markersRemoved,
      durationMs: raw.durationMs,
    },
  })
}

export const PreparedThread = native.PreparedThread
export type PreparedThread = native.PreparedThread

/** A parent thread as isolation takes it: text, messages in any accepted format, or prepared. */
export type ParentThread = string | readonly AnyMessage[] | PreparedThread

/**
 * The parent's thread prepared once for isolating many subagents' contexts from it:
 * sanitized (with `options.markers`), counted (in `options.encoding`), segmented and
 * indexed. Pass it as `fullThreadContext` to `createIsolatedContext` or `spawnSubagent`:
 * each subagent gets exactly what the thread itself would give, without that work
 * each time (`spawnParallel` prepares its thread this way). It is a copy of the thread
 * as it is now: messages added later are not in it.
 */
export function prepareThread(fullThreadContext: string | readonly AnyMessage[], options?: PrepareThreadOptions | null): PreparedThread {
  return native.prepareThread(toNativeThread(fullThreadContext), options)
}

/** `prepareThread` on the libuv thread pool; `options.signal` cancels it. */
export function prepareThreadAsync(
  fullThreadContext: string | readonly AnyMessage[],
  options?: PrepareThreadAsyncOptions | null,
): Promise<PreparedThread> {
  return settle(options, () => native.prepareThreadAsync(toNativeThread(fullThreadContext), options))
}

/**
 * The subagent's context, built from `config`'s allowed fields only (`taskId, task,
 * originalQuery, relevantContext, userId, instructions, constraints, files,
 * architecture, clarifications`), every string sanitized, and frozen. With
 * `fullThreadContext`, the relevant context is extracted from it for `config.task`
 * within `config.maxContextTokens`, without what belongs to `config.siblingTasks`.
 * Isolating many configs from one thread: see `prepareThread`.
 */
export function createIsolatedContext(
  config: SubagentConfig,
  fullThreadContext?: ParentThread | null,
  options?: IsolateOptions | null,
): IsolationResult {
  const { plain, dropped } = readConfig('createIsolatedContext', config)
  return toResult(native.createIsolatedContext(plain as never, toNativeThread(fullThreadContext), options), dropped)
}

/** `createIsolatedContext` on the libuv thread pool; `options.signal` cancels it. */
export function createIsolatedContextAsync(
  config: SubagentConfig,
  fullThreadContext?: ParentThread | null,
  options?: IsolateAsyncOptions | null,
): Promise<IsolationResult> {
  return settle(options, () => {
    const { plain, dropped } = readConfig('createIsolatedContextAsync', config)
    return native
      .createIsolatedContextAsync(plain as never, toNativeThread(fullThreadContext), options)
      .then((raw) => toResult(raw, dropped))
  })
}

/**
 * The subagent's prompt: its task (id and full text), architectural context, file
 * contents, constraints, clarifications, relevant context and short working notes.
 * By default (`order: 'cache'`) what siblings share comes first, byte-identical across
 * them, and the task and its own material follow; `order: 'adr'` keeps the seed ADR's
 * order. It never mentions other tasks. Only the allowed fields of `context` are read,
 * and each string is sanitized again.
 */
export function renderPrompt(context: SubagentContext, options?: RenderPromptOptions | null): string {
  return native.renderPrompt(readContext('renderPrompt', context) as never, options)
}

/**
 * `renderPrompt` in two parts: `shared` (what siblings given the same material share,
 * empty in the ADR order) and `task`; `shared + task` is the prompt.
 */
export function renderPromptParts(context: SubagentContext, options?: RenderPromptOptions | null): PromptParts {
  const { shared, task } = native.renderPromptParts(readContext('renderPromptParts', context) as never, options)
  return { shared, task }
}

function readContext(fn: string, context: SubagentContext): Plain {
  const r = new Reader(fn, 'context')
  const c = r.fields(context, 'context', CONTEXT_OBJECT_FIELDS)
  const plain: Plain = {
    task: r.string(c.task, 'context.task'),
    taskId: r.optionalString(c.taskId, 'context.taskId'),
    constraints: r.strings(c.constraints, 'context.constraints'),
    files: r.record(c.files, 'context.files'),
    architecture: r.architecture(c.architecture, 'context.architecture'),
    clarifications: r.strings(c.clarifications, 'context.clarifications'),
  }
  for (const key of CONTEXT_FIELDS) plain[key] = r.optionalString(c[key], `context.${key}`)
  return plain
}
