// Running a spawn's `run` elsewhere (another process, another machine). The parent keeps
// isolation, prompt rendering, filtering and the ledger; what travels is small and bounded:
// the rendered prompt, the isolated context, the limits and the spawn's place in its batch
// (never the parent's thread); what comes back is the raw answer, read as text.
import type { Message, SubagentContext } from '../index.js'
import { describe } from './args.js'
import { type AnyMessage, toNativeMessages } from './messages.js'
import { raceCall } from './spawn-race.js'
import { normalize } from './spawn-result.js'
import { causedAbort, guardListeners } from './spawn-signal.js'
import { type SpawnLimits, SubagentBlockedError, type SubagentRunInput, type SpawnOptions } from './spawn-options.js'

/** One spawn's run, as it travels to a worker. */
export interface RemoteSpawn {
  /** The batch (`spawnParallel`'s `batchId`): with `index`, the job's id. */
  readonly batchId: string
  /** The spawn's position in its batch. */
  readonly index: number
  readonly taskId: string
  /** The whole prompt, rendered by the parent. */
  readonly prompt: string
  /** The isolated context the prompt was rendered from. */
  readonly context: SubagentContext
  /** The limits in force; the worker enforces `timeoutMs` on its run and `maxIterations` through `iteration()`. */
  readonly limits: Readonly<SpawnLimits & { timeoutMs: number }>
  /** The prompt's cache facts (see `PromptCacheInfo`). */
  readonly cache: { readonly sharedPrefix: string; readonly sharedPrefixTokens: number; readonly key: string }
}

/** Why a remote run did not give an answer. */
export type RemoteFailureReason = 'threw' | 'blocked' | 'invalid-result' | 'empty-result' | 'iteration-limit' | 'timeout' | 'aborted'

/** What a worker sends back: the answer read as text or messages (with usage and steps), or why there is none. */
export type RemoteAnswer =
  | {
      readonly kind: 'result'
      readonly value: string | readonly Message[] | { readonly content: string }
      /** Tokens the run reported in `usage`. */
      readonly usage?: number
      /** Steps the result reported (`steps`, `iterations`). */
      readonly steps?: number
      /** Calls of `iteration()`. */
      readonly iterations: number
    }
  | { readonly kind: 'failed'; readonly reason: RemoteFailureReason; readonly message: string; readonly iterations: number }

/**
 * Runs spawns' `run` elsewhere: `spawnParallel(configs, { executor })` hands it each
 * spawn's prompt once rendered, and filters and records what comes back. `signal`
 * aborts on the spawn's timeout and on the batch's signal: the executor then drops the
 * run if it has not started and aborts it if it has. Rejecting fails the spawn alone.
 */
export interface SpawnExecutor {
  execute(spawn: RemoteSpawn, signal: AbortSignal): Promise<RemoteAnswer>
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'string' ? error : describe(error))

/**
 * A worker's side: calls `run` with what it gets in process (taskId, prompt, context,
 * signal, limits, cache, iteration) under `limits.timeoutMs` and `limits.maxIterations`,
 * and reads its answer as `spawnSubagent` does. Never rejects: whatever `run` does
 * becomes a `RemoteAnswer`.
 */
export async function runRemoteSpawn(run: SpawnOptions['run'], spawn: RemoteSpawn, outer?: AbortSignal): Promise<RemoteAnswer> {
  const controller = causedAbort()
  const abort = controller.abort
  const onOuter = () => abort('aborted', outer!.reason)
  let steps = 0
  // JSON carries Infinity as null: read it back as Infinity (no limit).
  const limit = (value: number | null | undefined) => (value === null ? Infinity : value)
  const given = spawn.limits as { [K in keyof RemoteSpawn['limits']]: number | null | undefined }
  const limits = Object.freeze({
    ...(given.maxIterations !== undefined && { maxIterations: limit(given.maxIterations) }),
    ...(given.maxTokens !== undefined && { maxTokens: limit(given.maxTokens) }),
    timeoutMs: limit(given.timeoutMs) ?? Infinity,
  })
  const timeoutMs = limits.timeoutMs
  const timer =
    timeoutMs !== Infinity
      ? setTimeout(() => abort('timeout', new DOMException(`the subagent did not answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
      : undefined
  if (outer?.aborted) onOuter()
  else outer?.addEventListener('abort', onOuter, { once: true })
  const failed = (reason: RemoteFailureReason, message: string): RemoteAnswer => ({ kind: 'failed', reason, message, iterations: steps })
  try {
    const input: SubagentRunInput = Object.freeze({
      taskId: spawn.taskId,
      prompt: spawn.prompt,
      context: Object.freeze({ ...spawn.context }),
      signal: guardListeners(controller.signal),
      limits,
      cache: Object.freeze({ ...spawn.cache, responseStarted: () => {} }),
      iteration: () => {
        steps++
        if (limits.maxIterations !== undefined && steps > limits.maxIterations) {
          const error = new RangeError(`the subagent went past \`limits.maxIterations\` (${limits.maxIterations})`)
          abort('iteration-limit', error)
          throw error
        }
        return steps
      },
    })
    const answer = await raceCall(() => run(input), controller.signal)
    if ('aborted' in answer || controller.signal.aborted) {
      const reason = controller.signal.reason
      const cause = controller.cause()
      if (cause === 'timeout' || cause === 'iteration-limit') return failed(cause, errorMessage(reason))
      return failed('aborted', `aborted: ${errorMessage(reason)}`)
    }
    if ('error' in answer) return failed(answer.error instanceof SubagentBlockedError ? 'blocked' : 'threw', errorMessage(answer.error))
    let normalized
    try {
      normalized = normalize(answer.value)
    } catch (error) {
      return failed('invalid-result', `reading the result threw: ${errorMessage(error)}`)
    }
    if (!normalized.ok) return failed(normalized.reason, normalized.message)
    // Messages in any accepted format travel in the native one (plain JSON).
    const value = Array.isArray(normalized.value) ? toNativeMessages(normalized.value as AnyMessage[]) : normalized.value
    return {
      kind: 'result',
      value: value as string | Message[] | { content: string },
      ...(normalized.usage !== undefined && { usage: normalized.usage }),
      ...(normalized.steps !== undefined && { steps: normalized.steps }),
      iterations: steps,
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer)
    outer?.removeEventListener('abort', onOuter)
  }
}
