// `filterSubagentResult` and its async form (see `settle.ts` for the conventions). Message
// results may be LangChain.js messages too: they are converted to the OpenAI shape first.
import * as native from '../index.js'
import type { FilterAsyncOptions, FilteredResult, FilterOptions } from '../index.js'
import { type AnyMessage, toNativeMessages } from './messages.js'
import { settle } from './settle.js'

export type { Citation, FilterAsyncOptions, FilteredResult, FilterMetrics, FilterOptions } from '../index.js'

/** What a subagent may return: its text, its messages (any accepted format), or an object with `content` text. */
export type SubagentResultInput = string | readonly AnyMessage[] | { content: string; [key: string]: unknown }

const toNative = (result: SubagentResultInput) =>
  (Array.isArray(result) ? toNativeMessages(result) : result) as Parameters<typeof native.filterSubagentResult>[0]

/**
 * What a subagent returned, reduced to what serves `originalTask`: markers, forged
 * system markup and debug lines removed, the relevant parts kept with their headings,
 * code and citations (every kept marker with its definition), within
 * `options.maxTokens` exact tokens. A result that already fits comes back as it is.
 */
export function filterSubagentResult(result: SubagentResultInput, originalTask: string, options?: FilterOptions | null): FilteredResult {
  return native.filterSubagentResult(toNative(result), originalTask, options)
}

/** `filterSubagentResult` on the libuv thread pool; `options.signal` cancels it. */
export function filterSubagentResultAsync(result: SubagentResultInput, originalTask: string, options?: FilterAsyncOptions | null): Promise<FilteredResult> {
  return settle(options, () => native.filterSubagentResultAsync(toNative(result), originalTask, options))
}
