// `filterSubagentResult` and its async form (see `settle.ts` for the conventions).
import * as native from '../index.js'
import { settle } from './settle.js'

export type { Citation, FilterAsyncOptions, FilteredResult, FilterMetrics, FilterOptions } from '../index.js'

export const filterSubagentResult = native.filterSubagentResult

export const filterSubagentResultAsync: typeof native.filterSubagentResultAsync = (result, originalTask, options) =>
  settle(options, () => native.filterSubagentResultAsync(result, originalTask, options))
