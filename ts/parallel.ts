// spawnParallel: many subagents from one parent thread, at most `concurrency` at a time.
// Each spawn is isolated from the others: one that fails, hangs or aborts resolves its own
// outcome and the rest go on. The batch's signal aborts what is still running and what
// has not started. The parent thread is prepared once for the whole batch.
import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'

import type { SubagentConfig } from '../index.js'
import { type ParentThread, PreparedThread, prepareThreadAsync } from './isolate.js'
import {
  type CheckedSpawnOptions,
  checkConfig,
  checkOptions,
  errorText,
  failedOutcome,
  type SpawnFailureReason,
  type SpawnOptions,
  spawnChecked,
  type SubagentOutcome,
} from './spawn.js'
import { type BatchCacheMetrics, batchCacheMetrics, PromptBatch } from './prompt-cache.js'
import type { SpawnExecutor } from './executor.js'

/** What every `spawnParallel` takes, wherever `run` is called. */
export interface SpawnParallelBaseOptions extends Omit<SpawnOptions, 'run'> {
  /**
   * With `executor`: the batch's id (letters, digits, `_`, `-`, `.`). A spawn's job is
   * named by it and its position, so a parent restarted with the same `batchId` collects
   * the outcomes of runs already finished instead of running them again.
   * @default a random UUID
   */
  batchId?: string
  /** Subagents running at once (isolation, `run` and filtering). @default 4, or with `executor` Infinity (the workers' concurrency bounds the runs) */
  concurrency?: number
  /**
   * With `fullThreadContext`: give each subagent the other configs' tasks (id and text)
   * as `siblingTasks`, beside its own, so that what belongs to them stays out of its
   * context extract.
   * @default true
   */
  siblings?: boolean
  /** Called as each outcome arrives (in completion order), with its input index. What it throws is ignored. */
  onOutcome?: (outcome: SubagentOutcome, index: number) => void
}

/** `spawnParallel` calling `run` in this process. */
export interface InProcessParallelOptions extends SpawnParallelBaseOptions {
  /** The caller's model call. */
  run: SpawnOptions['run']
  executor?: undefined
}

/** `spawnParallel` with the runs elsewhere: `run` is the workers' (`startSubagentWorker`). */
export interface ExecutorParallelOptions extends SpawnParallelBaseOptions {
  /**
   * Runs each spawn's `run` elsewhere, e.g. on worker processes (`SubagentQueue` of
   * `subagent-context/bullmq`). The parent still isolates, renders the prompts, filters
   * the results and records the ledger's completions.
   */
  executor: SpawnExecutor
  run?: undefined
}

export type SpawnParallelOptions = InProcessParallelOptions | ExecutorParallelOptions

/** Totals over a batch (with its prompt-cache figures). */
export interface ParallelMetrics extends BatchCacheMetrics {
  spawned: number
  succeeded: number
  failed: number
  /** Failures by reason. */
  failures: Partial<Record<SpawnFailureReason, number>>
  /** Most subagents in flight at once (never above `concurrency`). */
  maxInFlight: number
  /**
   * Tokens added to the parent's context by the batch with isolation: the filtered
   * results only (a failed subagent adds none).
   */
  parentGrowthTokens: number
  /** What the parent's context would have grown by without filtering: every raw result. */
  parentGrowthWithoutIsolation: number
  /** Sum of `budget.resultTokens` over the subagents: the bound on `parentGrowthTokens`. */
  resultBudgetTokens: number
  /** Tokens the subagents were given (their prompts). */
  promptTokens: number
  /** Tokens they would have inherited without isolation (each its parent thread and config). */
  inheritedTokensWithoutIsolation: number
  /** Wall time of the batch. */
  durationMs: number
  /** The package's own time, summed over the subagents (everything but `run`). */
  overheadMs: number
}

export interface ParallelResult {
  /** One per config, in input order. */
  outcomes: SubagentOutcome[]
  metrics: ParallelMetrics
}

/**
 * Spawns a subagent for each config (see `spawnSubagent`), at most `concurrency` at a
 * time, and resolves once all have outcomes: in input order, with totals. Never rejects
 * because of a subagent; only invalid arguments reject (a `TypeError` or `RangeError`
 * naming the field). An invalid field deep in one config fails that subagent alone
 * (reason `'invalid-config'`).
 */
export async function spawnParallel(configs: readonly SubagentConfig[], options: SpawnParallelOptions): Promise<ParallelResult> {
  const fn = 'spawnParallel'
  if (!Array.isArray(configs)) {
    throw Object.assign(new TypeError(`${fn}: \`configs\` must be an array of SubagentConfig`), { code: 'ERR_INVALID_ARG_TYPE' })
  }
  const heads = configs.map((c, i) => checkConfig(fn, c, `configs[${i}]`))
  const executor = (options as SpawnParallelOptions | undefined)?.executor
  if (executor !== undefined && executor !== null && (typeof executor !== 'object' || typeof executor.execute !== 'function')) {
    throw Object.assign(new TypeError(`${fn}: \`options.executor\` must be a SpawnExecutor (an object with \`execute\`, e.g. a SubagentQueue)`), {
      code: 'ERR_INVALID_ARG_TYPE',
    })
  }
  const remoteRun: SpawnOptions['run'] = () => {
    throw new Error(`${fn}: \`run\` is called by the executor's workers`)
  }
  const checked = checkOptions(fn, executor && (options as SpawnParallelOptions).run === undefined ? { ...options, run: remoteRun } : options)
  const o = options as SpawnParallelOptions
  const batchId = o.batchId ?? randomUUID()
  if (typeof batchId !== 'string' || !/^[A-Za-z0-9_.-]{1,200}$/.test(batchId)) {
    const E = typeof batchId === 'string' ? RangeError : TypeError
    throw Object.assign(new E(`${fn}: \`options.batchId\` must be 1 to 200 letters, digits, \`_\`, \`-\` or \`.\`, got ${JSON.stringify(batchId)}`), {
      code: typeof batchId === 'string' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE',
    })
  }
  const concurrency = o.concurrency ?? (executor ? Infinity : 4)
  if (concurrency !== Infinity && (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1)) {
    const E = typeof concurrency === 'number' ? RangeError : TypeError
    throw Object.assign(new E(`${fn}: \`options.concurrency\` must be a whole number ≥ 1 or Infinity, got ${String(concurrency)}`), {
      code: typeof concurrency === 'number' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE',
    })
  }
  if (o.onOutcome !== undefined && typeof o.onOutcome !== 'function') {
    throw Object.assign(new TypeError(`${fn}: \`options.onOutcome\` must be a function`), { code: 'ERR_INVALID_ARG_TYPE' })
  }
  const siblings = o.siblings ?? true
  const remote = executor ? (index: number) => ({ executor, batchId, index }) : undefined
  return runBatch(fn, configs, heads, checked, { concurrency, siblings, onOutcome: o.onOutcome, ...(remote && { remote }) })
}

/** The batch after its arguments were checked (shared with the contracts). */
export async function runBatch(
  fn: string,
  configs: readonly SubagentConfig[],
  heads: { task: string; taskId: string }[],
  checked: CheckedSpawnOptions,
  {
    concurrency,
    siblings,
    onOutcome,
    optionsFor,
    remote,
  }: {
    concurrency: number
    siblings: boolean
    onOutcome?: (outcome: SubagentOutcome, index: number) => void
    /** Options of one spawn when they differ (the contracts' limits); the batch's signal replaces theirs. */
    optionsFor?: (index: number) => CheckedSpawnOptions
    /** Where each spawn's `run` is called, when not here. */
    remote?: (index: number) => NonNullable<CheckedSpawnOptions['remote']>
  },
): Promise<ParallelResult> {
  const started = performance.now()
  // One internal signal for the batch: the caller's signal gets one listener, however many
  // subagents run; the spawns listen to this one, which may have many listeners.
  const batch = new AbortController()
  setMaxListeners(0, batch.signal)
  const outer = checked.signal
  const onOuterAbort = () => batch.abort(outer!.reason)
  if (outer?.aborted) batch.abort(outer.reason)
  else outer?.addEventListener('abort', onOuterAbort, { once: true })
  const thread = configs.length > 1 ? await prepared(checked, batch.signal) : checked.thread
  const prompts = new PromptBatch(configs, heads, checked.prompt) // the shared part, rendered once
  const inner: CheckedSpawnOptions = { ...checked, thread, signal: batch.signal, prompts }
  const optionsOf = (i: number): CheckedSpawnOptions => {
    const base = optionsFor ? { ...optionsFor(i), thread, signal: batch.signal, prompts } : inner
    return remote ? { ...base, remote: remote(i) } : base
  }

  const outcomes: SubagentOutcome[] = new Array(configs.length)
  let next = 0
  let inFlight = 0
  let maxInFlight = 0
  const one = async (i: number): Promise<SubagentOutcome> => {
    const head = heads[i]!
    // Siblings only matter when there is a thread to extract from.
    const config = siblings && checked.thread !== undefined && configs.length > 1 ? withSiblings(configs[i]!, heads, i) : configs[i]!
    const options = optionsOf(i)
    try {
      return await spawnChecked(fn, config, head, options)
    } catch (error) {
      return failedOutcome(options, head.taskId, { reason: 'invalid-config', message: errorText(error) })
    }
  }
  const worker = async () => {
    while (next < configs.length) {
      const i = next++
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      const outcome = await one(i)
      inFlight--
      outcomes[i] = outcome
      if (onOutcome) {
        try {
          onOutcome(outcome, i)
        } catch {
          // The caller's progress callback must not break the batch.
        }
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, configs.length) }, worker))
  } finally {
    outer?.removeEventListener('abort', onOuterAbort)
  }

  const metrics: ParallelMetrics = {
    spawned: outcomes.length,
    succeeded: 0,
    failed: 0,
    failures: {},
    maxInFlight,
    parentGrowthTokens: 0,
    parentGrowthWithoutIsolation: 0,
    resultBudgetTokens: 0,
    promptTokens: 0,
    inheritedTokensWithoutIsolation: 0,
    durationMs: performance.now() - started,
    overheadMs: 0,
    ...batchCacheMetrics(outcomes),
  }
  for (const [i, outcome] of outcomes.entries()) {
    const m = outcome.metrics
    metrics.resultBudgetTokens += optionsFor ? optionsFor(i).resultTokens : checked.resultTokens
    if (outcome.success) {
      metrics.succeeded++
      metrics.parentGrowthTokens += m.filteredResultTokens
    } else {
      metrics.failed++
      const reason = outcome.error!.reason
      metrics.failures[reason] = (metrics.failures[reason] ?? 0) + 1
    }
    metrics.parentGrowthWithoutIsolation += m.rawResultTokens
    metrics.promptTokens += m.promptTokens
    metrics.inheritedTokensWithoutIsolation += m.parentTokens
    metrics.overheadMs += m.overheadMs
  }
  return { outcomes, metrics }
}

/**
 * The batch's thread, prepared once (default markers, the batch's encoding) so that each
 * spawn isolates from it without sanitizing, counting and indexing it again. When it
 * cannot be prepared (invalid messages, an abort), the thread as given: each spawn then
 * reports what is wrong with it in its own outcome.
 */
async function prepared(checked: CheckedSpawnOptions, signal: AbortSignal): Promise<ParentThread | undefined> {
  const thread = checked.thread
  if (thread === undefined || thread instanceof PreparedThread) return thread
  try {
    return await prepareThreadAsync(thread, { signal, ...(checked.encoding && { encoding: checked.encoding }) })
  } catch {
    return thread
  }
}

/**
 * `config` with the other configs' tasks added to its `siblingTasks` (a plain copy; the
 * caller's object is untouched). Each is written as isolation writes a config's own task
 * (its id, a line break, its task), so that every spawn of the batch asks for the same set
 * of tasks and a prepared thread scores that set once.
 */
function withSiblings(config: SubagentConfig, heads: { task: string; taskId: string }[], self: number): SubagentConfig {
  const others = heads.filter((_, j) => j !== self).map((h) => `${h.taskId}\n${h.task}`)
  let copy: Record<string, unknown>
  try {
    copy = { ...config }
  } catch {
    return config // reading it threw: isolation reports that, naming the field
  }
  const own = copy.siblingTasks
  copy.siblingTasks = Array.isArray(own) ? [...own, ...others] : own === undefined || own === null ? others : own
  return copy as unknown as SubagentConfig
}
