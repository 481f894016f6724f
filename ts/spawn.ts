// spawnSubagent: the whole trip of one subagent. Isolate the config (on the thread pool),
// render its prompt, run the caller's model call under a timeout with an AbortSignal,
// filter what comes back to a token budget, report one structured event, and resolve
// to an outcome. Whatever the subagent does (throw, reject, hang, answer garbage, abort
// and then answer) the parent gets an outcome, never an exception, and no timer or
// listener is left behind.
import { createHash } from 'node:crypto'

import * as native from '../index.js'
import type { Encoding, SubagentConfig, SubagentContext } from '../index.js'
import { createIsolatedContextAsync, type ParentThread, PreparedThread } from './isolate.js'
import { parseCompletionSummary, type SubtaskLedger } from './ledger.js'
import { type AnyMessage, toNativeMessages } from './messages.js'
import { describe } from './ledger-store.js'
import { sanitize } from './sanitize.js'
import { type Citation, filterSubagentResult } from './filter.js'
import { type CheckedPromptOptions, checkPromptOptions, type PromptCacheInfo, type PromptCacheOptions, type PromptRenderer, singlePrompt } from './prompt-cache.js'

/** What the package enforces around a subagent's run, and hands to `run` as well. */
export interface SpawnLimits {
  /**
   * Model calls or tool-loop steps the subagent may take. Enforced when `run` calls
   * `input.iteration()` once per step (past the limit it aborts and throws) or returns a
   * result with `steps` (the Vercel AI SDK's) or `iterations`. No limit by default.
   */
  maxIterations?: number
  /**
   * Tokens the subagent may use: its prompt, then what it reports in `usage` (else
   * prompt + raw result tokens). A prompt over it is not run. No limit by default.
   */
  maxTokens?: number
  /**
   * Milliseconds from the call to the subagent's answer (isolation included): then its
   * signal aborts and the outcome is `success: false` with reason `'timeout'`.
   * `Infinity`: no timeout. At most 2,147,483,647.
   * @default 300000
   */
  timeoutMs?: number
}

/** Token budgets of one spawn. */
export interface SpawnBudget {
  /** Cap on the subagent's relevant context (thread extract plus ledger block), exact tokens. Default: `config.maxContextTokens`, else no cap. */
  contextTokens?: number
  /** Cap on the result that flows back to the parent, exact tokens. @default 2000 */
  resultTokens?: number
  /** Cap on the ledger's block within `contextTokens`. @default a quarter of `contextTokens`, or 1000 without it */
  ledgerTokens?: number
}

/** What `run` (the caller's model call) gets. */
export interface SubagentRunInput {
  /** The subagent's id: `config.taskId`, or `task-` and 8 hex digits of the task's SHA-1. */
  readonly taskId: string
  /** The whole prompt (`renderPrompt`): send it as the subagent's first message. */
  readonly prompt: string
  /** The isolated context the prompt was rendered from (frozen). */
  readonly context: SubagentContext
  /** Aborts on timeout, on the caller's (or the batch's) signal, and past `maxIterations`. Pass it to the model call. */
  readonly signal: AbortSignal
  /** The limits in force (`timeoutMs` always set). */
  readonly limits: Readonly<SpawnLimits & { timeoutMs: number }>
  /** The prompt's shared part, its cache key and `responseStarted()` (see `aiSdkPromptWithCacheHints`). */
  readonly cache: PromptCacheInfo
  /** Call once per model call or tool step: returns the step's number; past `limits.maxIterations` it aborts `signal` and throws. */
  iteration(): number
}

/**
 * What `run` may return: the subagent's text, its messages (any accepted format), an
 * object with `content` text (and anything else), or a Vercel AI SDK `generateText`
 * result (`text`, `usage`, `steps`).
 */
export type SubagentRunResult =
  | string
  | readonly AnyMessage[]
  | { content: string; usage?: unknown; [key: string]: unknown }
  | { text: string; usage?: unknown; steps?: readonly unknown[] }

/** Why a spawn did not succeed. */
export type SpawnFailureReason =
  | 'timeout'
  | 'aborted'
  | 'threw'
  | 'invalid-result'
  | 'empty-result'
  | 'iteration-limit'
  | 'token-limit'
  | 'isolation-failed'
  | 'filter-failed'
  | 'blocked'
  | 'invalid-config'

/**
 * Thrown by a `run` that declines its task (the two-phase contracts' reasoning phase
 * does): the outcome is `success: false` with reason `'blocked'` and this message.
 */
export class SubagentBlockedError extends Error {
  override readonly name = 'SubagentBlockedError'
}

export interface SpawnError {
  reason: SpawnFailureReason
  message: string
}

/** A pino-compatible logger: `info(obj, msg)`. */
export interface SpawnLogger {
  info(obj: object, msg?: string): unknown
}

export interface SpawnMetrics {
  /** Tokens the subagent would have inherited without isolation (thread and config as given). */
  parentTokens: number
  /** Tokens of the isolated context's fields (before the ledger block). */
  isolatedTokens: number
  /** `1 - isolatedTokens / parentTokens`. */
  reductionRatio: number
  /** Config keys left behind, by name. */
  droppedKeys: string[]
  /** Markers removed while isolating. */
  markersRemoved: number
  /** Tokens of the ledger block added to the relevant context. */
  ledgerTokens: number
  /** Tokens of the prompt `run` got. */
  promptTokens: number
  /** Tokens at the prompt's start that are its batch's shared part (alone: its own shared part), byte for byte: what a provider's cache can serve it. */
  sharedPrefixTokens: number
  /** Tokens of the result as the subagent returned it (messages: `countMessageTokens` of them all). */
  rawResultTokens: number
  /** Tokens of the filtered result: what flows back to the parent. */
  filteredResultTokens: number
  /** `1 - filteredResultTokens / rawResultTokens`. */
  resultReductionRatio: number
  /** Markers removed from the result. */
  resultMarkersRemoved: number
  citationsKept: number
  /** What the subagent reported in `usage`, else prompt + raw result tokens. */
  tokensUsed: number
  /** Steps counted by `iteration()` or reported by the result. */
  iterations: number
  /** From the call to the outcome. */
  durationMs: number
  /** Inside `run` (until it answered, or the spawn gave up on it). */
  runMs: number
  /** The package's own time: `durationMs - runMs`. */
  overheadMs: number
  /** Of which: isolating the config (extraction from the thread included), on the thread pool. */
  isolationMs: number
  /** Of which: filtering the result. */
  filterMs: number
}

export interface SubagentOutcome {
  taskId: string
  success: boolean
  /** The filtered result (empty on failure). */
  content: string
  /** The sources the filtered result cites. */
  citations: Citation[]
  error?: SpawnError
  metrics: SpawnMetrics
}

/** The one event every spawn emits, through `onEvent` and `logger.info`. */
export interface SpawnEvent extends SpawnMetrics {
  type: 'subagent.spawn'
  taskId: string
  success: boolean
  reason?: SpawnFailureReason
  error?: string
  /** Set when the ledger could not be read or written (the spawn went on without it). */
  ledgerError?: string
}

export interface SpawnOptions {
  /** The caller's model call. */
  run: (input: SubagentRunInput) => SubagentRunResult | PromiseLike<SubagentRunResult>
  /**
   * The parent's thread: text or messages (OpenAI, Anthropic, Vercel AI SDK, LangChain),
   * or a `PreparedThread` (`prepareThread`) when many subagents are spawned from one thread.
   */
  fullThreadContext?: ParentThread
  budget?: SpawnBudget
  limits?: SpawnLimits
  /** Called once per spawn with its event. What it throws is ignored. */
  onEvent?: (event: SpawnEvent) => void
  /** Gets `info(event, 'subagent finished')` once per spawn. What it throws is ignored. */
  logger?: SpawnLogger
  /** Earlier subtasks' summaries and artifacts for this one; its completion is recorded on success. */
  ledger?: SubtaskLedger
  /** Aborts the spawn: the outcome is then `success: false` with reason `'aborted'`. */
  signal?: AbortSignal
  /** @default 'o200k_base' */
  encoding?: Encoding
  /** How the result is filtered. */
  result?: { minRelevance?: number; keepCitations?: boolean }
  /** How the prompt is rendered: its order, and (in a batch) whether one sibling starts first. */
  prompt?: PromptCacheOptions
}

export const DEFAULT_TIMEOUT_MS = 300_000
export const DEFAULT_RESULT_TOKENS = 2000
const MAX_TIMER_MS = 2_147_483_647

// ---------------------------------------------------------------------------------------------
// Argument checks

function fail(fn: string, path: string, expected: string, value: unknown): never {
  throw Object.assign(new TypeError(`${fn}: \`${path}\` must be ${expected}, got ${describe(value)}`), { code: 'ERR_INVALID_ARG_TYPE' })
}

function range(fn: string, path: string, expected: string, value: unknown): never {
  throw Object.assign(new RangeError(`${fn}: \`${path}\` must be ${expected}, got ${String(value)}`), { code: 'ERR_OUT_OF_RANGE' })
}

/** A whole number ≥ `min` (`Infinity` when allowed), or `undefined`. */
function whole(fn: string, path: string, value: unknown, { min = 0, infinite = false, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined || value === null) return undefined
  const expected = `a whole number from ${min} to ${max.toLocaleString('en-US')}${infinite ? ' or Infinity' : ''}`
  if (typeof value !== 'number') fail(fn, path, expected, value)
  if (value === Infinity && infinite) return value
  if (!Number.isInteger(value) || value < min || value > max) range(fn, path, expected, value)
  return value
}

function optionalObject(fn: string, path: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) fail(fn, path, 'an object', value)
  return value as Record<string, unknown>
}

/** Spawn options, checked and with defaults; shared with `spawnParallel` and the contracts. */
export interface CheckedSpawnOptions {
  run: SpawnOptions['run']
  thread: ParentThread | undefined
  contextTokens: number | undefined
  resultTokens: number
  ledgerTokens: number | undefined
  limits: SpawnLimits & { timeoutMs: number }
  onEvent: SpawnOptions['onEvent']
  logger: SpawnLogger | undefined
  ledger: SubtaskLedger | undefined
  signal: AbortSignal | undefined
  encoding: Encoding | undefined
  minRelevance: number | undefined
  keepCitations: boolean | undefined
  prompt: CheckedPromptOptions
  /** The batch's renderer, when the spawn is one of a batch. */
  prompts?: PromptRenderer
}

export function checkOptions(fn: string, options: unknown, prefix = 'options'): CheckedSpawnOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(fn, prefix, 'an object with a `run` function', options)
  const o = options as Record<string, unknown>
  if (typeof o.run !== 'function') fail(fn, `${prefix}.run`, 'a function', o.run)
  const thread = o.fullThreadContext
  if (thread !== undefined && thread !== null && typeof thread !== 'string' && !Array.isArray(thread) && !(thread instanceof PreparedThread)) {
    fail(fn, `${prefix}.fullThreadContext`, 'a string, an array of messages or a PreparedThread', thread)
  }
  const budget = optionalObject(fn, `${prefix}.budget`, o.budget)
  const limits = optionalObject(fn, `${prefix}.limits`, o.limits)
  const result = optionalObject(fn, `${prefix}.result`, o.result)
  if (o.onEvent !== undefined && o.onEvent !== null && typeof o.onEvent !== 'function') fail(fn, `${prefix}.onEvent`, 'a function', o.onEvent)
  const logger = o.logger as SpawnLogger | undefined | null
  if (logger !== undefined && logger !== null && (typeof logger !== 'object' || typeof logger.info !== 'function')) {
    fail(fn, `${prefix}.logger`, 'a logger with an `info(obj, msg)` method (pino-compatible)', logger)
  }
  const ledger = o.ledger as SubtaskLedger | undefined | null
  if (ledger !== undefined && ledger !== null && (typeof ledger !== 'object' || typeof ledger.contextFor !== 'function' || typeof ledger.recordCompletion !== 'function')) {
    fail(fn, `${prefix}.ledger`, 'a SubtaskLedger', ledger)
  }
  const signal = o.signal as AbortSignal | undefined | null
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal)) fail(fn, `${prefix}.signal`, 'an AbortSignal', signal)
  if (o.encoding !== undefined && o.encoding !== null && !['o200k_base', 'cl100k_base', 'estimate'].includes(o.encoding as string)) {
    fail(fn, `${prefix}.encoding`, "'o200k_base', 'cl100k_base' or 'estimate'", o.encoding)
  }
  const minRelevance = result.minRelevance
  if (minRelevance !== undefined && minRelevance !== null && (typeof minRelevance !== 'number' || !(minRelevance >= 0 && minRelevance <= 1))) {
    ;(typeof minRelevance === 'number' ? range : fail)(fn, `${prefix}.result.minRelevance`, 'a number from 0 to 1', minRelevance)
  }
  const keepCitations = result.keepCitations
  if (keepCitations !== undefined && keepCitations !== null && typeof keepCitations !== 'boolean') {
    fail(fn, `${prefix}.result.keepCitations`, 'a boolean', keepCitations)
  }
  return {
    run: o.run as SpawnOptions['run'],
    thread: (thread ?? undefined) as ParentThread | undefined,
    contextTokens: whole(fn, `${prefix}.budget.contextTokens`, budget.contextTokens, { min: 1 }),
    resultTokens: whole(fn, `${prefix}.budget.resultTokens`, budget.resultTokens, { min: 1 }) ?? DEFAULT_RESULT_TOKENS,
    ledgerTokens: whole(fn, `${prefix}.budget.ledgerTokens`, budget.ledgerTokens),
    limits: {
      maxIterations: whole(fn, `${prefix}.limits.maxIterations`, limits.maxIterations, { min: 1, infinite: true }),
      maxTokens: whole(fn, `${prefix}.limits.maxTokens`, limits.maxTokens, { min: 1, infinite: true }),
      timeoutMs: whole(fn, `${prefix}.limits.timeoutMs`, limits.timeoutMs, { min: 1, infinite: true, max: MAX_TIMER_MS }) ?? DEFAULT_TIMEOUT_MS,
    },
    onEvent: (o.onEvent ?? undefined) as SpawnOptions['onEvent'],
    logger: logger ?? undefined,
    ledger: ledger ?? undefined,
    signal: signal ?? undefined,
    encoding: (o.encoding ?? undefined) as Encoding | undefined,
    minRelevance: (minRelevance ?? undefined) as number | undefined,
    keepCitations: (keepCitations ?? undefined) as boolean | undefined,
    prompt: checkPromptOptions(fn, o.prompt, `${prefix}.prompt`),
  }
}

/** The config's task and id, read once each; a TypeError naming the field otherwise. */
export function checkConfig(fn: string, config: unknown, path = 'config'): { task: string; taskId: string } {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) fail(fn, path, 'an object (SubagentConfig)', config)
  let task: unknown
  let taskId: unknown
  try {
    task = (config as SubagentConfig).task
    taskId = (config as SubagentConfig).taskId
  } catch (error) {
    throw Object.assign(new TypeError(`${fn}: reading \`${path}\` threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error }), {
      code: 'ERR_INVALID_ARG_TYPE',
    })
  }
  if (typeof task !== 'string') fail(fn, `${path}.task`, 'a non-empty string', task)
  if (task.trim() === '') range(fn, `${path}.task`, 'a non-empty string', JSON.stringify(task))
  if (taskId !== undefined && taskId !== null && typeof taskId !== 'string') fail(fn, `${path}.taskId`, 'a string', taskId)
  return { task, taskId: typeof taskId === 'string' && taskId !== '' ? taskId : defaultTaskId(task) }
}

/** `task-` and the first 8 hex digits of the task's SHA-1: stable across runs. */
export function defaultTaskId(task: string): string {
  return `task-${createHash('sha1').update(task).digest('hex').slice(0, 8)}`
}

// ---------------------------------------------------------------------------------------------
// The signal `run` gets

/**
 * A listener that throws on `abort` would surface as an uncaught exception in the parent
 * (EventTarget reports listener errors that way). The signal handed to `run` therefore
 * wraps the listeners added to it, so what they throw goes nowhere.
 */
type Listener = (event: Event) => void
type ListenerLike = Listener | { handleEvent(event: Event): void }

function guardListeners(signal: AbortSignal): AbortSignal {
  const wrapped = new WeakMap<object, Listener>()
  const wrap = (listener: ListenerLike): Listener => {
    let w = wrapped.get(listener)
    if (!w) {
      w = function (this: unknown, event: Event) {
        try {
          if (typeof listener === 'function') listener.call(signal, event)
          else listener.handleEvent(event)
        } catch {
          // The subagent's own cleanup failed; the parent is not concerned.
        }
      }
      wrapped.set(listener, w)
    }
    return w
  }
  const add = EventTarget.prototype.addEventListener
  const remove = EventTarget.prototype.removeEventListener
  let onabort: ((this: AbortSignal, ev: Event) => unknown) | null = null
  let onabortWrapped: Listener | null = null
  Object.defineProperties(signal, {
    addEventListener: {
      value(type: string, listener: ListenerLike | null, options?: { once?: boolean; capture?: boolean; signal?: AbortSignal } | boolean) {
        if (listener === null || listener === undefined) return
        add.call(signal, type, typeof listener === 'function' || typeof listener === 'object' ? wrap(listener) : listener, options)
      },
    },
    removeEventListener: {
      value(type: string, listener: ListenerLike | null, options?: { capture?: boolean } | boolean) {
        if (listener === null || listener === undefined) return
        remove.call(signal, type, wrapped.get(listener) ?? listener, options)
      },
    },
    onabort: {
      get: () => onabort,
      set(value: unknown) {
        if (onabortWrapped) remove.call(signal, 'abort', onabortWrapped)
        onabort = typeof value === 'function' ? (value as typeof onabort) : null
        onabortWrapped = onabort ? wrap(onabort as Listener) : null
        if (onabortWrapped) add.call(signal, 'abort', onabortWrapped)
      },
    },
  })
  return signal
}

// ---------------------------------------------------------------------------------------------
// The result

type Normalized =
  | { ok: true; value: string | AnyMessage[] | { content: string }; usage?: number; steps?: number }
  | { ok: false; reason: 'invalid-result' | 'empty-result'; message: string }

/** Total tokens from a `usage` object (AI SDK v5+: input/output/totalTokens; v4 and OpenAI: prompt/completion/total). */
function usageTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined
  const u = usage as Record<string, unknown>
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined)
  const total = n(u.totalTokens) ?? n(u.total_tokens)
  if (total !== undefined) return total
  const input = n(u.inputTokens) ?? n(u.promptTokens) ?? n(u.prompt_tokens) ?? n(u.input_tokens)
  const output = n(u.outputTokens) ?? n(u.completionTokens) ?? n(u.completion_tokens) ?? n(u.output_tokens)
  return input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined
}

function normalize(value: unknown): Normalized {
  if (typeof value === 'string') {
    return value.trim() === '' ? { ok: false, reason: 'empty-result', message: 'the subagent returned an empty result' } : { ok: true, value }
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, reason: 'empty-result', message: 'the subagent returned no messages' }
    return { ok: true, value: value as AnyMessage[] }
  }
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>
    const usage = usageTokens(o.usage)
    const steps = Array.isArray(o.steps) ? o.steps.length : typeof o.iterations === 'number' ? o.iterations : undefined
    const text = typeof o.content === 'string' ? o.content : typeof o.text === 'string' ? o.text : undefined
    if (text === undefined) {
      return { ok: false, reason: 'invalid-result', message: 'the subagent returned an object without `content` or `text` text' }
    }
    if (text.trim() === '') return { ok: false, reason: 'empty-result', message: 'the subagent returned an empty result' }
    return { ok: true, value: { content: text }, ...(usage !== undefined && { usage }), ...(steps !== undefined && { steps }) }
  }
  return { ok: false, reason: 'invalid-result', message: `the subagent returned ${describe(value)}, not text, messages or an object with \`content\`` }
}

/** The result's text, for the ledger's summary. */
function resultText(value: string | AnyMessage[] | { content: string }): string {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return value.content
  const parts: string[] = []
  for (const m of toNativeMessages(value) as unknown as Record<string, unknown>[]) {
    if (m.role !== 'assistant') continue
    const c = m.content
    if (typeof c === 'string') parts.push(c)
    else if (Array.isArray(c)) for (const p of c) if (p && typeof p === 'object' && typeof p.text === 'string' && p.type === 'text') parts.push(p.text)
  }
  return parts.join('\n\n')
}

const SUMMARY_FORM = /^\s*(?:#+\s*)?[*_]*\s*summary\s*[*_]*\s*:/im

function headlineSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 600 ? `${flat.slice(0, 599).trimEnd()}…` : flat
}

// ---------------------------------------------------------------------------------------------

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'string' ? error : describe(error))

/** A config error from isolation, named as `fn`'s. */
function asConfigError(fn: string, error: unknown): Error | undefined {
  if (!(error instanceof TypeError || error instanceof RangeError)) return undefined
  const message = error.message.replace(/^createIsolatedContextAsync: /, `${fn}: `)
  const Ctor = error instanceof TypeError ? TypeError : RangeError
  return Object.assign(new Ctor(message, { cause: error }), { code: (error as { code?: string }).code ?? 'ERR_INVALID_ARG_VALUE' })
}

const zeroMetrics = (): SpawnMetrics => ({
  parentTokens: 0,
  isolatedTokens: 0,
  reductionRatio: 0,
  droppedKeys: [],
  markersRemoved: 0,
  ledgerTokens: 0,
  promptTokens: 0,
  sharedPrefixTokens: 0,
  rawResultTokens: 0,
  filteredResultTokens: 0,
  resultReductionRatio: 0,
  resultMarkersRemoved: 0,
  citationsKept: 0,
  tokensUsed: 0,
  iterations: 0,
  durationMs: 0,
  runMs: 0,
  overheadMs: 0,
  isolationMs: 0,
  filterMs: 0,
})

/**
 * Runs one subagent in isolation: isolates `config` (async, on the thread pool), renders
 * its prompt, calls `options.run({ taskId, prompt, context, signal, limits, iteration })`
 * under `limits.timeoutMs`, filters the result to `budget.resultTokens`, emits one
 * event and resolves to the outcome. A subagent that throws, rejects, hangs, aborts or
 * answers garbage resolves `success: false` with a reason; only invalid arguments
 * reject (a `TypeError` or `RangeError` naming the field).
 */
export function spawnSubagent(config: SubagentConfig, options: SpawnOptions): Promise<SubagentOutcome> {
  let checked: CheckedSpawnOptions
  let head: { task: string; taskId: string }
  try {
    head = checkConfig('spawnSubagent', config)
    checked = checkOptions('spawnSubagent', options)
  } catch (error) {
    return Promise.reject(error)
  }
  return spawnChecked('spawnSubagent', config, head, checked)
}

/** `spawnSubagent` after its arguments were checked (shared with `spawnParallel` and the contracts). */
export async function spawnChecked(
  fn: string,
  config: SubagentConfig,
  { task, taskId }: { task: string; taskId: string },
  o: CheckedSpawnOptions,
): Promise<SubagentOutcome> {
  const started = performance.now()
  const metrics = zeroMetrics()
  let ledgerError: string | undefined
  let runStarted: number | undefined
  let runEnded: number | undefined

  // One controller for the whole spawn: isolation and `run` both listen to it.
  const controller = new AbortController()
  let abortCause: 'timeout' | 'aborted' | 'iteration-limit' | undefined
  const abort = (cause: NonNullable<typeof abortCause>, reason: unknown) => {
    if (controller.signal.aborted) return
    abortCause = cause
    controller.abort(reason)
  }
  const onOuterAbort = () => abort('aborted', o.signal!.reason)
  let timer: ReturnType<typeof setTimeout> | undefined

  const finish = (failure?: SpawnError, filtered?: { content: string; citations: Citation[] }): SubagentOutcome => {
    if (timer !== undefined) clearTimeout(timer)
    o.signal?.removeEventListener('abort', onOuterAbort)
    const end = performance.now()
    metrics.durationMs = end - started
    metrics.runMs = runStarted === undefined ? 0 : (runEnded ?? end) - runStarted
    metrics.overheadMs = metrics.durationMs - metrics.runMs
    const success = failure === undefined
    const outcome: SubagentOutcome = {
      taskId,
      success,
      content: success ? filtered!.content : '',
      citations: success ? filtered!.citations : [],
      ...(failure && { error: failure }),
      metrics,
    }
    emit(o, {
      type: 'subagent.spawn',
      taskId,
      success,
      ...(failure && { reason: failure.reason, error: failure.message }),
      ...(ledgerError !== undefined && { ledgerError }),
      ...metrics,
      droppedKeys: [...metrics.droppedKeys],
    })
    return outcome
  }

  if (o.signal?.aborted) return finish({ reason: 'aborted', message: `aborted before it started: ${errorMessage(o.signal.reason)}` })
  o.signal?.addEventListener('abort', onOuterAbort, { once: true })
  if (o.limits.timeoutMs !== Infinity) {
    timer = setTimeout(
      () => abort('timeout', new DOMException(`the subagent did not answer within ${o.limits.timeoutMs} ms`, 'TimeoutError')),
      o.limits.timeoutMs,
    )
  }
  const abortedFailure = (): SpawnError => {
    const reason = controller.signal.reason
    if (abortCause === 'timeout') return { reason: 'timeout', message: errorMessage(reason) }
    if (abortCause === 'iteration-limit') return { reason: 'iteration-limit', message: errorMessage(reason) }
    return { reason: 'aborted', message: `aborted: ${errorMessage(reason)}` }
  }

  try {
    // The ledger's block, within its share of the context budget.
    let ledgerText = ''
    if (o.ledger) {
      try {
        const cap = o.ledgerTokens ?? (o.contextTokens !== undefined ? Math.floor(o.contextTokens / 4) : 1000)
        if (cap > 0) {
          const block = o.ledger.contextFor(task, { maxTokens: cap })
          ledgerText = block.text
          metrics.ledgerTokens = block.tokens
        }
      } catch (error) {
        ledgerError = `contextFor: ${errorMessage(error)}`
      }
    }

    // Isolation: the thread's relevant part within what the ledger left of the budget.
    let isolateConfig: SubagentConfig = config
    const configCap = readMaxContextTokens(config)
    const cap = o.contextTokens === undefined ? configCap : Math.min(o.contextTokens, configCap ?? Infinity)
    const threadCap = cap === undefined ? undefined : Math.max(0, cap - (ledgerText ? metrics.ledgerTokens + 2 : 0))
    if (threadCap !== configCap) isolateConfig = withMaxContextTokens(fn, config, threadCap)
    let isolation
    const isolationStarted = performance.now()
    try {
      isolation = await createIsolatedContextAsync(isolateConfig, o.thread ?? null, {
        signal: controller.signal,
        ...(o.encoding && { encoding: o.encoding }),
      })
    } catch (error) {
      if (controller.signal.aborted) return finish(abortedFailure())
      const configError = asConfigError(fn, error)
      if (configError) throw configError
      return finish({ reason: 'isolation-failed', message: errorMessage(error) })
    }
    metrics.isolationMs = performance.now() - isolationStarted
    const im = isolation.metrics
    metrics.parentTokens = im.parentTokens
    metrics.isolatedTokens = im.isolatedTokens
    metrics.reductionRatio = im.reductionRatio
    metrics.droppedKeys = [...im.droppedKeys]
    metrics.markersRemoved = im.markersRemoved

    let context: SubagentContext = isolation.isolatedContext
    if (ledgerText) {
      const joined = context.relevantContext ? `${context.relevantContext}\n\n${ledgerText}` : ledgerText
      context = Object.freeze({ ...context, relevantContext: fitLedger(joined, context.relevantContext, cap, o.encoding) })
    }
    const rendered = (o.prompts ?? singlePrompt(o.prompt)).render(context, o.encoding)
    const prompt = rendered.prompt
    metrics.sharedPrefixTokens = rendered.sharedPrefixTokens
    const count = (text: string) => native.countTokens(text, o.encoding ? { encoding: o.encoding } : undefined)
    metrics.promptTokens = count(prompt)
    if (o.limits.maxTokens !== undefined && metrics.promptTokens > o.limits.maxTokens) {
      return finish({
        reason: 'token-limit',
        message: `the prompt is ${metrics.promptTokens} tokens, over \`limits.maxTokens\` (${o.limits.maxTokens}); it was not run`,
      })
    }
    if (controller.signal.aborted) return finish(abortedFailure())

    // The run, raced against the spawn's signal: whichever comes first decides.
    let steps = 0
    const signal = guardListeners(controller.signal)
    const limits = Object.freeze({ ...o.limits })
    const input: SubagentRunInput = Object.freeze({
      taskId,
      prompt,
      context,
      signal,
      limits,
      cache: rendered.cache,
      iteration: () => {
        steps++
        if (o.limits.maxIterations !== undefined && steps > o.limits.maxIterations) {
          const error = new RangeError(`the subagent went past \`limits.maxIterations\` (${o.limits.maxIterations})`)
          abort('iteration-limit', error)
          throw error
        }
        return steps
      },
    })
    await rendered.ready(controller.signal)
    runStarted = performance.now()
    const answer = await new Promise<{ value: unknown } | { error: unknown } | { aborted: true }>((resolve) => {
      let done = false
      const settle = (r: { value: unknown } | { error: unknown } | { aborted: true }) => {
        if (done) return
        done = true
        runEnded = performance.now()
        controller.signal.removeEventListener('abort', onAbort)
        resolve(r)
      }
      const onAbort = () => settle({ aborted: true })
      if (controller.signal.aborted) return settle({ aborted: true })
      controller.signal.addEventListener('abort', onAbort)
      // `then` on a resolved promise: a synchronous throw in `run`, or a thenable whose
      // `then` throws, becomes a rejection here; both handlers are attached at once, so
      // a late rejection is never unhandled.
      Promise.resolve()
        .then(() => o.run(input))
        .then(
          (value) => settle({ value }),
          (error) => settle({ error }),
        )
    })
    rendered.cache.responseStarted() // its run has ended: siblings held for it go on
    metrics.iterations = steps
    if ('aborted' in answer || controller.signal.aborted) return finish(abortedFailure())
    if ('error' in answer) {
      const blocked = answer.error instanceof SubagentBlockedError
      return finish({ reason: blocked ? 'blocked' : 'threw', message: errorMessage(answer.error) })
    }

    let normalized: Normalized
    try {
      normalized = normalize(answer.value)
    } catch (error) {
      normalized = { ok: false, reason: 'invalid-result', message: `reading the result threw: ${errorMessage(error)}` }
    }
    if (!normalized.ok) return finish({ reason: normalized.reason, message: normalized.message })
    if (normalized.steps !== undefined) metrics.iterations = Math.max(steps, normalized.steps)
    if (o.limits.maxIterations !== undefined && metrics.iterations > o.limits.maxIterations) {
      return finish({ reason: 'iteration-limit', message: `the subagent took ${metrics.iterations} steps, over \`limits.maxIterations\` (${o.limits.maxIterations})` })
    }

    let filtered
    const filterStarted = performance.now()
    try {
      filtered = filterSubagentResult(normalized.value, task, {
        maxTokens: o.resultTokens,
        ...(o.encoding && { encoding: o.encoding }),
        ...(o.minRelevance !== undefined && { minRelevance: o.minRelevance }),
        ...(o.keepCitations !== undefined && { keepCitations: o.keepCitations }),
      })
    } catch (error) {
      return finish({ reason: 'filter-failed', message: errorMessage(error) })
    }
    metrics.filterMs = performance.now() - filterStarted
    // Nothing readable (a history without an answer, only reasoning or marked text): not a success.
    if (filtered.content.trim() === '') return finish({ reason: 'empty-result', message: 'the subagent answered with no readable text' })
    const fm = filtered.metrics
    // A result given as messages (the subagent's history) would reach the parent whole: it
    // counts as such, though the filter reads only its final answer and the tool output it cites.
    metrics.rawResultTokens = Array.isArray(normalized.value)
      ? native.countMessageTokens(toNativeMessages(normalized.value), o.encoding ? { encoding: o.encoding } : undefined)
      : fm.originalTokens
    metrics.filteredResultTokens = fm.filteredTokens
    metrics.resultReductionRatio = metrics.rawResultTokens === 0 ? 0 : 1 - fm.filteredTokens / metrics.rawResultTokens
    metrics.resultMarkersRemoved = fm.markersRemoved
    metrics.citationsKept = filtered.citations.length
    metrics.tokensUsed = normalized.usage ?? metrics.promptTokens + metrics.rawResultTokens
    if (o.limits.maxTokens !== undefined && metrics.tokensUsed > o.limits.maxTokens) {
      return finish({ reason: 'token-limit', message: `the subagent used ${metrics.tokensUsed} tokens, over \`limits.maxTokens\` (${o.limits.maxTokens})` })
    }

    if (o.ledger) {
      try {
        const raw = sanitize(resultText(normalized.value)).text
        const parsed = SUMMARY_FORM.test(raw) ? parseCompletionSummary(raw) : undefined
        await o.ledger.recordCompletion({
          subtaskId: taskId,
          description: task,
          summary: parsed?.summary || headlineSummary(filtered.content) || headlineSummary(raw) || '(no summary)',
          findings: parsed?.findings ?? [],
          decisions: parsed?.decisions ?? [],
          resources: parsed?.resources ?? [],
        })
      } catch (error) {
        ledgerError = `recordCompletion: ${errorMessage(error)}`
      }
    }
    return finish(undefined, { content: filtered.content, citations: filtered.citations })
  } catch (error) {
    // Only argument errors get here; everything the subagent does resolves above.
    if (timer !== undefined) clearTimeout(timer)
    o.signal?.removeEventListener('abort', onOuterAbort)
    throw error
  }
}

function readMaxContextTokens(config: SubagentConfig): number | undefined {
  const value = (config as { maxContextTokens?: unknown }).maxContextTokens
  return typeof value === 'number' ? value : undefined
}

/** `config` with another `maxContextTokens`, as a plain copy of its own enumerable fields (the whitelist reads it again). */
function withMaxContextTokens(fn: string, config: SubagentConfig, maxContextTokens: number | undefined): SubagentConfig {
  let copy: Record<string, unknown>
  try {
    copy = { ...config }
  } catch (error) {
    throw Object.assign(new TypeError(`${fn}: reading \`config\` threw: ${errorMessage(error)}`, { cause: error }), { code: 'ERR_INVALID_ARG_TYPE' })
  }
  if (maxContextTokens === undefined) delete copy.maxContextTokens
  else copy.maxContextTokens = maxContextTokens
  return copy as unknown as SubagentConfig
}

/**
 * The relevant context with the ledger block, within `cap`: the ledger's own count is in
 * o200k_base and BPE counts are not additive across a join, so the whole is counted
 * again and the ledger block cut at line ends until it fits.
 */
function fitLedger(joined: string, relevant: string | undefined, cap: number | undefined, encoding: Encoding | undefined): string {
  if (cap === undefined) return joined
  const count = (t: string) => native.countTokens(t, encoding ? { encoding } : undefined)
  let text = joined
  while (count(text) > cap) {
    const cut = text.lastIndexOf('\n')
    if (cut <= (relevant?.length ?? 0)) return relevant ?? ''
    text = text.slice(0, cut).trimEnd()
  }
  return text
}

/** The outcome (and event) of a spawn that could not start, e.g. an invalid config in a batch. */
export function failedOutcome(o: CheckedSpawnOptions, taskId: string, failure: SpawnError): SubagentOutcome {
  const metrics = zeroMetrics()
  emit(o, { type: 'subagent.spawn', taskId, success: false, reason: failure.reason, error: failure.message, ...metrics })
  return { taskId, success: false, content: '', citations: [], error: failure, metrics }
}

export const errorText = errorMessage

function emit(o: CheckedSpawnOptions, event: SpawnEvent): void {
  if (o.onEvent) {
    try {
      o.onEvent(event)
    } catch {
      // A failing listener must not turn a finished subagent into a failure.
    }
  }
  if (o.logger) {
    try {
      o.logger.info(event, event.success ? 'subagent finished' : `subagent failed: ${event.reason}`)
    } catch {
      // Same for the logger.
    }
  }
}
