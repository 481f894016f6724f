// spawnSubagent: the whole trip of one subagent. Isolate the config (on the thread pool),
// render its prompt, run the caller's model call under a timeout with an AbortSignal,
// filter what comes back to a token budget, report one structured event, and resolve
// to an outcome. Whatever the subagent does (throw, reject, hang, answer garbage, abort
// and then answer) the parent gets an outcome, never an exception, and no timer or
// listener is left behind.

import * as native from '../index.js'
import type { Encoding, SubagentConfig, SubagentContext } from '../index.js'
import { createIsolatedContextAsync } from './isolate.js'
import { parseCompletionSummary, type SubtaskLedger } from './ledger.js'
import { type AnyMessage, toNativeMessages } from './messages.js'
import { describe, whole } from './args.js'
import { sanitize } from './sanitize.js'
import { type Citation, filterSubagentResult } from './filter.js'
import { singlePrompt } from './prompt-cache.js'

export * from './spawn-options.js'
import {
  type CheckedSpawnOptions,
  checkConfig,
  checkOptions,
  SubagentBlockedError,
  type SpawnError,
  type SpawnEvent,
  type SpawnMetrics,
  type SpawnOptions,
  type SubagentOutcome,
  type SubagentRunInput,
} from './spawn-options.js'
import { headlineSummary, type Normalized, normalize, resultText, SUMMARY_FORM } from './spawn-result.js'
import { causedAbort, guardListeners } from './spawn-signal.js'
import { raceCall } from './spawn-race.js'
import type { RemoteAnswer } from './executor.js'

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
  const controller = causedAbort()
  const abort = controller.abort
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
    if (controller.cause() === 'timeout') return { reason: 'timeout', message: errorMessage(reason) }
    if (controller.cause() === 'iteration-limit') return { reason: 'iteration-limit', message: errorMessage(reason) }
    return { reason: 'aborted', message: `aborted: ${errorMessage(reason)}` }
  }

  try {
    const ledger = ledgerBlock(o, task)
    const ledgerText = ledger.text
    metrics.ledgerTokens = ledger.tokens
    ledgerError = ledger.error

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
    const remote = o.remote
    const answer = remote
      ? await raceCall(
          () =>
            remote.executor.execute(
              {
                batchId: remote.batchId,
                index: remote.index,
                taskId,
                prompt,
                context,
                limits,
                cache: { sharedPrefix: rendered.cache.sharedPrefix, sharedPrefixTokens: rendered.cache.sharedPrefixTokens, key: rendered.cache.key },
              },
              signal,
            ),
          controller.signal,
        )
      : await raceCall(() => o.run(input), controller.signal)
    runEnded = performance.now()
    rendered.cache.responseStarted() // its run has ended: siblings held for it go on
    metrics.iterations = steps
    if ('aborted' in answer || controller.signal.aborted) return finish(abortedFailure())
    if ('error' in answer) {
      const blocked = answer.error instanceof SubagentBlockedError
      const where = remote ? 'the executor failed: ' : ''
      return finish({ reason: blocked ? 'blocked' : 'threw', message: `${where}${errorMessage(answer.error)}` })
    }

    let normalized: Normalized
    if (remote) {
      // The worker ran `run` and read its answer; the parent filters it and records it.
      const reply = answer.value as RemoteAnswer
      metrics.iterations = reply.iterations
      if (reply.kind === 'failed') return finish({ reason: reply.reason, message: reply.message })
      normalized = {
        ok: true,
        value: reply.value as string | AnyMessage[] | { content: string },
        ...(reply.usage !== undefined && { usage: reply.usage }),
        ...(reply.steps !== undefined && { steps: reply.steps }),
      }
      steps = reply.iterations
    } else {
      try {
        normalized = normalize(answer.value)
      } catch (error) {
        normalized = { ok: false, reason: 'invalid-result', message: `reading the result threw: ${errorMessage(error)}` }
      }
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

    if (o.ledger) ledgerError = (await recordCompletion(o.ledger, taskId, task, normalized.value, filtered.content)) ?? ledgerError
    return finish(undefined, { content: filtered.content, citations: filtered.citations })
  } catch (error) {
    // Only argument errors get here; everything the subagent does resolves above.
    if (timer !== undefined) clearTimeout(timer)
    o.signal?.removeEventListener('abort', onOuterAbort)
    throw error
  }
}

/** Without `budget.ledgerTokens`, the ledger's block may take a quarter of the context budget. */
const LEDGER_SHARE = 4
/** ...or, without a context budget, this many tokens: a few summaries and artifacts. */
const DEFAULT_LEDGER_TOKENS = 1000

/** The ledger's block for `task`, within its share of the context budget. */
function ledgerBlock(o: CheckedSpawnOptions, task: string): { text: string; tokens: number; error?: string } {
  if (!o.ledger) return { text: '', tokens: 0 }
  try {
    const cap = o.ledgerTokens ?? (o.contextTokens !== undefined ? Math.floor(o.contextTokens / LEDGER_SHARE) : DEFAULT_LEDGER_TOKENS)
    if (cap <= 0) return { text: '', tokens: 0 }
    const block = o.ledger.contextFor(task, { maxTokens: cap })
    return { text: block.text, tokens: block.tokens }
  } catch (error) {
    return { text: '', tokens: 0, error: `contextFor: ${errorMessage(error)}` }
  }
}

/** Records the subtask's completion in the ledger; the error's text when that fails. */
async function recordCompletion(
  ledger: SubtaskLedger,
  taskId: string,
  task: string,
  answer: Parameters<typeof resultText>[0],
  filtered: string,
): Promise<string | undefined> {
  try {
    const raw = sanitize(resultText(answer)).text
    const parsed = SUMMARY_FORM.test(raw) ? parseCompletionSummary(raw) : undefined
    await ledger.recordCompletion({
      subtaskId: taskId,
      description: task,
      summary: parsed?.summary || headlineSummary(filtered) || headlineSummary(raw) || '(no summary)',
      findings: parsed?.findings ?? [],
      decisions: parsed?.decisions ?? [],
      resources: parsed?.resources ?? [],
    })
    return undefined
  } catch (error) {
    return `recordCompletion: ${errorMessage(error)}`
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
