// The messages `extractRelevantContext` returns are the caller's own objects; one that
// holds an internal marker or a thinking block comes back as a sanitized copy instead
// (same shape, the caller's object untouched), so that nothing marked ever passes; an
// item that is only reasoning is left out.
import type { Message } from '../index.js'
import { sanitize } from './sanitize.js'

const THINKING = new Set(['thinking', 'redacted_thinking', 'reasoning'])

type Part = Record<string, unknown> & { type?: unknown }

/** `text` sanitized, or `undefined` when it has nothing to remove. */
function cleaned(text: string): string | undefined {
  const s = sanitize(text)
  return s.removed > 0 ? s.text : undefined
}

/** A value with its strings sanitized, deep: the same value when nothing changed. */
function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return cleaned(value) ?? value
  if (Array.isArray(value)) {
    const out = value.map(cleanValue)
    return out.every((v, i) => v === value[i]) ? value : out
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value)
    const out = entries.map(([k, v]) => [k, cleanValue(v)] as const)
    return out.every(([, v], i) => v === entries[i]![1]) ? value : Object.fromEntries(out)
  }
  return value
}

/** Gemini parts whose value is a tool's output. */
const GEMINI_OUTPUTS = ['functionResponse', 'toolResponse', 'codeExecutionResult'] as const

/** Anthropic blocks whose text lies in nested fields (`source.data`, `content[].text`). */
const DEEP_BLOCKS = new Set(['document', 'search_result'])

/** Bedrock Converse blocks (no `type`, one member) whose text lies in nested fields. */
const BEDROCK_DEEP = ['toolResult', 'guardContent', 'citationsContent', 'document'] as const

/** Where a part says what kind it is: `type`, or Pydantic AI's `part_kind`, LlamaIndex's `block_type`. */
const KIND_KEYS = ['type', 'part_kind', 'block_type'] as const

function cleanPart(part: Part): Part | null {
  // Gemini marks a thought summary with `thought: true`; Bedrock holds it in `reasoningContent`.
  if (KIND_KEYS.some((key) => THINKING.has(part[key] as string)) || part.thought === true) return null
  if (part.type === undefined && part.reasoningContent !== undefined) return null
  if (part.type === undefined && BEDROCK_DEEP.some((key) => part[key] !== undefined)) return cleanValue(part) as Part
  for (const key of GEMINI_OUTPUTS) {
    if (part[key] !== undefined) {
      const value = cleanValue(part[key])
      return value === part[key] ? part : { ...part, [key]: value }
    }
  }
  if (typeof part.text === 'string') {
    const text = cleaned(part.text)
    return text === undefined ? part : { ...part, text }
  }
  // Anthropic documents, search results and server tools' results: every string in them.
  if (DEEP_BLOCKS.has(part.type as string) || (typeof part.type === 'string' && part.type.endsWith('_tool_result'))) {
    return cleanValue(part) as Part
  }
  // An Anthropic tool result's content, and the content of the parts read by their fields
  // (Pydantic AI's, LlamaIndex's).
  if (typeof part.content === 'string') {
    const content = cleaned(part.content)
    return content === undefined ? part : { ...part, content }
  }
  if (part.type === 'tool_result') {
    if (Array.isArray(part.content)) {
      const content = cleanParts(part.content as Part[])
      return content === part.content ? part : { ...part, content }
    }
  }
  return part
}

/** The parts cleaned: the same array when nothing changed. */
function cleanParts(parts: Part[]): Part[] {
  const out = parts.map((p) => (typeof p === 'object' && p !== null ? cleanPart(p) : p))
  return out.every((p, i) => p === parts[i]) ? parts : (out.filter((p) => p !== null) as Part[])
}

/** Items that are all reasoning: OpenAI Responses / Agents `reasoning`, an Agents run item holding one. */
const REASONING_ITEMS = new Set(['reasoning', 'reasoning_item'])

/**
 * `message`, or a copy without its marked content and thinking blocks (in `content` or, for
 * AI SDK UI messages, Gemini `Content` and Pydantic AI, `parts`; LlamaIndex's `blocks`; a Responses or Agents tool output's
 * `output` text; Bedrock's `reasoningContent`, Cohere's `tool_plan`);
 * `undefined` for an item that is nothing but reasoning.
 */
export function cleanMessage<M extends Message>(message: M): M | undefined {
  const m = message as unknown as Record<string, unknown>
  if (!('role' in m) && REASONING_ITEMS.has(m.type as string)) return undefined
  let out = message
  // Cohere's `tool_plan` is the assistant's reasoning.
  if (typeof m.tool_plan === 'string') {
    const { tool_plan: _, ...rest } = m
    out = rest as unknown as M
  }
  for (const key of ['content', 'parts', 'output', 'blocks'] as const) {
    const value = m[key]
    if (typeof value === 'string' && key !== 'parts') {
      const text = cleaned(value)
      if (text !== undefined) out = { ...out, [key]: text }
    } else if (Array.isArray(value)) {
      const parts = cleanParts(value as Part[])
      if (parts !== value) out = { ...out, [key]: parts }
    }
  }
  return out
}
