import { createRequire } from 'node:module'

import fc from 'fast-check'
import { get_encoding, type Tiktoken } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'

import {
  countMessageTokens,
  countMessageTokensAsync,
  countTokens,
  countTokensAsync,
  type Encoding,
  type Message,
} from '../dist/index.js'

// The official tiktoken (its Rust core compiled to WASM) as the oracle on the JS side:
// this also checks the UTF-16 to UTF-8 conversion at the boundary.
const oracles: Record<'o200k_base' | 'cl100k_base', Tiktoken> = {
  o200k_base: get_encoding('o200k_base'),
  cl100k_base: get_encoding('cl100k_base'),
}
afterAll(() => Object.values(oracles).forEach((e) => e.free()))

const exact = ['o200k_base', 'cl100k_base'] as const

describe('countTokens', () => {
  it('counts where JavaScript tokenizers go wrong (NEL, BOM) as tiktoken does', () => {
    expect(countTokens("\u0085'eelo", { encoding: 'cl100k_base' })).toBe(4)
    expect(countTokens('\uFEFFHello', { encoding: 'cl100k_base' })).toBe(2)
  })

  it('defaults to o200k_base and counts special tokens as plain text', () => {
    const text = 'Hello <|endoftext|> world'
    expect(countTokens(text)).toBe(oracles.o200k_base.encode_ordinary(text).length)
    expect(countTokens(text)).toBe(countTokens(text, { encoding: 'o200k_base' }))
    expect(countTokens(text, { encoding: 'cl100k_base' })).toBe(oracles.cl100k_base.encode_ordinary(text).length)
  })

  it('equals tiktoken on arbitrary Unicode text, lone surrogates included', () => {
    for (const encoding of exact) {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
          expect(countTokens(text, { encoding })).toBe(oracles[encoding].encode_ordinary(text).length)
        }),
        { numRuns: 2000 },
      )
    }
  })

  it('estimates ceil(code points / 4)', () => {
    expect(countTokens('', { encoding: 'estimate' })).toBe(0)
    expect(countTokens('abcde', { encoding: 'estimate' })).toBe(2)
    expect(countTokens('😀😀😀😀', { encoding: 'estimate' })).toBe(1)
  })

  it('refuses bad arguments with errors naming the function and the parameter', () => {
    expect(() => countTokens(42 as never)).toThrow(TypeError)
    expect(() => countTokens(42 as never)).toThrow('countTokens: `text` must be a string, got the number 42')
    expect(() => countTokens('x', { encoding: 'p50k_base' as Encoding })).toThrow(RangeError)
    expect(() => countTokens('x', { encoding: 'p50k_base' as Encoding })).toThrow('`options.encoding` must be one of')
    expect(() => countTokens('x', 'cl100k_base' as never)).toThrow('countTokens: `options` must be an object')
    expect(() => countTokens(undefined as never)).toThrow(TypeError)
  })
})

describe('countTokensAsync', () => {
  it('resolves to the same count as the sync form', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(100)
    for (const encoding of [...exact, 'estimate'] as const) {
      await expect(countTokensAsync(text, { encoding })).resolves.toBe(countTokens(text, { encoding }))
    }
  })

  it('rejects bad arguments instead of throwing', async () => {
    const p = countTokensAsync(null as never)
    await expect(p).rejects.toThrow(TypeError)
    await expect(countTokensAsync('x', { encoding: 'gpt2' as Encoding })).rejects.toThrow(RangeError)
    await expect(countTokensAsync('x', { signal: {} as AbortSignal })).rejects.toThrow('`options.signal` must be an AbortSignal')
  })

  it('rejects with the signal reason when aborted before or during the work', async () => {
    const before = new AbortController()
    before.abort()
    await expect(countTokensAsync('hello', { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' })

    const during = new AbortController()
    const work = countTokensAsync('word '.repeat(20_000_000), { signal: during.signal })
    setTimeout(() => during.abort(new Error('stop now')), 5)
    await expect(work).rejects.toThrow('stop now')
  })
})

const openai: Message[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: [{ type: 'text', text: 'Fix the failing test in src/app.ts' }] },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/app.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'export const answer = 42' },
  { role: 'assistant', name: 'fixer', content: 'Done.' },
]

const anthropic: Message[] = [
  { role: 'user', content: 'Fix the failing test in src/app.ts' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Read the file first.', signature: 'sig' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/app.ts' } },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'export const answer = 42' }] }],
  },
]

const aiSdk: Message[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Read the file first.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'src/app.ts' } },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'export const answer = 42' } }],
  },
]

describe('countMessageTokens', () => {
  const t = (s: string) => countTokens(s)
  const framing = (role: string) => 3 + t(role)

  it('counts OpenAI messages: framing, role, name, text, tool calls and tool results', () => {
    const expected =
      3 +
      framing('system') + t('You are a careful engineer.') +
      framing('user') + t('Fix the failing test in src/app.ts') +
      framing('assistant') + 3 + t('read_file') + t('{"path":"src/app.ts"}') +
      framing('tool') + t('export const answer = 42') +
      framing('assistant') + t('fixer') + 1 + t('Done.')
    expect(countMessageTokens(openai)).toBe(expected)
  })

  it('counts Anthropic blocks, serializing tool input as JSON', () => {
    const expected =
      3 +
      framing('user') + t('Fix the failing test in src/app.ts') +
      framing('assistant') + t('Read the file first.') + 3 + t('read_file') + t(JSON.stringify({ path: 'src/app.ts' })) +
      framing('user') + t('export const answer = 42')
    expect(countMessageTokens(anthropic)).toBe(expected)
  })

  it('counts Vercel AI SDK parts, v5 output and v4 args/result alike', () => {
    const expected =
      3 +
      framing('system') + t('You are a careful engineer.') +
      framing('assistant') + t('Read the file first.') + 3 + t('read_file') + t(JSON.stringify({ path: 'src/app.ts' })) +
      framing('tool') + t('export const answer = 42')
    expect(countMessageTokens(aiSdk)).toBe(expected)
    const v4: Message[] = [
      aiSdk[0]!,
      { role: 'assistant', content: [{ type: 'reasoning', text: 'Read the file first.' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', args: { path: 'src/app.ts' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', result: 'export const answer = 42' }] },
    ]
    expect(countMessageTokens(v4)).toBe(expected)
  })

  it('counts nothing for an empty list and nothing for images', () => {
    expect(countMessageTokens([])).toBe(0)
    const withImage: Message[] = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:...' } }] }]
    expect(countMessageTokens(withImage)).toBe(3 + framing('user'))
  })

  it('never mutates its input (frozen input works; nothing changes)', () => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === 'object') {
        Object.values(o).forEach(deepFreeze)
        Object.freeze(o)
      }
      return o
    }
    const input = deepFreeze(structuredClone([...openai, ...anthropic, ...aiSdk]))
    const before = JSON.stringify(input)
    expect(countMessageTokens(input, { encoding: 'cl100k_base' })).toBeGreaterThan(0)
    expect(JSON.stringify(input)).toBe(before)
  })

  it('refuses a message without a role, a non-array and unserializable tool input, naming where', () => {
    expect(() => countMessageTokens([{ content: 'hi' } as never])).toThrow('countMessageTokens: `messages[0].role` must be a string, got undefined')
    expect(() => countMessageTokens('hi' as never)).toThrow('countMessageTokens: `messages` must be an array of messages, got a string')
    expect(() => countMessageTokens([openai[0]!, 7 as never])).toThrow('`messages[1]` must be a message object, got the number 7')
    expect(() => countMessageTokens([{ role: 'user', content: 5 } as never])).toThrow('`messages[0].content` must be a string, an array of parts or null')
    const cyclic: Record<string, unknown> = { path: 'a.ts' }
    cyclic.self = cyclic
    const bad: Message[] = [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read', input: cyclic }] }]
    expect(() => countMessageTokens(bad)).toThrow(TypeError)
    expect(() => countMessageTokens(bad)).toThrow('`messages[0].content[0].input` must be JSON-serializable')
  })

  it('ignores cycles outside the fields it reads', () => {
    const message: Record<string, unknown> = { role: 'user', content: 'hi' }
    message.parent = message
    expect(countMessageTokens([message as never])).toBe(3 + framing('user') + t('hi'))
  })

  it('has an async form that agrees and reads its input before returning', async () => {
    const all = [...openai, ...anthropic, ...aiSdk]
    await expect(countMessageTokensAsync(all)).resolves.toBe(countMessageTokens(all))
    await expect(countMessageTokensAsync([{} as never])).rejects.toThrow(TypeError)
  })
})

describe('the package', () => {
  it('loads with require as well as import', () => {
    const require = createRequire(import.meta.url)
    const cjs = require('../dist/index.js') as typeof import('../dist/index.js')
    expect(cjs.countTokens('hello world')).toBe(countTokens('hello world'))
  })
})
