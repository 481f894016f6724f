// What a subagent's `run` answered, read as text, usage and steps.

import { type AnyMessage, toNativeMessages } from './messages.js'
import { describe } from './args.js'

export type Normalized =
  | { ok: true; value: string | AnyMessage[] | { content: string }; usage?: number; steps?: number }
  | { ok: false; reason: 'invalid-result' | 'empty-result'; message: string }

/** Total tokens from a `usage` object (AI SDK v5+: input/output/totalTokens; v4 and OpenAI: prompt/completion/total). */
export function usageTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined
  const u = usage as Record<string, unknown>
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined)
  const total = n(u.totalTokens) ?? n(u.total_tokens)
  if (total !== undefined) return total
  const input = n(u.inputTokens) ?? n(u.promptTokens) ?? n(u.prompt_tokens) ?? n(u.input_tokens)
  const output = n(u.outputTokens) ?? n(u.completionTokens) ?? n(u.completion_tokens) ?? n(u.output_tokens)
  return input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined
}

export function normalize(value: unknown): Normalized {
  if (typeof value === 'string') {
    return value.trim() === '' ? { ok: false, reason: 'empty-result', message: 'the subagent returned an empty result' } : { ok: true, value }
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, reason: 'empty-result', message: 'the subagent returned no messages' }
    return { ok: true, value: value as AnyMessage[] }
  }
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>
    const usage = usageTokens(o.usage)
    const steps = Array.isArray(o.steps) ? o.steps.length : typeof o.iterations === 'number' ? o.iterations : undefined
    const text = typeof o.content === 'string' ? o.content : typeof o.text === 'string' ? o.text : undefined
    if (text === undefined) {
      return { ok: false, reason: 'invalid-result', message: 'the subagent returned an object without `content` or `text` text' }
    }
    if (text.trim() === '') return { ok: false, reason: 'empty-result', message: 'the subagent returned an empty result' }
    return { ok: true, value: { content: text }, ...(usage !== undefined && { usage }), ...(steps !== undefined && { steps }) }
  }
  return { ok: false, reason: 'invalid-result', message: `the subagent returned ${describe(value)}, not text, messages or an object with \`content\`` }
}

/** The result's text, for the ledger's summary. */
export function resultText(value: string | AnyMessage[] | { content: string }): string {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return value.content
  const parts: string[] = []
  for (const m of toNativeMessages(value) as unknown as Record<string, unknown>[]) {
    if (m.role !== 'assistant') continue
    const c = m.content
    if (typeof c === 'string') parts.push(c)
    else if (Array.isArray(c)) for (const p of c) if (p && typeof p === 'object' && typeof p.text === 'string' && p.type === 'text') parts.push(p.text)
  }
  return parts.join('\n\n')
}

export const SUMMARY_FORM = /^\s*(?:#+\s*)?[*_]*\s*summary\s*[*_]*\s*:/im

export function headlineSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 600 ? `${flat.slice(0, 599).trimEnd()}…` : flat
}
