import { describe, expect, it } from 'vitest'

import {
  countMessageTokens,
  countTokens,
  extractRelevantContext,
  extractRelevantContextAsync,
  type Message,
} from '../dist/index.js'

const plan = `# Plan

- A.1 Validate the body of POST /users in src/api/users.ts.
- A.2 Fix the memory leak in src/middleware/rate-limit.ts.
- A.3 Update README.md for the v2 routes.

## Users

The users route inserts whatever body it gets. Emails must be validated and lower-cased.

## Rate limiter

The hits map never forgets idle clients, so memory grows without bound.

## Weather

It rained all week in the office town.`

/** A result without its timing, which differs from run to run. */
const stable = <T extends { metrics: { durationMs: number } }>(r: T) => ({ ...r, metrics: { ...r.metrics, durationMs: 0 } })

const thread: Message[] = [
  { role: 'system', content: 'You orchestrate subagents.' },
  { role: 'user', content: 'Harden the API: validate emails in src/api/users.ts and fix the rate limiter leak.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/api/users.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'export function createUser(body) { return db.insert(body) }' },
  {
    role: 'assistant',
    content: [{ type: 'thinking', thinking: 'The user seems annoyed; keep it quiet.' }, { type: 'text', text: 'Reading the limiter.' }],
  } as Message,
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/middleware/rate-limit.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'c2', content: 'const hits = new Map() // never cleared' },
  { role: 'user', content: 'Thanks.' },
]

describe('extractRelevantContext on text', () => {
  it('keeps what the task needs, in order, and drops unrelated text even with room to spare', () => {
    const r = extractRelevantContext(plan, 'A.1 Validate the body of POST /users in src/api/users.ts', { maxTokens: 10_000 })
    expect(r.relevantContext).toContain('Emails must be validated')
    expect(r.relevantContext).not.toContain('rained')
    expect(r.relevantContext.indexOf('A.1')).toBeLessThan(r.relevantContext.indexOf('Emails'))
    expect(r.keywords).toContain('src/api/users.ts')
    expect(r.metrics.extractedTokens).toBe(countTokens(r.relevantContext))
    expect(r.metrics.originalTokens).toBe(countTokens(plan))
    expect(r.segments.length).toBe(r.metrics.segmentsTotal)
    expect(r.segments.filter((s) => s.kept).length).toBe(r.metrics.segmentsKept)
  })

  it('never exceeds a budget, for every budget from 0 up', () => {
    for (const maxTokens of [0, 1, 2, 5, 10, 20, 40, 80, 1000]) {
      const r = extractRelevantContext(plan, 'memory leak in the rate limiter', { maxTokens })
      expect(countTokens(r.relevantContext)).toBeLessThanOrEqual(maxTokens)
    }
  })

  it('cuts a code block only when it alone exceeds the budget, to the lines the task needs', () => {
    const helpers = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `def helper_${from + i}(x):\n    return x + ${from + i}\n`).join('')
    const block = "```python\n" + helpers(0, 150) + "def parse_header(line):\n    key, value = line.split(':', 1)\n    return key\n" + helpers(150, 300) + '```'
    const text = `## Parser\n\nThe header parser.\n\n${block}\n\n## Weather\n\nIt rained.`
    const task = 'fix parse_header when the header line has no value'
    const cut = extractRelevantContext(text, task, { maxTokens: 100 })
    expect(cut.metrics.extractedTokens).toBeLessThanOrEqual(100)
    expect(countTokens(cut.relevantContext)).toBe(cut.metrics.extractedTokens)
    expect(cut.relevantContext).toContain("def parse_header(line):\n    key, value = line.split(':', 1)")
    expect(cut.relevantContext).not.toContain('helper_0(')
    const whole = extractRelevantContext(text, task, { maxTokens: countTokens(block) + 50 })
    expect(whole.relevantContext).toContain(block)
  })

  it('drops sibling content and reduces the plan to this task, reporting why', () => {
    const r = extractRelevantContext(plan, 'A.1 Validate the body of POST /users in src/api/users.ts', {
      siblingTasks: ['A.2 Fix the memory leak in src/middleware/rate-limit.ts', 'A.3 Update README.md for the v2 routes'],
      audit: true,
    })
    expect(r.relevantContext).toContain('A.1')
    expect(r.relevantContext).not.toMatch(/A\.2|A\.3|hits map/)
    expect(r.dropped?.some((d) => d.reason === 'sibling')).toBe(true)
    const dropped = new Set(r.dropped!.map((d) => d.index))
    for (const s of r.segments) expect(dropped.has(s.index)).toBe(!s.kept)
  })

  it('is made of input text and elision markers only, and deterministic', () => {
    const options = { elision: ' <cut> ', maxTokens: 40 }
    const r = extractRelevantContext(plan, 'memory leak', options)
    for (const piece of r.relevantContext.split(' <cut> ')) expect(plan).toContain(piece)
    expect(stable(extractRelevantContext(plan, 'memory leak', options))).toEqual(stable(r))
  })

  it('honours minRelevance: at 1 only the best segments survive', () => {
    const loose = extractRelevantContext(plan, 'validate emails users', { minRelevance: 0 })
    const strict = extractRelevantContext(plan, 'validate emails users', { minRelevance: 1 })
    expect(strict.metrics.segmentsKept).toBeLessThan(loose.metrics.segmentsKept)
    expect(strict.metrics.segmentsKept).toBeGreaterThan(0)
  })

  it('cuts at the granularity asked for', () => {
    const sentence = extractRelevantContext(plan, 'Emails validated', { granularity: 'sentence' })
    const paragraph = extractRelevantContext(plan, 'Emails validated', { granularity: 'paragraph' })
    expect(paragraph.segments.length).toBeLessThan(sentence.segments.length)
    expect(paragraph.relevantContext).toContain('The users route inserts whatever body it gets. Emails must be validated')
  })
})

describe('extractRelevantContext on messages', () => {
  it('returns the input message objects, tool pairs whole, thinking never passed', () => {
    const r = extractRelevantContext(thread, 'Validate emails in createUser (src/api/users.ts)', { audit: true })
    const kept = r.relevantMessages!
    expect(kept).toContain(thread[0]) // keepSystem defaults to true
    expect(kept).toContain(thread[2])
    expect(kept).toContain(thread[3])
    expect(kept).not.toContain(thread[6])
    expect(r.relevantContext).toContain('createUser(body)')
    expect(r.relevantContext).not.toContain('annoyed')
    expect(r.dropped!.some((d) => d.reason === 'internal')).toBe(true)
  })

  it('never splits a tool call from its result, in any budget', () => {
    for (const maxTokens of [0, 20, 40, 60, 100, 200, 1000]) {
      const kept = extractRelevantContext(thread, 'rate limiter memory leak', { maxTokens }).relevantMessages!
      expect(countMessageTokens(kept)).toBeLessThanOrEqual(Math.max(maxTokens, 3))
      const callIds = new Set(kept.flatMap((m) => ('tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => c.id) : [])))
      const resultIds = new Set(kept.flatMap((m) => ('tool_call_id' in m && m.tool_call_id ? [m.tool_call_id] : [])))
      expect([...callIds].sort()).toEqual([...resultIds].sort())
    }
  })

  it('honours keepRecent and keepSystem', () => {
    const r = extractRelevantContext(thread, 'rate limiter', { keepRecent: 1, keepSystem: false })
    expect(r.relevantMessages).toContain(thread[7])
    expect(r.relevantMessages).not.toContain(thread[0])
  })

  it('drops marked content as internal, and returns a sanitized copy of a message that holds it', () => {
    const marked: Message[] = [
      { role: 'user', content: 'Validate emails in createUser (src/api/users.ts).' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'createUser emails: the user seems annoyed', signature: 's' },
          { type: 'text', text: 'createUser must validate emails.\n\n[INTERNAL] createUser emails: blame the intern' },
        ],
      },
    ]
    const before = structuredClone(marked)
    const r = extractRelevantContext(marked, 'validate emails in createUser', { audit: true })
    expect(r.relevantContext).toContain('createUser must validate emails.')
    expect(r.relevantContext).not.toMatch(/annoyed|intern/)
    expect(r.dropped!.filter((d) => d.reason === 'internal').length).toBeGreaterThanOrEqual(2)
    expect(r.relevantMessages![0]).toBe(marked[0])
    expect(r.relevantMessages![1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'createUser must validate emails.\n\n' }] })
    expect(marked).toEqual(before)
    const text = extractRelevantContext('Emails must be validated. <scratchpad>emails: skip tests</scratchpad>\n\nOther.', 'validate emails')
    expect(text.relevantContext).not.toContain('skip tests')
  })

  it('reads Anthropic and AI SDK threads alike', () => {
    const anthropic: Message[] = [
      { role: 'user', content: 'Fix the leak in src/middleware/rate-limit.ts' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'src/middleware/rate-limit.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'const hits = new Map()' }] },
      { role: 'assistant', content: 'Unrelated chatter about lunch.' },
    ]
    const r = extractRelevantContext(anthropic, 'rate-limit.ts leak hits map')
    expect(r.relevantMessages).toEqual([anthropic[0], anthropic[1], anthropic[2]])
  })
})

describe('extractRelevantContextAsync', () => {
  it('agrees with the sync form', async () => {
    const options = { maxTokens: 60, siblingTasks: ['A.2 rate limiter'] }
    const asynchronous = await extractRelevantContextAsync(plan, 'validate users emails', options)
    expect(stable(asynchronous)).toEqual(stable(extractRelevantContext(plan, 'validate users emails', options)))
    const r = await extractRelevantContextAsync(thread, 'validate emails')
    expect(r.relevantMessages![0]).toBe(thread[0])
  })

  it('rejects with the signal reason when aborted', async () => {
    const controller = new AbortController()
    const big = plan.repeat(20_000)
    const work = extractRelevantContextAsync(big, 'memory leak', { signal: controller.signal })
    controller.abort()
    await expect(work).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('bad input', () => {
  it('gets TypeError or RangeError naming the function and the parameter', () => {
    expect(() => extractRelevantContext(42 as never, 'x')).toThrow('extractRelevantContext: `fullContext` must be a string or an array of messages, got the number 42')
    expect(() => extractRelevantContext('x', null as never)).toThrow(TypeError)
    expect(() => extractRelevantContext('x', 'y', { maxTokens: -1 })).toThrow(RangeError)
    expect(() => extractRelevantContext('x', 'y', { maxTokens: Number.NaN })).toThrow('`options.maxTokens` must be a whole number ≥ 0, got NaN')
    expect(() => extractRelevantContext('x', 'y', { maxTokens: 1.5 })).toThrow(RangeError)
    expect(() => extractRelevantContext('x', 'y', { minRelevance: 2 })).toThrow('`options.minRelevance` must be a number from 0 to 1')
    expect(() => extractRelevantContext('x', 'y', { siblingTasks: ['a', 3 as never] })).toThrow('`options.siblingTasks[1]` must be a string')
    expect(() => extractRelevantContext('x', 'y', { granularity: 'word' as never })).toThrow(RangeError)
    expect(() => extractRelevantContext([{ content: 'no role' } as never], 'y')).toThrow('`fullContext[0].role` must be a string')
  })

  it('treats Infinity as no cap and leaves inputs unchanged', () => {
    const input = structuredClone(thread)
    const before = JSON.stringify(input)
    Object.freeze(input)
    const r = extractRelevantContext(input, 'validate emails', { maxTokens: Number.POSITIVE_INFINITY })
    expect(r.metrics.extractedTokens).toBeGreaterThan(0)
    expect(JSON.stringify(input)).toBe(before)
  })
})
