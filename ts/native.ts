// Token counting and extraction: the native calls, with results shaped for users and
// async forms that follow the conventions of `settle.ts`.
import * as native from '../index.js'
import { cleanMessage } from './clean-messages.js'
import { settle } from './settle.js'
import type { ExtractAsyncOptions, ExtractionResult, ExtractOptions, Message } from '../index.js'

export type {
  AiSdkMessage,
  AnthropicMessage,
  CountAsyncOptions,
  CountOptions,
  Encoding,
  ExtractAsyncOptions,
  ExtractionResult,
  ExtractOptions,
  Message,
  OpenAIMessage,
} from '../index.js'

export const countTokens = native.countTokens
export const countMessageTokens = native.countMessageTokens

export const countTokensAsync: typeof native.countTokensAsync = (text, options) =>
  settle(options, () => native.countTokensAsync(text, options))

export const countMessageTokensAsync: typeof native.countMessageTokensAsync = (messages, options) =>
  settle(options, () => native.countMessageTokensAsync(messages, options))

const REASONS = [undefined, 'irrelevant', 'sibling', 'budget', 'internal'] as const

/** Builds the result users see from the native columns (cheap to cross the boundary). */
function toResult(
  raw: native.NativeExtraction,
  fullContext: string | Message[],
  options: ExtractOptions | null | undefined,
): ExtractionResult {
  const count = raw.scores.length
  const segments: ExtractionResult['segments'] = new Array(count)
  const dropped: NonNullable<ExtractionResult['dropped']> = []
  for (let index = 0; index < count; index++) {
    const code = raw.dropped[index]!
    segments[index] = { index, score: raw.scores[index]!, tokens: raw.tokens[index]!, kept: code === 0 }
    const reason = REASONS[code]
    if (reason) dropped.push({ index, reason })
  }
  const result: ExtractionResult = {
    relevantContext: raw.relevantContext,
    keywords: raw.keywords,
    segments,
    metrics: {
      originalTokens: raw.originalTokens,
      extractedTokens: raw.extractedTokens,
      reductionRatio: raw.originalTokens === 0 ? 0 : 1 - raw.extractedTokens / raw.originalTokens,
      segmentsTotal: count,
      segmentsKept: count - dropped.length,
      durationMs: raw.durationMs,
    },
  }
  if (raw.relevantMessageIndices && Array.isArray(fullContext)) {
    result.relevantMessages = Array.from(raw.relevantMessageIndices, (i) => cleanMessage(fullContext[i]!))
  }
  if (options?.audit) result.dropped = dropped
  return result
}

/**
 * The part of `fullContext` (a string, or chat messages in any of the three formats)
 * that `task` needs, within `options.maxTokens` exact tokens, without what belongs to
 * `options.siblingTasks`. For messages, `relevantMessages` holds the input's own objects (a sanitized
 * copy of one that holds an internal marker or a thinking block).
 */
export function extractRelevantContext(
  fullContext: string | Message[],
  task: string,
  options?: ExtractOptions | null,
): ExtractionResult {
  return toResult(native.extractRelevantContext(fullContext, task, options), fullContext, options)
}

/** `extractRelevantContext` on the libuv thread pool; `options.signal` cancels it. */
export function extractRelevantContextAsync(
  fullContext: string | Message[],
  task: string,
  options?: ExtractAsyncOptions | null,
): Promise<ExtractionResult> {
  return settle(options, () => native.extractRelevantContextAsync(fullContext, task, options)).then((raw) =>
    toResult(raw, fullContext, options),
  )
}
