// Token counting and extraction: the native calls, with results shaped for users and
// async forms that follow the conventions of `settle.ts`.
import * as native from '../index.js'
import { settle } from './settle.js'
import { type AnyMessage, cleanAnyMessage, toNativeMessages } from './messages.js'
import type { CountAsyncOptions, CountOptions, ExtractAsyncOptions, ExtractOptions, Message } from '../index.js'

export type {
  AiSdkMessage,
  AnthropicMessage,
  CountAsyncOptions,
  CountOptions,
  Encoding,
  ExtractAsyncOptions,
  ExtractOptions,
  Message,
  OpenAIMessage,
} from '../index.js'

export const countTokens = native.countTokens
/**
 * Tokens of a list of chat messages (OpenAI Chat, Anthropic Messages, Vercel AI SDK or
 * LangChain.js messages): per message 3 framing tokens plus its role, `name` (+1), text,
 * thinking, tool results, and each tool call's name and JSON arguments (+3); plus 3 once
 * for the reply. Images and files count 0.
 */
export function countMessageTokens(messages: readonly AnyMessage[], options?: CountOptions | null): number {
  return native.countMessageTokens(toNativeMessages(messages), options)
}

export const countTokensAsync: typeof native.countTokensAsync = (text, options) =>
  settle(options, () => native.countTokensAsync(text, options))

/** `countMessageTokens` on the libuv thread pool (the messages are read on the calling thread). */
export function countMessageTokensAsync(messages: readonly AnyMessage[], options?: CountAsyncOptions | null): Promise<number> {
  return settle(options, () => native.countMessageTokensAsync(toNativeMessages(messages), options))
}

/**
 * What extraction returns (see `index.d.ts`); for message input, `relevantMessages` holds
 * the caller's own message objects, of the caller's own type (LangChain messages included).
 */
export type ExtractionResult<M = Message> = Omit<native.ExtractionResult, 'relevantMessages'> & { relevantMessages?: M[] }

const toNative = (c: string | readonly AnyMessage[]): string | Message[] => (Array.isArray(c) ? toNativeMessages(c) : (c as string))

const REASONS = [undefined, 'irrelevant', 'sibling', 'budget', 'internal'] as const

/** Builds the result users see from the native columns (cheap to cross the boundary). */
function toResult<M>(
  raw: native.NativeExtraction,
  fullContext: string | readonly M[],
  options: ExtractOptions | null | undefined,
): ExtractionResult<M> {
  const count = raw.scores.length
  const segments: native.ExtractionResult['segments'] = new Array(count)
  // `dropped` only when asked for: on a 4 M-token thread it is some 300,000 objects, and
  // objects that outlive V8's young generation cost far more each than ones that do not.
  const dropped: native.ExtractionResult['dropped'] = options?.audit ? [] : undefined
  let kept = 0
  for (let index = 0; index < count; index++) {
    const code = raw.dropped[index]!
    segments[index] = { index, score: raw.scores[index]!, tokens: raw.tokens[index]!, kept: code === 0 }
    if (code === 0) kept++
    else dropped?.push({ index, reason: REASONS[code]! })
  }
  const result: ExtractionResult<M> = {
    relevantContext: raw.relevantContext,
    keywords: raw.keywords,
    segments,
    metrics: {
      originalTokens: raw.originalTokens,
      extractedTokens: raw.extractedTokens,
      reductionRatio: raw.originalTokens === 0 ? 0 : 1 - raw.extractedTokens / raw.originalTokens,
      segmentsTotal: count,
      segmentsKept: kept,
      durationMs: raw.durationMs,
    },
  }
  if (raw.relevantMessageIndices && Array.isArray(fullContext)) {
    // The caller's own objects, LangChain messages included (conversion is one for one); one
    // that holds an internal marker or a thinking block comes back as a sanitized copy.
    // An item that is only reasoning is left out.
    const messages: M[] = []
    for (const i of raw.relevantMessageIndices) {
      const m = cleanAnyMessage(fullContext[i]!)
      if (m !== undefined) messages.push(m)
    }
    result.relevantMessages = messages
  }
  if (dropped) result.dropped = dropped
  return result
}

/**
 * The part of `fullContext` (a string, or chat messages in any of the three formats)
 * that `task` needs, within `options.maxTokens` exact tokens, without what belongs to
 * `options.siblingTasks`. For messages, `relevantMessages` holds the input's own objects (a sanitized
 * copy of one that holds an internal marker or a thinking block).
 */
export function extractRelevantContext<M extends AnyMessage = Message>(
  fullContext: string | readonly M[],
  task: string,
  options?: ExtractOptions | null,
): ExtractionResult<M> {
  return toResult(native.extractRelevantContext(toNative(fullContext), task, options), fullContext, options)
}

/** `extractRelevantContext` on the libuv thread pool; `options.signal` cancels it. */
export function extractRelevantContextAsync<M extends AnyMessage = Message>(
  fullContext: string | readonly M[],
  task: string,
  options?: ExtractAsyncOptions | null,
): Promise<ExtractionResult<M>> {
  return settle(options, () => native.extractRelevantContextAsync(toNative(fullContext), task, options)).then((raw) =>
    toResult(raw, fullContext, options),
  )
}
