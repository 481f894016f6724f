// `sanitize` and its async form: the native call finds what to remove and returns
// the ranges to keep; the result is built here by slicing the caller's own string.
import * as native from '../index.js'
import type { Sanitized, SanitizeAsyncOptions, SanitizeOptions } from '../index.js'
import { settle } from './settle.js'

export type { MarkerRule, Sanitized, SanitizeAsyncOptions, SanitizeOptions } from '../index.js'

function toSanitized(text: string, { kept, removed }: native.NativeSanitized): Sanitized {
  if (kept.length === 2 && kept[0] === 0 && kept[1] === text.length) return { text, removed }
  let out = ''
  for (let i = 0; i < kept.length; i += 2) out += text.slice(kept[i], kept[i + 1])
  return { text: out, removed }
}

/**
 * `text` without internal markers and what they mark: the defaults (`[INTERNAL]`,
 * `[PRIVATE]`, `[CONFIDENTIAL]`, `<internal>`, `<system-reminder>`, `<thinking>`,
 * `<scratchpad>`) and `options.markers`, seen through case, spacing, compatibility
 * forms, invisible characters, markdown escapes and HTML entities. Idempotent.
 */
export function sanitize(text: string, options?: SanitizeOptions | null): Sanitized {
  return toSanitized(text, native.sanitize(text, options))
}

/** `sanitize` on the libuv thread pool; `options.signal` cancels it. */
export function sanitizeAsync(text: string, options?: SanitizeAsyncOptions | null): Promise<Sanitized> {
  return settle(options, () => native.sanitizeAsync(text, options).then((raw) => toSanitized(text, raw)))
}
