// Hostile JavaScript input (issue 8): every case gets a correct answer or a clear
// TypeError/RangeError naming the function and the parameter, never a crash, and the
// input is the same afterwards. Answers are checked against counts computed another
// way (tiktoken, arithmetic), not only for "no throw".
import fc from 'fast-check'
import { get_encoding, type Tiktoken } from 'tiktoken'
import { afterAll, describe, expect, it } from 'vitest'

import {
  countMessageTokens,
  countMessageTokensAsync,
  countTokens,
  countTokensAsync,
  createIsolatedContext,
  extractRelevantContext,
  extractRelevantContextAsync,
  filterSubagentResult,
  filterSubagentResultAsync,
  rankByRelevance,
  RelevanceIndex,
  renderPrompt,
  sanitize,
  sanitizeAsync,
  type Message,
  type OpenAIMessage,
} from '../dist/index.js'

const o200k: Tiktoken = get_encoding('o200k_base')
const cl100k: Tiktoken = get_encoding('cl100k_base')
afterAll(() => {
  o200k.free()
  cl100k.free()
})
const oracle = (text: string) => o200k.encode_ordinary(text).length

/** Runs `f` and checks that `inputs` are deeply the same afterwards. */
function unchanged<T>(inputs: unknown, f: () => T): T {
  const before = structuredClone(inputs)
  const result = f()
  expect(inputs).toStrictEqual(before)
  return result
}

function deepFreeze<T>(value: T, seal = false): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !Object.isSealed(value)) {
    ;(seal ? Object.seal : Object.freeze)(value)
    for (const v of Object.values(value)) deepFreeze(v, seal)
  }
  return value
}

/** The pieces of `output` between `elision`s, each a piece of `input`, in order. */
function isPiecesOf(output: string, input: string, elision = '\n[…]\n'): boolean {
  let at = 0
  for (const piece of output.split(elision)) {
    const i = input.indexOf(piece, at)
    if (i < 0) return false
    at = i + piece.length
  }
  return true
}

const MB = 1024 * 1024

/** `text` with lone surrogates replaced by U+FFFD (`String.prototype.toWellFormed`, Node 20+). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

describe('huge input', () => {
  // A line that tokenizes on its own (it ends in punctuation and a newline), so a text
  // of N copies has exactly N times its tokens: checked on a small N with tiktoken.
  const line = 'The rate limiter keeps idle clients forever.\n'

  it('200 MB string: exact count, sanitize drops only the marked paragraph', () => {
    const perLine = oracle(line)
    expect(oracle(line.repeat(1000))).toBe(1000 * perLine)
    const copies = Math.floor((200 * MB) / line.length)
    const big = line.repeat(copies)
    expect(big.length).toBeGreaterThanOrEqual(200 * MB - line.length)
    expect(countTokens(big)).toBe(copies * perLine)
    expect(countTokens(big, { encoding: 'estimate' })).toBe(Math.ceil(big.length / 4))

    const marked = `${big}\n[INTERNAL] the staging password is hunter2\n\nPublic tail.`
    const s = sanitize(marked)
    expect(s.removed).toBe(1)
    expect(s.text.length).toBe(big.length + '\n\n\nPublic tail.'.length)
    expect(s.text.endsWith('\n\n\nPublic tail.')).toBe(true)
    expect(s.text.includes('hunter2')).toBe(false)
  }, 120_000)

  it('50 MB thread: extraction finds the one relevant paragraph within its budget', () => {
    const filler = 'Weather notes: it rained in the office town all week long.\n\n'
    const needle = 'The `parseUser` function in src/api/users.ts lower-cases every email.\n\n'
    const half = filler.repeat(Math.floor((25 * MB) / filler.length))
    const thread = half + needle + half
    const r = extractRelevantContext(thread, 'Fix `parseUser` in src/api/users.ts', { maxTokens: 200 })
    expect(r.relevantContext).toContain('lower-cases every email')
    expect(r.metrics.extractedTokens).toBeLessThanOrEqual(200)
    expect(r.metrics.extractedTokens).toBe(oracle(r.relevantContext))
    expect(isPiecesOf(r.relevantContext, thread)).toBe(true)
  }, 120_000)

  it('1,000,000 tiny messages: exact count, budgeted extraction keeps the relevant one', () => {
    const n = 1_000_000
    const messages: OpenAIMessage[] = Array.from({ length: n }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: i === 654_321 ? 'The rate limiter leaks memory: idle clients are never evicted.' : 'ok',
    }))
    const perMessage = (m: OpenAIMessage) => 3 + oracle(m.role) + oracle(m.content as string)
    const expected = 3 + messages.reduce((sum, m) => sum + perMessage(m), 0)
    expect(countMessageTokens(messages)).toBe(expected)

    const needle = messages[654_321]!
    const e = extractRelevantContext(messages, 'Fix the rate limiter memory leak', { maxTokens: 300 })
    expect(e.metrics.extractedTokens).toBeLessThanOrEqual(300)
    expect(e.relevantMessages).toContain(messages[654_321])
    expect(countMessageTokens(e.relevantMessages!)).toBeLessThanOrEqual(300)
    expect(messages).toHaveLength(n)
    expect(messages[654_321]).toBe(needle)
    expect(needle).toEqual({ role: 'assistant', content: 'The rate limiter leaks memory: idle clients are never evicted.' })
  }, 120_000)
})

describe('odd objects', () => {
  const toolUse = (input: unknown): Message[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'search', input }] },
  ]

  it('deeply nested: counted like JSON.stringify when it can be, a TypeError naming it when not', () => {
    let nested: unknown = 'leaf'
    for (let i = 0; i < 500; i++) nested = { d: nested }
    const messages = toolUse(nested)
    const count = unchanged(messages, () => countMessageTokens(messages))
    expect(count).toBe(3 + 3 + oracle('assistant') + 3 + oracle('search') + oracle(JSON.stringify(nested)))

    let deep: unknown = {}
    for (let i = 0; i < 200_000; i++) deep = { d: deep }
    expect(() => countMessageTokens(toolUse(deep))).toThrow(TypeError)
    expect(() => countMessageTokens(toolUse(deep))).toThrow('`messages[0].content[0].input` must be JSON-serializable')
  })

  it('cyclic: a cycle where a value is read is a TypeError; elsewhere it is ignored', async () => {
    const cyclic: Record<string, unknown> = { path: 'a.ts' }
    cyclic.self = cyclic
    expect(() => countMessageTokens(toolUse(cyclic))).toThrow(TypeError)
    await expect(countMessageTokensAsync(toolUse(cyclic))).rejects.toThrow(TypeError)

    // A cycle in a field nobody reads.
    const m: Record<string, unknown> = { role: 'user', content: 'hello there' }
    m.parent = m
    expect(countMessageTokens([m as unknown as Message])).toBe(countMessageTokens([{ role: 'user', content: 'hello there' }]))

    // A list that contains itself.
    const list: unknown[] = []
    list.push(list)
    expect(() => countMessageTokens(list as Message[])).toThrow('`messages[0]` must be a message object, got an array')

    // Isolation copies only whitelisted fields: a cyclic extra key is dropped by name.
    const config = { task: 'Fix the rate limiter', context: { originalQuery: 'q', other: cyclic } }
    const iso = createIsolatedContext(config as never)
    expect(iso.metrics.droppedKeys).toContain('context.other')
    expect(JSON.stringify(iso.isolatedContext)).not.toContain('self')

    const f = filterSubagentResult({ content: 'The limiter is fixed.', extra: cyclic }, 'fix the limiter')
    expect(f.content).toBe('The limiter is fixed.')
  })

  it('Proxies with throwing getters: the getter’s error comes through (or a TypeError quoting it)', async () => {
    const boom = new Error('getter boom')
    const throwing = new Proxy({}, { get: () => { throw boom } }) // prettier-ignore
    expect(() => countTokens('x', throwing as never)).toThrow(boom)
    expect(() => countMessageTokens([throwing as never])).toThrow(boom)
    expect(() => extractRelevantContext('some text', 'task', throwing as never)).toThrow(boom)
    // A Proxy with no own keys: nothing is read from it, so `task` is missing.
    expect(() => createIsolatedContext(throwing as never)).toThrow('`config.task` must be a string')
    expect(() => sanitize('x', throwing as never)).toThrow(boom)
    await expect(sanitizeAsync('x', throwing as never)).rejects.toBe(boom)
    const keys = new Proxy({ 'a.ts': 'x' }, { ownKeys: () => { throw boom } }) // prettier-ignore
    expect(() => createIsolatedContext({ task: 't', files: keys })).toThrow(TypeError)
    expect(() => createIsolatedContext({ task: 't', files: keys })).toThrow('reading `config.files` threw: getter boom')
    // The addon still works afterwards.
    expect(countTokens('hello world')).toBe(2)
  })

  it('Proxies with inconsistent getters: a correct answer for what was read, or a TypeError', () => {
    let reads = 0
    const flaky = new Proxy(
      { role: 'user', content: 'hello' },
      { get: (o, k) => (k === 'content' ? (++reads % 2 ? 'hello' : 42) : Reflect.get(o, k)) },
    )
    for (let i = 0; i < 4; i++) {
      try {
        expect(countMessageTokens([flaky as never])).toBe(3 + 3 + oracle('user') + oracle('hello'))
      } catch (e) {
        expect(e).toBeInstanceOf(TypeError)
        expect((e as Error).message).toContain('messages[0].content')
      }
    }
    // An array whose length lies is not an array to the addon (a Proxy is an object).
    const lying = new Proxy([{ role: 'user', content: 'a' }], { get: (o, k) => (k === 'length' ? 5 : Reflect.get(o, k)) })
    expect(() => countMessageTokens(lying as never)).toThrow(TypeError)
    // An options object whose `maxTokens` changes between reads is read once.
    let n = 0
    const options = { get maxTokens() { return n++ === 0 ? 5 : -1 } } // prettier-ignore
    const r = extractRelevantContext('Rate limiter leak. Weather.', 'rate limiter', options)
    expect(r.metrics.extractedTokens).toBeLessThanOrEqual(5)
  })

  it('lone surrogates: read as U+FFFD, counted as tiktoken counts them, kept around markers', () => {
    const text = 'start \uD800 middle \uDFFF end \uDBFF\uDBFF [INTERNAL] gone\n\nkept \uDC00'
    expect(unchanged(text, () => countTokens(text))).toBe(oracle(text))
    expect(countTokens(text, { encoding: 'cl100k_base' })).toBe(cl100k.encode_ordinary(text).length)
    expect(countTokens(text)).toBe(countTokens(wellFormed(text)))
    const s = sanitize(text)
    expect(s).toEqual({ text: 'start \uD800 middle \uDFFF end \uDBFF\uDBFF \n\nkept \uDC00', removed: 1 })
    const e = extractRelevantContext(text, 'middle end kept')
    expect(isPiecesOf(e.relevantContext, wellFormed(text))).toBe(true)
  })

  it('NUL bytes: ordinary characters everywhere', () => {
    const text = 'a\0b\0\0c [PRIVATE]\0secret\0\n\n\0tail\0'
    expect(countTokens(text)).toBe(oracle(text))
    expect(sanitize(text)).toEqual({ text: 'a\0b\0\0c \n\n\0tail\0', removed: 1 })
    const e = extractRelevantContext(`intro\0\n\nthe \0rate limiter\0 leaks\n\nweather`, 'rate limiter')
    expect(e.relevantContext).toBe('the \0rate limiter\0 leaks')
    const iso = createIsolatedContext({ task: 'fix\0 it', constraints: ['no\0nul'] })
    expect(renderPrompt(iso.isolatedContext)).toContain('fix\0 it')
    expect(filterSubagentResult('done\0', 'fix').content).toBe('done\0')
  })

  it('every Unicode plane: exact counts, untouched by sanitize, extracted as input pieces', () => {
    const chars: string[] = []
    for (let plane = 0; plane <= 16; plane++) {
      for (const low of [0x0041, 0x00e9, 0x0300, 0x0f00, 0x3042, 0x4e2d, 0xa000, 0xfffd]) {
        const cp = plane * 0x10000 + low
        if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp))
      }
      chars.push(String.fromCodePoint(plane * 0x10000 + 0xfffd), String.fromCodePoint(plane * 0x10000 + 0xfffe))
    }
    chars.push('\u{1F469}\u200D\u{1F4BB}', 'e\u0301', '\u202E', '\uFEFF', '\u0085', '\u2028', '\u{10FFFF}', 'ﷺ', '𒐫')
    const text = chars.join(' ')
    expect(countTokens(text)).toBe(oracle(text))
    expect(countTokens(text, { encoding: 'cl100k_base' })).toBe(cl100k.encode_ordinary(text).length)
    expect(countTokens(text, { encoding: 'estimate' })).toBe(Math.ceil([...text].length / 4))
    expect(sanitize(text)).toEqual({ text, removed: 0 })
    const doc = `${text}\n\nThe rate limiter leaks.\n\n${[...text].reverse().join('')}`
    const e = extractRelevantContext(doc, 'rate limiter')
    expect(e.relevantContext).toBe('The rate limiter leaks.')
    expect(filterSubagentResult(text, 'anything', { maxTokens: countTokens(text) }).content).toBe(text)
  })

  it('numbers (and other non-strings) where strings belong: TypeError naming the parameter', async () => {
    const cases: [() => unknown, string][] = [
      [() => countTokens(42 as never), 'countTokens: `text` must be a string, got the number 42'],
      [() => extractRelevantContext('text', 7 as never), 'extractRelevantContext: `task` must be a string'],
      [() => extractRelevantContext(12 as never, 'task'), 'extractRelevantContext: `fullContext`'],
      [() => sanitize(3.5 as never), 'sanitize: `text` must be a string'],
      [() => filterSubagentResult(1 as never, 'task'), 'filterSubagentResult: `result`'],
      [() => filterSubagentResult('r', NaN as never), 'filterSubagentResult: `originalTask` must be a string'],
      [() => createIsolatedContext({ task: 5 } as never), 'createIsolatedContext: `config.task` must be a string'],
      [() => createIsolatedContext({ task: 't', constraints: [1] } as never), '`config.constraints[0]` must be a string'],
      [() => createIsolatedContext({ task: 't', files: { 'a.ts': 1 } } as never), '`config.files["a.ts"]` must be a string'],
      [() => countMessageTokens([{ role: 1, content: 'x' }] as never), '`messages[0].role` must be a string'],
      [() => countMessageTokens([{ role: 'user', content: 9 }] as never), '`messages[0].content`'],
      [() => extractRelevantContext('t', 'k', { siblingTasks: [5] } as never), '`options.siblingTasks[0]` must be a string'],
      [() => rankByRelevance('q', ['a', 2] as never), 'rankByRelevance: `documents[1]` must be a string'],
      [() => countTokens('x', { encoding: 200 } as never), '`options.encoding` must be one of'],
      [() => new RelevanceIndex().add(7 as never), 'RelevanceIndex.add: `text` must be a string'],
      [() => new RelevanceIndex().search(null as never), 'RelevanceIndex.search: `query` must be a string'],
      [() => new RelevanceIndex().remove('1' as never), 'RelevanceIndex.remove: `id`'],
    ]
    for (const [call, message] of cases) {
      expect(call).toThrow(TypeError)
      expect(call).toThrow(message)
    }
    await expect(countTokensAsync(42 as never)).rejects.toThrow(TypeError)
    await expect(extractRelevantContextAsync('t', 42 as never)).rejects.toThrow(TypeError)
    await expect(filterSubagentResultAsync(42 as never, 't')).rejects.toThrow(TypeError)
  })

  it('NaN, Infinity and negative budgets: RangeError, Infinity meaning no cap', () => {
    const text = 'The rate limiter leaks memory. Idle clients stay. Weather is fine.'
    for (const bad of [NaN, -1, -Infinity, 1.5, -0.5]) {
      expect(() => extractRelevantContext(text, 'rate', { maxTokens: bad })).toThrow(RangeError)
      expect(() => extractRelevantContext(text, 'rate', { maxTokens: bad })).toThrow('`options.maxTokens` must be a whole number ≥ 0')
      expect(() => filterSubagentResult(text, 'rate', { maxTokens: bad })).toThrow(RangeError)
      expect(() => createIsolatedContext({ task: 'rate', maxContextTokens: bad })).toThrow(RangeError)
      expect(() => extractRelevantContext([], 'rate', { keepRecent: bad })).toThrow(RangeError)
    }
    for (const bad of [NaN, -0.1, 1.01, Infinity]) {
      expect(() => extractRelevantContext(text, 'rate', { minRelevance: bad })).toThrow(RangeError)
      expect(() => filterSubagentResult(text, 'rate', { minRelevance: bad })).toThrow(RangeError)
    }
    expect(extractRelevantContext(text, 'rate limiter', { maxTokens: Infinity })).toMatchObject({
      relevantContext: extractRelevantContext(text, 'rate limiter').relevantContext,
    })
    expect(filterSubagentResult(text, 'rate', { maxTokens: Infinity }).content).toBe(filterSubagentResult(text, 'rate').content)
    expect(extractRelevantContext(text, 'rate limiter', { maxTokens: 0 }).relevantContext).toBe('')
    expect(filterSubagentResult(text, 'rate', { maxTokens: 0 }).metrics.filteredTokens).toBe(0)
    for (const bad of [NaN, -1, 1.5, Infinity]) expect(() => new RelevanceIndex().remove(bad)).toThrow(RangeError)
  })

  it('frozen and sealed inputs: same answers as mutable ones, inputs untouched', () => {
    const build = () => ({
      messages: [
        { role: 'system', content: 'You are careful.' },
        { role: 'user', content: 'Fix the rate limiter leak in src/middleware/rate-limit.ts' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"p":"src/middleware/rate-limit.ts"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'const hits = new Map() // never cleared' },
        { role: 'user', content: 'Also, the weather is nice.' },
      ] as Message[],
      options: { maxTokens: 200, siblingTasks: ['Update the README'], audit: true },
      config: {
        task: 'Fix the rate limiter leak',
        taskId: 'A.2',
        context: { originalQuery: 'leak', extra: 'x' },
        constraints: ['no new deps'],
        files: { 'src/middleware/rate-limit.ts': 'const hits = new Map()' },
      },
    })
    const plain = build()
    const expected = {
      count: countMessageTokens(plain.messages),
      extract: extractRelevantContext(plain.messages, plain.config.task, plain.options),
      iso: createIsolatedContext(plain.config, plain.messages),
      filter: filterSubagentResult(plain.messages, plain.config.task, { maxTokens: 50 }),
    }
    for (const seal of [false, true]) {
      const input = deepFreeze(build(), seal)
      unchanged(input, () => {
        expect(countMessageTokens(input.messages)).toBe(expected.count)
        const e = extractRelevantContext(input.messages, input.config.task, input.options)
        expect(e.relevantContext).toBe(expected.extract.relevantContext)
        expect(e.relevantMessages).toEqual(expected.extract.relevantMessages)
        const iso = createIsolatedContext(input.config, input.messages)
        expect(iso.isolatedContext).toEqual(expected.iso.isolatedContext)
        expect(renderPrompt(iso.isolatedContext)).toBe(renderPrompt(expected.iso.isolatedContext))
        expect(filterSubagentResult(input.messages, input.config.task, { maxTokens: 50 }).content).toBe(expected.filter.content)
      })
    }
  })
})

describe('arbitrary JavaScript values as messages (the message reader, fuzzed from JS)', () => {
  const refusal = (e: unknown) => e instanceof TypeError || e instanceof RangeError
  const message = fc.record(
    {
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system'), fc.anything()),
      content: fc.oneof(
        fc.string(),
        fc.anything(),
        fc.array(
          fc.oneof(
            fc.record({ type: fc.constantFrom('text', 'thinking', 'tool_use', 'tool_result', 'tool-call', 'tool-result', 'image'), text: fc.anything(), input: fc.anything(), content: fc.anything(), id: fc.anything(), name: fc.anything(), tool_use_id: fc.anything() }, { requiredKeys: ['type'] }),
            fc.anything(),
          ),
        ),
      ),
      tool_calls: fc.anything(),
      tool_call_id: fc.anything(),
      name: fc.anything(),
    },
    { requiredKeys: [] },
  )
  const messages = fc.oneof(fc.array(message, { maxLength: 6 }), fc.anything())

  it('countMessageTokens, extractRelevantContext and filterSubagentResult answer or refuse', () => {
    fc.assert(
      fc.property(messages, (value) => {
        const before = structuredClone(value)
        for (const call of [
          () => {
            const n = countMessageTokens(value as never)
            expect(Number.isInteger(n) && n >= 0).toBe(true)
          },
          () => {
            const e = extractRelevantContext(value as never, 'user content', { maxTokens: 50 })
            expect(e.metrics.extractedTokens).toBeLessThanOrEqual(50)
          },
          () => {
            const f = filterSubagentResult(value as never, 'content', { maxTokens: 20 })
            expect(f.metrics.filteredTokens).toBeLessThanOrEqual(20)
          },
        ]) {
          try {
            call()
          } catch (e) {
            if (!refusal(e)) throw e
          }
        }
        expect(value).toEqual(before)
      }),
      { numRuns: 400 },
    )
  })
})
