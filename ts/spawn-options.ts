// What a spawn takes and gives back, and the checks of its arguments: the types of
// `spawnSubagent`, `spawnParallel` and the contracts, and their defaults.
import { createHash } from 'node:crypto'

import type { Encoding, SubagentConfig, SubagentContext } from '../index.js'
import { type ParentThread, PreparedThread } from './isolate.js'
import { type SubtaskLedger } from './ledger.js'
import { type AnyMessage } from './messages.js'
import { fail, optionalObject, range, whole } from './args.js'
import { type Citation } from './filter.js'
import type { SpawnExecutor } from './executor.js'
import { type CheckedPromptOptions, checkPromptOptions, type PromptCacheInfo, type PromptCacheOptions, type PromptRenderer } from './prompt-cache.js'

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
  /** Where `run` is called when not here (`spawnParallel`'s `executor`), and the spawn's place in its batch. */
  remote?: { executor: SpawnExecutor; batchId: string; index: number }
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
