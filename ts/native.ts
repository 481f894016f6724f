// The native API, with the promise conventions users expect of async functions:
// bad arguments reject instead of throwing synchronously, and an aborted call
// rejects with its signal's reason (an `AbortError` by default), as Node's own
// APIs do.
import * as native from '../index.js'

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
export const extractRelevantContext = native.extractRelevantContext

/** Runs a native async call whose last argument may hold a `signal`. */
function settle<T>(options: { signal?: AbortSignal } | null | undefined, start: () => Promise<T>): Promise<T> {
  const signal = options?.signal
  if (signal?.aborted) return Promise.reject(signal.reason)
  let promise: Promise<T>
  try {
    promise = start()
  } catch (error) {
    return Promise.reject(error)
  }
  return promise.catch((error: unknown) => {
    throw signal?.aborted ? signal.reason : error
  })
}

export const countTokensAsync: typeof native.countTokensAsync = (text, options) =>
  settle(options, () => native.countTokensAsync(text, options))

export const countMessageTokensAsync: typeof native.countMessageTokensAsync = (messages, options) =>
  settle(options, () => native.countMessageTokensAsync(messages, options))

export const extractRelevantContextAsync: typeof native.extractRelevantContextAsync = (fullContext, task, options) =>
  settle(options, () => native.extractRelevantContextAsync(fullContext, task, options))
