import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import {
  createIsolatedContext,
  createIsolatedContextAsync,
  PreparedThread,
  prepareThread,
  prepareThreadAsync,
  RelevanceIndex,
  renderPrompt,
  type SubagentConfig,
} from '../dist/index.js'

const files = {
  'src/auth/login.ts': 'export function login(user: string) {\n  return user\n}\n',
  'README.md': 'Use ```ts fences``` inline.\n',
}

const config: SubagentConfig = {
  taskId: 'A.9.1.3',
  task: 'A.9.1.3: add rate limiting to the login endpoint in src/auth/login.ts',
  context: { originalQuery: 'Harden the auth service', instructions: 'Keep changes small.' },
  constraints: ['No new dependencies'],
  files,
  clarifications: ['Limit is 5 attempts per minute per IP'],
}

const thread = `## Plan

- A.9.1.2: migrate the billing tables to Postgres 16
- A.9.1.3: add rate limiting to the login endpoint in src/auth/login.ts
- A.9.1.4: translate the onboarding emails into German

## Login

The login endpoint in src/auth/login.ts takes 40 requests per second at peak.

[INTERNAL] The client is unhappy; do not tell the subagents.

## Billing

Billing tables hold invoices; the Postgres 16 migration needs a dump and restore.

## Emails

The onboarding emails need German translations by Friday.`

const siblings = [
  'A.9.1.2: migrate the billing tables to Postgres 16',
  'A.9.1.4: translate the onboarding emails into German',
]

// Ported from the seed ADR's tests.
describe('renderPrompt (seed ADR tests)', () => {
  const { isolatedContext } = createIsolatedContext({ ...config, siblingTasks: siblings }, thread)
  const prompt = renderPrompt(isolatedContext)

  it('includes the task id and the full task description', () => {
    expect(prompt).toContain('A.9.1.3')
    expect(prompt).toContain(config.task)
  })

  it('contains no other task id and no words about other or total tasks', () => {
    for (const id of ['A.9.1.2', 'A.9.1.4']) expect(prompt).not.toContain(id)
    expect(prompt).not.toMatch(/other tasks?|all tasks|total|\b\d+ tasks\b|sibling|subtasks/i)
  })

  it('includes file contents with their paths, not paths alone', () => {
    for (const [path, content] of Object.entries(files)) {
      expect(prompt).toContain(`### ${path}`)
      expect(prompt).toContain(content)
    }
    // The README holds a ``` run, so its fence is longer.
    expect(prompt).toContain('````md\nUse ```ts fences``` inline.\n````')
  })

  it('keeps the relevant context and drops internal notes and sibling content', () => {
    expect(isolatedContext.relevantContext).toContain('40 requests per second')
    expect(prompt).not.toMatch(/INTERNAL|unhappy|Billing|German/)
  })

  it("has the sections in the ADR order with `order: 'adr'`", () => {
    const adr = renderPrompt(isolatedContext, { order: 'adr' })
    const order = ['## Your Task', '## Instructions', '## File Contents', '## Constraints', '## Clarifications', '## Relevant Context', '## Notes']
    const at = order.map((h) => adr.indexOf(h))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })

  it('puts what siblings share first by default, then the task and its own part', () => {
    const order = ['## Instructions', '## Constraints', '## File Contents', '## Clarifications', '## Your Task', '## Relevant Context', '## Notes']
    const at = order.map((h) => prompt.indexOf(h))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    expect(prompt.slice(0, prompt.indexOf('## Your Task'))).not.toContain('A.9.1.3')
  })
})

describe('createIsolatedContext: the whitelist', () => {
  it('copies only allowed fields, reports dropped keys by name and freezes the result', () => {
    const input = { ...config, apiKey: 'sk-LEAK', context: { ...config.context, token: 'LEAK' } }
    const before = structuredClone(input)
    const r = createIsolatedContext(input as SubagentConfig)
    expect(JSON.stringify(r)).not.toContain('LEAK')
    expect(r.metrics.droppedKeys).toEqual(['apiKey', 'context.token'])
    expect(Object.isFrozen(r)).toBe(true)
    expect(Object.isFrozen(r.isolatedContext.files)).toBe(true)
    expect(Object.isFrozen(r.isolatedContext.constraints)).toBe(true)
    expect(input).toEqual(before)
    expect(Object.keys(r.isolatedContext).sort()).toEqual(
      ['clarifications', 'constraints', 'files', 'instructions', 'originalQuery', 'task', 'taskId'].sort(),
    )
  })

  it('ignores __proto__, constructor and prototype pollution', () => {
    const parsed = JSON.parse('{"task":"t","__proto__":{"userId":"LEAK"},"constructor":{"x":"LEAK"}}')
    const r = createIsolatedContext(parsed)
    expect(JSON.stringify(r)).not.toContain('LEAK')
    expect(r.metrics.droppedKeys).toEqual(['__proto__', 'constructor'])
    const inherited = Object.create({ taskId: 'LEAK', instructions: 'LEAK' }) as SubagentConfig
    inherited.task = 't'
    expect(JSON.stringify(createIsolatedContext(inherited))).not.toContain('LEAK')
    expect(Object.getPrototypeOf(createIsolatedContext(parsed).isolatedContext)).toBe(Object.prototype)
  })

  it('keeps a file named __proto__ as a file, not a prototype', () => {
    const r = createIsolatedContext({ task: 't', files: JSON.parse('{"__proto__":"content"}') })
    expect(Object.getOwnPropertyDescriptor(r.isolatedContext.files, '__proto__')?.value).toBe('content')
  })

  it('reads a getter once, and a throwing getter becomes a TypeError naming the field', () => {
    let reads = 0
    const r = createIsolatedContext({
      get task() {
        reads++
        return reads === 1 ? 'first read' : 'LEAK'
      },
    })
    expect(reads).toBe(1)
    expect(r.isolatedContext.task).toBe('first read')
    const throwing = {
      task: 't',
      get taskId(): string {
        throw new Error('boom')
      },
    }
    expect(() => createIsolatedContext(throwing)).toThrow(TypeError)
    expect(() => createIsolatedContext(throwing)).toThrow(/config\.taskId.*boom/)
    // A throwing getter outside the whitelist is never called.
    expect(() =>
      createIsolatedContext({
        task: 't',
        get secret(): string {
          throw new Error('never read')
        },
      } as SubagentConfig),
    ).not.toThrow()
  })

  it('drops symbols and non-enumerable properties', () => {
    const c = { task: 't', [Symbol('key')]: 'LEAK' } as SubagentConfig
    Object.defineProperty(c, 'userId', { value: 'LEAK', enumerable: false })
    const r = createIsolatedContext(c)
    expect(JSON.stringify(r)).not.toContain('LEAK')
    expect(r.metrics.droppedKeys).toEqual(['userId', '[Symbol(key)]'])
  })

  it('reads class instances by their own fields only', () => {
    class Config {
      task = 'from a class'
      secret = 'LEAK'
      get instructions() {
        return 'LEAK'
      }
    }
    const r = createIsolatedContext(new Config())
    expect(r.isolatedContext.task).toBe('from a class')
    expect(JSON.stringify(r)).not.toContain('LEAK')
  })

  it('reads a Proxy through its traps once per allowed field', () => {
    const seen: string[] = []
    const proxy = new Proxy({ task: 't', hidden: 'LEAK' } as SubagentConfig, {
      getOwnPropertyDescriptor(target, key) {
        seen.push(String(key))
        return Reflect.getOwnPropertyDescriptor(target, key)
      },
      get() {
        throw new Error('values are read from descriptors')
      },
    })
    const r = createIsolatedContext(proxy)
    expect(r.isolatedContext.task).toBe('t')
    expect(JSON.stringify(r)).not.toContain('LEAK')
    expect(seen.filter((k) => k === 'task')).toHaveLength(1)
    const revoked = Proxy.revocable({ task: 't' }, {})
    revoked.revoke()
    expect(() => createIsolatedContext(revoked.proxy)).toThrow(TypeError)
  })

  it('refuses wrong types in allowed fields, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [{ task: { text: 'LEAK' } }, /config\.task/],
      [{ task: 't', context: { instructions: { nested: 'LEAK' } } }, /config\.context\.instructions/],
      [{ task: 't', constraints: ['a', ['LEAK']] }, /config\.constraints\[1\]/],
      [{ task: 't', files: { 'a.ts': { content: 'LEAK' } } }, /config\.files\["a\.ts"\]/],
      [{ task: 't', files: new Map([['a', 'b']]) as never }, /config\.files/],
      [{ task: 't', clarifications: 'not an array' }, /config\.clarifications/],
      [{ task: 't', architecture: { keyPatterns: [1] } }, /config\.architecture\.keyPatterns\[0\]/],
      [{ task: new String('boxed') }, /config\.task/],
      [null, /config/],
      [[{ task: 't' }], /config/],
    ]
    for (const [value, message] of bad) {
      expect(() => createIsolatedContext(value as SubagentConfig), String(message)).toThrow(TypeError)
      expect(() => createIsolatedContext(value as SubagentConfig)).toThrow(message)
    }
    expect(() => createIsolatedContext({ task: 't', maxContextTokens: -1 })).toThrow(RangeError)
    expect(() => createIsolatedContext({ task: 't' }, 42 as never)).toThrow(/fullThreadContext/)
  })
})

describe('createIsolatedContext: context and metrics', () => {
  it('extracts within maxContextTokens, without sibling content, and measures the reduction', () => {
    const r = createIsolatedContext({ ...config, siblingTasks: siblings, maxContextTokens: 30 }, thread)
    expect(r.isolatedContext.relevantContext).toContain('login')
    expect(r.isolatedContext.relevantContext).not.toMatch(/Billing|German|INTERNAL/)
    expect(r.metrics.parentTokens).toBeGreaterThan(r.metrics.isolatedTokens)
    expect(r.metrics.reductionRatio).toBeCloseTo(1 - r.metrics.isolatedTokens / r.metrics.parentTokens)
    expect(r.metrics.markersRemoved).toBe(1)
  })

  it('takes the relevant context from the config without a thread, sanitized', () => {
    const r = createIsolatedContext({ task: 't', context: { relevantContext: 'keep\n\n<thinking>LEAK</thinking>' } })
    expect(r.isolatedContext.relevantContext).toBe('keep\n\n')
    expect(r.metrics.markersRemoved).toBe(2)
  })

  it('sanitizes every string with the default and the config markers', () => {
    const r = createIsolatedContext({
      task: 'do it [PRIVATE] LEAK',
      constraints: ['a [DRAFT] LEAK'],
      files: { 'x.ts': '// <scratchpad>LEAK</scratchpad>\nok' },
      architecture: {
        projectStructure: 'src/',
        keyPatterns: ['[CONFIDENTIAL] LEAK'],
        relevantAdrs: [],
        dependencies: { a: '1 [INTERNAL] LEAK' },
        namingConventions: '',
        trackNomenclature: '',
      },
      markers: [{ name: 'DRAFT' }],
    })
    expect(JSON.stringify(r)).not.toContain('LEAK')
    expect(renderPrompt(r.isolatedContext)).not.toContain('LEAK')
  })

  it('has an async form with the same result and an AbortSignal', async () => {
    const sync = createIsolatedContext({ ...config, siblingTasks: siblings }, thread)
    const async = await createIsolatedContextAsync({ ...config, siblingTasks: siblings }, thread)
    expect(async.isolatedContext).toEqual(sync.isolatedContext)
    const controller = new AbortController()
    controller.abort()
    await expect(createIsolatedContextAsync(config, thread, { signal: controller.signal })).rejects.toThrow(/abort/i)
    await expect(createIsolatedContextAsync({ task: 1 } as never)).rejects.toThrow(TypeError)
  })
})

describe('prepareThread: one thread, many isolations', () => {
  const messages = [
    { role: 'system', content: 'You orchestrate subagents.' },
    { role: 'user', content: thread },
    { role: 'assistant', content: '<thinking>billing first?</thinking>Login takes 40 requests per second; the limit is 5 per minute.' },
  ]
  const configs: SubagentConfig[] = [
    { ...config, siblingTasks: siblings, maxContextTokens: 30 },
    { ...config, siblingTasks: siblings },
    { taskId: 'A.9.1.2', task: siblings[0]!, siblingTasks: [config.task, siblings[1]!] },
    { ...config, markers: [{ name: 'Login', form: 'bracket' }] },
  ]

  it('isolates every config exactly as the thread itself does, text or messages', async () => {
    for (const t of [thread, messages]) {
      const prepared = prepareThread(t)
      expect(prepared).toBeInstanceOf(PreparedThread)
      expect(prepared.encoding).toBe('o200k_base')
      for (const c of configs) {
        const direct = createIsolatedContext(c, t)
        const through = createIsolatedContext(c, prepared)
        expect(through.isolatedContext).toEqual(direct.isolatedContext)
        expect({ ...through.metrics, durationMs: 0 }).toEqual({ ...direct.metrics, durationMs: 0 })
        expect(prepared.tokens).toBe(direct.metrics.parentTokens - createIsolatedContext(c).metrics.parentTokens)
        expect((await createIsolatedContextAsync(c, prepared)).isolatedContext).toEqual(direct.isolatedContext)
      }
      // Another encoding than it was prepared for: the thread as given.
      const cl100k = { encoding: 'cl100k_base' } as const
      expect(createIsolatedContext(configs[0]!, prepared, cl100k)).toMatchObject({
        isolatedContext: createIsolatedContext(configs[0]!, t, cl100k).isolatedContext,
      })
    }
  })

  it('is a copy of the thread as it was: later changes to the messages do not reach it', () => {
    const copy = messages.map((m) => ({ ...m }))
    const prepared = prepareThread(copy)
    const before = createIsolatedContext(configs[1]!, prepared)
    copy[2]!.content = 'rate limiting the login endpoint: use a token bucket'
    copy.push({ role: 'user', content: 'login endpoint rate limiting is urgent' })
    expect(createIsolatedContext(configs[1]!, prepared).isolatedContext).toEqual(before.isolatedContext)
  })

  it('has an async form with an AbortSignal, and refuses what is not a thread', async () => {
    const prepared = await prepareThreadAsync(messages, { encoding: 'cl100k_base' })
    expect(prepared.encoding).toBe('cl100k_base')
    const controller = new AbortController()
    controller.abort()
    await expect(prepareThreadAsync(thread, { signal: controller.signal })).rejects.toThrow(/abort/i)
    expect(() => prepareThread(42 as never)).toThrow(TypeError)
    expect(() => prepareThread(prepared as never)).toThrow(/fullThreadContext/)
    await expect(prepareThreadAsync(null as never)).rejects.toThrow(TypeError)
    expect(() => prepareThread(thread, { markers: [{ name: '' }] })).toThrow(RangeError)
    // Only a real PreparedThread passes as one: not an object dressed as one, nor another class.
    const fake = Object.create(PreparedThread.prototype)
    for (const notOne of [fake, new RelevanceIndex(), {}]) {
      expect(() => createIsolatedContext(config, notOne)).toThrow(/fullThreadContext.*PreparedThread/)
    }
    expect(() => new (PreparedThread as unknown as new () => unknown)()).toThrow()
  })
})

// Random configs with random extra keys (values marked LEAK) and random sibling tasks
// (their words marked SIB): nothing outside the whitelist reaches the result or the
// prompt, and no sibling text reaches the relevant context.
const OWN = ['login', 'rate', 'limit', 'session', 'token', 'cookie', 'password', 'endpoint', 'throttle', 'auth']
const SIB = ['invoice', 'billing', 'postgres', 'migration', 'email', 'german', 'translate', 'onboarding', 'ledger']
const ALLOWED = new Set(['task', 'taskId', 'context', 'constraints', 'files', 'architecture', 'clarifications', 'siblingTasks', 'maxContextTokens', 'markers'])
const words = (pool: string[]) => fc.array(fc.constantFrom(...pool), { minLength: 3, maxLength: 10 }).map((w) => w.join(' '))
const leakValue = fc.oneof(
  fc.string().map((s) => `LEAK ${s}`),
  fc.record({ nested: fc.constant('LEAK') }),
  fc.constant(['LEAK']),
  fc.constant(() => 'LEAK'),
)
const extraKeys = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !ALLOWED.has(k) && k !== '__proto__'),
  leakValue,
  { maxKeys: 5 },
)

describe('createIsolatedContext: property', () => {
  it('lets nothing outside the whitelist and no sibling text through (10,000 cases)', () => {
    fc.assert(
      fc.property(
        words(OWN),
        fc.array(words(SIB).map((t) => `SIB ${t}`), { minLength: 1, maxLength: 3 }),
        extraKeys,
        extraKeys,
        fc.array(fc.boolean(), { minLength: 2, maxLength: 8 }),
        (task, siblingTasks, extra, contextExtra, layout) => {
          const paragraphs = layout.map((own, i) => (own ? `${task} step ${i}.` : `${siblingTasks[i % siblingTasks.length]} step ${i}.`))
          const c = { ...extra, task, siblingTasks, context: { ...contextExtra, instructions: task } }
          const r = createIsolatedContext(c as SubagentConfig, paragraphs.join('\n\n'))
          const out = JSON.stringify(r) + renderPrompt(r.isolatedContext)
          expect(out).not.toContain('LEAK')
          expect(r.isolatedContext.relevantContext ?? '').not.toContain('SIB')
          expect(renderPrompt(r.isolatedContext)).not.toContain('SIB')
          expect([...r.metrics.droppedKeys].sort()).toEqual(
            [...Object.keys(extra), ...Object.keys(contextExtra).map((k) => `context.${k}`)].sort(),
          )
        },
      ),
      { numRuns: 10_000 },
    )
  })
})
