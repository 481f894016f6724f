// Ranking documents by relevance to a query: the core's engine (the terms and BM25 of
// extraction) over whole documents, as one call or as an incremental index.
import * as native from '../index.js'

export type { RankAsyncOptions, RankOptions, RelevanceHit, RelevanceSearchOptions } from '../index.js'

export const rankByRelevance = native.rankByRelevance
export const RelevanceIndex = native.RelevanceIndex
export type RelevanceIndex = native.RelevanceIndex

/** `rankByRelevance` on the libuv thread pool; bad arguments and an aborted `signal` reject. */
export const rankByRelevanceAsync: typeof native.rankByRelevanceAsync = (query, documents, options) => {
  const signal = options?.signal
  if (signal?.aborted) return Promise.reject(signal.reason)
  let promise: Promise<number[]>
  try {
    promise = native.rankByRelevanceAsync(query, documents, options)
  } catch (error) {
    return Promise.reject(error)
  }
  return promise.catch((error: unknown) => {
    throw signal?.aborted ? signal.reason : error
  })
}
