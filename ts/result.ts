// The result that flows back to the parent.
//
// TEMPORARY FALLBACK: `filterSubagentResult` (DESIGN.md, issue 5) is being built on main.
// Until it lands here, `filterResult` only sanitizes the result (default markers) and
// truncates it to `maxTokens` exact tokens at a line or word end; it keeps no citations
// and does not rank by relevance. Replace with the real call after merging main.
import * as native from '../index.js'
import type { Encoding } from '../index.js'
import { type AnyMessage, toNativeMessages } from './messages.js'
import { sanitize } from './sanitize.js'

export interface ResultCitation {
  marker: string
  target?: string
}

export interface FilteredResultLike {
  content: string
  citations: ResultCitation[]
  metrics: {
    originalTokens: number
    filteredTokens: number
    reductionRatio: number
    segmentsKept: number
    segmentsDropped: number
    markersRemoved: number
  }
}

export interface FilterResultOptions {
  maxTokens?: number
  encoding?: Encoding
  minRelevance?: number
  keepCitations?: boolean
}

function text(result: string | readonly AnyMessage[] | { content: string }): string {
  if (typeof result === 'string') return result
  if (!Array.isArray(result)) return (result as { content: string }).content
  const parts: string[] = []
  for (const m of toNativeMessages(result) as unknown as Record<string, unknown>[]) {
    const c = m.content
    if (typeof c === 'string') parts.push(c)
    else if (Array.isArray(c)) for (const p of c) if (p && typeof p === 'object' && p.type === 'text' && typeof p.text === 'string') parts.push(p.text)
  }
  return parts.join('\n\n')
}

export function filterResult(
  result: string | readonly AnyMessage[] | { content: string },
  _originalTask: string,
  options: FilterResultOptions = {},
): FilteredResultLike {
  const enc = options.encoding ? { encoding: options.encoding } : undefined
  const count = (t: string) => native.countTokens(t, enc)
  const raw = text(result)
  const originalTokens = count(raw)
  const clean = sanitize(raw)
  let content = clean.text.trim()
  const max = options.maxTokens ?? Infinity
  if (count(content) > max) {
    // The longest prefix that fits, found by halving, then cut back to a line or word end.
    let lo = 0
    let hi = content.length
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (count(content.slice(0, mid)) <= max) lo = mid
      else hi = mid - 1
    }
    const prefix = content.slice(0, lo)
    const cut = Math.max(prefix.lastIndexOf('\n'), prefix.lastIndexOf(' '))
    content = (cut > lo / 2 ? prefix.slice(0, cut) : prefix).trimEnd()
  }
  const filteredTokens = count(content)
  return {
    content,
    citations: [],
    metrics: {
      originalTokens,
      filteredTokens,
      reductionRatio: originalTokens === 0 ? 0 : 1 - filteredTokens / originalTokens,
      segmentsKept: content ? 1 : 0,
      segmentsDropped: 0,
      markersRemoved: clean.removed,
    },
  }
}
