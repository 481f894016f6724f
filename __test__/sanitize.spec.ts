import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { createIsolatedContext, renderPrompt, sanitize, sanitizeAsync } from '../dist/index.js'
import { closed, evasions, innocent } from './fixtures/evasions.js'

describe('sanitize: hand-written evasions', () => {
  it('has at least 60 of them', () => expect(evasions.length).toBeGreaterThanOrEqual(60))

  it.each(evasions)('catches %s', (_, text) => {
    const once = sanitize(text)
    expect(once.text).not.toContain('SECRET')
    expect(once.removed).toBeGreaterThan(0)
    expect(sanitize(once.text)).toEqual({ text: once.text, removed: 0 })
  })
})

describe('sanitize: innocent text', () => {
  it.each(innocent)('leaves %s alone', (_, text) => {
    expect(sanitize(text)).toEqual({ text, removed: 0 })
  })
})

describe('sanitize: disguised closers', () => {
  it.each(closed)('closes %s and keeps what follows', (_, text, expected) => {
    expect(sanitize(text).text).toBe(expected)
    expect(sanitize(expected)).toEqual({ text: expected, removed: 0 })
  })
})

describe('createIsolatedContext + renderPrompt: nothing marked leaks, innocent text is kept', () => {
  it.each(evasions)('%s', (_, text) => {
    const r = createIsolatedContext({
      task: 'Fix the login endpoint',
      context: { relevantContext: `login notes\n\n${text}` },
      constraints: [text],
      clarifications: [`login: ${text}`],
      files: { 'notes.md': text },
    })
    const prompt = renderPrompt(r.isolatedContext)
    expect(prompt).toContain('Fix the login endpoint')
    expect(prompt).not.toContain('SECRET')
    expect(JSON.stringify(r)).not.toContain('SECRET')
    expect(r.metrics.markersRemoved).toBeGreaterThan(0)
  })

  it.each(innocent)('%s', (_, text) => {
    const r = createIsolatedContext({ task: 'Fix the login endpoint', files: { 'notes.md': text } })
    expect(r.isolatedContext.files['notes.md']).toBe(text)
    expect(renderPrompt(r.isolatedContext)).toContain(text)
    expect(r.metrics.markersRemoved).toBe(0)
  })
})

describe('sanitize: rules', () => {
  it('drops a bracket marker to the end of its paragraph and keeps text before it', () => {
    expect(sanitize('Plan.\n\nKeep this. [INTERNAL] not this\nnor this\n\nNext.').text).toBe(
      'Plan.\n\nKeep this. \n\nNext.',
    )
  })

  it('drops a pair as a block, matching nested pairs of one name by depth', () => {
    expect(sanitize('a [PRIVATE]1 [PRIVATE]2[/PRIVATE] 3[/PRIVATE] b').text).toBe('a  b')
  })

  it('fails closed on an unclosed or self-closing tag', () => {
    expect(sanitize('answer <scratchpad> notes\n\nmore').text).toBe('answer ')
    expect(sanitize('answer <internal/> rest').text).toBe('answer ')
  })

  it('takes user rules that drop or strip, and refuses bad ones', () => {
    const markers = [{ name: 'DRAFT' }, { name: 'note', form: 'tag', action: 'strip' }] as const
    expect(sanitize('a [DRAFT] b\n\nc <note>kept</note>', { markers: [...markers] }).text).toBe('a \n\nc kept')
    expect(() => sanitize('x', { markers: [{ name: '' }] })).toThrow(RangeError)
    expect(() => sanitize('x', { markers: [{ name: 'a', action: 'hide' as never }] })).toThrow(
      /options\.markers\[0\]\.action/,
    )
    expect(() => sanitize(42 as never)).toThrow(TypeError)
  })

  it('has an async form that honours an AbortSignal', async () => {
    await expect(sanitizeAsync('x [INTERNAL] y')).resolves.toEqual({ text: 'x ', removed: 1 })
    const controller = new AbortController()
    controller.abort()
    await expect(sanitizeAsync('x', { signal: controller.signal })).rejects.toThrow(/abort/i)
  })
})

// Random text with markers inserted in random disguises: nothing they mark survives,
// and a second pass changes nothing.
const NAMES: [string, 'bracket' | 'tag'][] = [
  ['INTERNAL', 'bracket'],
  ['PRIVATE', 'bracket'],
  ['CONFIDENTIAL', 'bracket'],
  ['internal', 'tag'],
  ['system-reminder', 'tag'],
  ['thinking', 'tag'],
  ['scratchpad', 'tag'],
]
const letterDisguises = [
  (c: string) => c,
  (c: string) => c.toUpperCase(),
  (c: string) => String.fromCodePoint(c.toUpperCase().codePointAt(0)! + 0xfee0),
  (c: string) => `${c}\u200b`,
  (c: string) => `\u2066${c}\u2069`,
  (c: string) => `&#${c.codePointAt(0)};`,
  (c: string) => `${c}\u0301`,
  (c: string) => ` ${c}`,
]
const bracketDisguises: Record<string, string[]> = {
  '[': ['[', '\uff3b', '&#91;', '\\[', '&lsqb;'],
  ']': [']', '\uff3d', '&#93;', '\\]', '&rsqb;'],
  '<': ['<', '\uff1c', '&lt;', '\\<', '\u2039'],
  '>': ['>', '\uff1e', '&gt;', '\\>', '\u203a'],
}

const marker = fc
  .record({
    name: fc.constantFrom(...NAMES),
    letters: fc.array(fc.nat(letterDisguises.length - 1), { minLength: 16, maxLength: 16 }),
    bracket: fc.nat(4),
    shape: fc.constantFrom('pair', 'open', 'self'),
  })
  .map(({ name: [name, form], letters, bracket, shape }) => {
    const [open, close] = form === 'bracket' ? ['[', ']'] : ['<', '>']
    const word = [...name].map((c, i) => (c === '-' ? c : letterDisguises[letters[i]!]!(c.toLowerCase()))).join('')
    const o = bracketDisguises[open]![bracket]!
    const c = bracketDisguises[close]![bracket]!
    if (shape === 'pair') return `${o}${word}${c} SECRET ${o}/${word}${c}`
    if (shape === 'self' && form === 'tag') return `${o}${word}/${c} SECRET`
    return `${o}${word}${c} SECRET`
  })

describe('sanitize: property', () => {
  it('removes every disguised marker with what it marks, idempotently (10,000 cases)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 20 }), marker), { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.map(([filler, m]) => filler.replaceAll('SECRET', '') + m).join('')
        const once = sanitize(text)
        expect(once.text).not.toContain('SECRET')
        expect(sanitize(once.text)).toEqual({ text: once.text, removed: 0 })
      }),
      { numRuns: 10_000 },
    )
  })
})
