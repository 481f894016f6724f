// The messages `extractRelevantContext` returns are the caller's own objects; one that
// holds an internal marker or a thinking block comes back as a sanitized copy instead
// (same shape, the caller's object untouched), so that nothing marked ever passes.
import type { Message } from '../index.js'
import { sanitize } from './sanitize.js'

const THINKING = new Set(['thinking', 'redacted_thinking', 'reasoning'])

type Part = Record<string, unknown> & { type?: unknown }

/** `text` sanitized, or `undefined` when it has nothing to remove. */
function cleaned(text: string): string | undefined {
  const s = sanitize(text)
  return s.removed > 0 ? s.text : undefined
}

function cleanPart(part: Part): Part | null {
  if (THINKING.has(part.type as string)) return null
  if (typeof part.text === 'string') {
    const text = cleaned(part.text)
    return text === undefined ? part : { ...part, text }
  }
  if (part.type === 'tool_result') {
    if (typeof part.content === 'string') {
      const content = cleaned(part.content)
      return content === undefined ? part : { ...part, content }
    }
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

/** `message`, or a copy without its marked content and thinking blocks. */
export function cleanMessage<M extends Message>(message: M): M {
  const content = (message as { content?: unknown }).content
  if (typeof content === 'string') {
    const text = cleaned(content)
    return text === undefined ? message : { ...message, content: text }
  }
  if (Array.isArray(content)) {
    const parts = cleanParts(content as Part[])
    return parts === content ? message : ({ ...message, content: parts } as M)
  }
  return message
}
