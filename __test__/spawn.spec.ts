import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { pino } from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'

import {
  countTokens,
  MemoryLedgerStore,
  spawnSubagent,
  SubtaskLedger,
  type SpawnEvent,
  type SubagentConfig,
  type SubagentRunInput,
} from '../dist/index.js'
import { trackStray } from './fixtures/stray.js'

const sample = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'examples', 'data', 'orchestrator-thread.json'), 'utf8'))
const tasks: Record<string, string> = sample.tasks
const thread = sample.messages

const configFor = (id: string): SubagentConfig => ({
  taskId: id,
  task: tasks[id]!,
  siblingTasks: Object.keys(tasks)
    .filter((other) => other !== id)
    .map((other) => `${other} ${tasks[other]}`),
  files: { 'src/api/users.ts': "users.post('/users', async (req, res) => {})\n" },
  constraints: ['No new dependencies'],
})

const stray = trackStray()
afterEach(() => {
  vi.restoreAllMocks()
})

/** Lets late callbacks (a runner answering after its timeout) run before checking. */
const settleLater = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms))

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('spawnSubagent', () => {
  it('gives run an isolated prompt, filters the result and emits one event', async () => {
    const events: SpawnEvent[] = []
    const logged: [object, string | undefined][] = []
    const log = vi.spyOn(console, 'log')
    const error = vi.spyOn(console, 'error')
    const write = vi.spyOn(process.stdout, 'write')
    let seen: SubagentRunInput | undefined
    const outcome = await spawnSubagent(configFor('A.1'), {
      fullThreadContext: thread,
      budget: { contextTokens: 600, resultTokens: 60 },
      run: (input) => {
        seen = input
        return `A.1 done: src/api/users.ts now rejects a missing email with 400.\n\n<thinking>the user is annoyed</thinking>\n\n${'More detail about the change. '.repeat(80)}`
      },
      onEvent: (e) => events.push(e),
      logger: { info: (obj, msg) => void logged.push([obj, msg]) },
    })
    expect(seen).toBeDefined()
    const prompt = seen!.prompt
    expect(prompt).toContain(tasks['A.1'])
    expect(prompt).toContain('src/api/users.ts')
    expect(prompt).not.toMatch(/A\.2|A\.3/)
    expect(prompt).not.toContain('rate-limit')
    expect(prompt).not.toMatch(/\[INTERNAL\]|\[PRIVATE\]|launch review|lodash incident/)
    expect(seen!.signal).toBeInstanceOf(AbortSignal)
    expect(seen!.limits.timeoutMs).toBe(300_000)
    expect(Object.isFrozen(seen!.context)).toBe(true)

    expect(outcome.success).toBe(true)
    expect(outcome.taskId).toBe('A.1')
    expect(outcome.content).not.toContain('thinking')
    expect(outcome.content).not.toContain('annoyed')
    expect(countTokens(outcome.content)).toBeLessThanOrEqual(60)
    expect(outcome.metrics.filteredResultTokens).toBe(countTokens(outcome.content))
    expect(outcome.metrics.rawResultTokens).toBeGreaterThan(outcome.metrics.filteredResultTokens)
    expect(outcome.metrics.resultMarkersRemoved).toBeGreaterThan(0)
    expect(outcome.metrics.promptTokens).toBe(countTokens(prompt))
    expect(outcome.metrics.parentTokens).toBeGreaterThan(outcome.metrics.isolatedTokens)
    expect(outcome.metrics.overheadMs).toBeCloseTo(outcome.metrics.durationMs - outcome.metrics.runMs, 6)

    expect(events).toHaveLength(1)
    const e = events[0]!
    expect(e).toMatchObject({ type: 'subagent.spawn', taskId: 'A.1', success: true })
    for (const key of [
      'parentTokens',
      'isolatedTokens',
      'reductionRatio',
      'markersRemoved',
      'rawResultTokens',
      'filteredResultTokens',
      'citationsKept',
      'durationMs',
    ] as const) {
      expect(typeof e[key]).toBe('number')
    }
    expect(Array.isArray(e.droppedKeys)).toBe(true)
    expect(logged).toEqual([[e, 'subagent finished']])
    expect(log).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    expect(write).not.toHaveBeenCalled()
  })

  it('logs its one event through a real pino logger', async () => {
    const lines: Record<string, unknown>[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    await spawnSubagent(configFor('A.1'), { fullThreadContext: thread, logger, run: () => 'A.1 done: emails are validated.' })
    await spawnSubagent({ task: 'x' }, { logger, run: () => 42 as never })
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatchObject({ level: 30, msg: 'subagent finished', type: 'subagent.spawn', taskId: 'A.1', success: true })
    expect(typeof lines[0]!.parentTokens).toBe('number')
    expect(lines[1]).toMatchObject({ msg: 'subagent failed: invalid-result', success: false, reason: 'invalid-result' })
  })

  it('never mutates the config or the thread', async () => {
    const config = configFor('A.2')
    const before = structuredClone({ config, thread })
    await spawnSubagent(config, { fullThreadContext: thread, run: () => 'ok, fixed the leak in rate-limit.ts' })
    expect({ config, thread }).toEqual(before)
  })

  it('reports dropped config keys by name and sanitizes what it keeps', async () => {
    const events: SpawnEvent[] = []
    const outcome = await spawnSubagent(
      { task: 'Fix the login bug', context: { secretPlan: 'do not leak', instructions: 'Be brief. [INTERNAL] budget is tight' } } as SubagentConfig,
      { run: ({ prompt }) => (prompt.includes('budget') || prompt.includes('do not leak') ? 'LEAK' : 'fine'), onEvent: (e) => events.push(e) },
    )
    expect(outcome.content).toBe('fine')
    expect(outcome.metrics.droppedKeys).toEqual(['context.secretPlan'])
    expect(outcome.metrics.markersRemoved).toBe(1)
    expect(outcome.taskId).toMatch(/^task-[0-9a-f]{8}$/)
    expect(events[0]!.droppedKeys).toEqual(['context.secretPlan'])
  })

  describe('a subagent that misbehaves resolves success: false with a reason', () => {
    const cases: [string, () => unknown, string][] = [
      ['throws', () => { throw new Error('boom') }, 'threw'],
      ['rejects', () => Promise.reject(new Error('nope')), 'threw'],
      ['rejects with a non-error', () => Promise.reject(42), 'threw'],
      ['returns undefined', () => undefined, 'invalid-result'],
      ['returns a number', () => 42, 'invalid-result'],
      ['returns an object without text', () => ({ answer: 'x' }), 'invalid-result'],
      ['returns an empty string', () => '   ', 'empty-result'],
      ['returns no messages', () => [], 'empty-result'],
      [
        'returns an object whose getter throws',
        () => ({
          get content() {
            throw new Error('trap')
          },
        }),
        'invalid-result',
      ],
      [
        'returns a thenable whose then throws',
        () => ({
          get then() {
            throw new Error('trap')
          },
        }),
        'threw',
      ],
    ]
    for (const [name, run, reason] of cases) {
      it(name, async () => {
        const events: SpawnEvent[] = []
        const outcome = await spawnSubagent({ task: 'Summarize the file' }, { run: run as never, onEvent: (e) => events.push(e) })
        expect(outcome.success).toBe(false)
        expect(outcome.error?.reason).toBe(reason)
        expect(outcome.error?.message.length).toBeGreaterThan(0)
        expect(outcome.content).toBe('')
        expect(events).toHaveLength(1)
        expect(events[0]).toMatchObject({ success: false, reason })
        await settleLater(5)
        expect(stray()).toEqual([])
      })
    }
  })

  it('a hung subagent resolves success: false within its timeout plus 100 ms, and its signal aborts', async () => {
    const timeoutMs = 200
    let signal: AbortSignal | undefined
    const before = timers()
    const started = performance.now()
    const outcome = await spawnSubagent(
      { task: 'Wait forever' },
      {
        limits: { timeoutMs },
        run: (input) => {
          signal = input.signal
          return new Promise(() => {})
        },
      },
    )
    const elapsed = performance.now() - started
    expect(outcome.success).toBe(false)
    expect(outcome.error?.reason).toBe('timeout')
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 1)
    expect(elapsed).toBeLessThan(timeoutMs + 100)
    expect(signal?.aborted).toBe(true)
    expect((signal?.reason as DOMException).name).toBe('TimeoutError')
    expect(timers()).toBeLessThanOrEqual(before)
  })

  it('ignores an answer or a rejection that comes after the timeout', async () => {
    for (const late of [(r: (v: string) => void) => setTimeout(() => r('late answer'), 60), (_: unknown, j: (e: Error) => void) => setTimeout(() => j(new Error('late')), 60)]) {
      const outcome = await spawnSubagent({ task: 'Be slow' }, { limits: { timeoutMs: 20 }, run: () => new Promise((r, j) => late(r as never, j)) })
      expect(outcome.error?.reason).toBe('timeout')
    }
    await settleLater(100)
    expect(stray()).toEqual([])
  })

  it('survives a runner that throws from its abort listener', async () => {
    const outcome = await spawnSubagent(
      { task: 'Clean up badly' },
      {
        limits: { timeoutMs: 20 },
        run: ({ signal }) =>
          new Promise((_, reject) => {
            signal.addEventListener('abort', () => {
              reject(signal.reason)
              throw new Error('listener blew up')
            })
            signal.onabort = () => {
              throw new Error('onabort blew up')
            }
          }),
      },
    )
    expect(outcome.error?.reason).toBe('timeout')
    await settleLater()
    expect(stray()).toEqual([])
  })

  it("aborts with the caller's signal, and does not run when it is already aborted", async () => {
    const controller = new AbortController()
    let aborted = false
    const pending = spawnSubagent(
      { task: 'Long job' },
      {
        signal: controller.signal,
        run: ({ signal }) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              aborted = true
              reject(new Error('stopped'))
            }),
          ),
      },
    )
    setTimeout(() => controller.abort(new Error('user cancelled')), 10)
    const outcome = await pending
    expect(outcome.error).toEqual({ reason: 'aborted', message: 'aborted: user cancelled' })
    expect(aborted).toBe(true)

    const run = vi.fn(() => 'never')
    const again = await spawnSubagent({ task: 'Long job' }, { signal: controller.signal, run })
    expect(again.error?.reason).toBe('aborted')
    expect(run).not.toHaveBeenCalled()
  })

  it('enforces maxIterations through iteration() and through reported steps', async () => {
    const looped = await spawnSubagent(
      { task: 'Loop' },
      {
        limits: { maxIterations: 3 },
        run: async ({ iteration }) => {
          for (;;) {
            iteration()
            await new Promise((r) => setTimeout(r, 1))
          }
        },
      },
    )
    expect(looped.error?.reason).toBe('iteration-limit')
    expect(looped.metrics.iterations).toBe(4)

    const stepped = await spawnSubagent({ task: 'Loop' }, { limits: { maxIterations: 2 }, run: () => ({ text: 'done', steps: [{}, {}, {}] }) })
    expect(stepped.error?.reason).toBe('iteration-limit')
    const fine = await spawnSubagent({ task: 'Loop' }, { limits: { maxIterations: 3 }, run: () => ({ text: 'done', steps: [{}, {}, {}] }) })
    expect(fine.success).toBe(true)
    expect(fine.metrics.iterations).toBe(3)
  })

  it('enforces maxTokens on the prompt (not run) and on reported usage', async () => {
    const run = vi.fn(() => 'x')
    const big = await spawnSubagent({ task: 'word '.repeat(500) }, { limits: { maxTokens: 100 }, run })
    expect(big.error?.reason).toBe('token-limit')
    expect(run).not.toHaveBeenCalled()
    const used = await spawnSubagent(
      { task: 'Small task' },
      { limits: { maxTokens: 1000 }, run: () => ({ text: 'done', usage: { inputTokens: 900, outputTokens: 200 } }) },
    )
    expect(used.error?.reason).toBe('token-limit')
    const ok = await spawnSubagent({ task: 'Small task' }, { run: () => ({ text: 'done', usage: { inputTokens: 90, outputTokens: 20, totalTokens: 110 } }) })
    expect(ok.metrics.tokensUsed).toBe(110)
  })

  it('rejects invalid arguments with a TypeError or RangeError naming the field', async () => {
    const run = () => 'x'
    await expect(spawnSubagent(undefined as never, { run })).rejects.toThrow(TypeError)
    await expect(spawnSubagent(undefined as never, { run })).rejects.toThrow('spawnSubagent: `config` must be an object (SubagentConfig), got undefined')
    await expect(spawnSubagent({} as never, { run })).rejects.toThrow(/`config\.task` must be a non-empty string/)
    await expect(spawnSubagent({ task: '  ' }, { run })).rejects.toBeInstanceOf(RangeError)
    await expect(spawnSubagent({ task: 'x', taskId: 7 } as never, { run })).rejects.toThrow(/`config\.taskId`/)
    await expect(spawnSubagent({ task: 'x' }, {} as never)).rejects.toThrow(/`options\.run` must be a function/)
    await expect(spawnSubagent({ task: 'x' }, { run, limits: { timeoutMs: -1 } })).rejects.toThrow(RangeError)
    await expect(spawnSubagent({ task: 'x' }, { run, limits: { timeoutMs: 2 ** 40 } })).rejects.toThrow(/`options\.limits\.timeoutMs`/)
    await expect(spawnSubagent({ task: 'x' }, { run, budget: { resultTokens: 1.5 } })).rejects.toThrow(/`options\.budget\.resultTokens`/)
    await expect(spawnSubagent({ task: 'x' }, { run, logger: console.info as never })).rejects.toThrow(/`options\.logger`/)
    await expect(spawnSubagent({ task: 'x' }, { run, fullThreadContext: 5 as never })).rejects.toThrow(/`options\.fullThreadContext`/)
    await expect(spawnSubagent({ task: 'x', constraints: 'one' } as never, { run })).rejects.toThrow(TypeError)
    await expect(spawnSubagent({ task: 'x', constraints: 'one' } as never, { run })).rejects.toThrow(
      'spawnSubagent: `config.constraints` must be an array of strings, got string',
    )
    await expect(spawnSubagent({ task: 'x' }, { run, fullThreadContext: [{ content: 'no role' }] as never })).rejects.toThrow(TypeError)
  })

  it('ignores an onEvent or logger that throws', async () => {
    const outcome = await spawnSubagent(
      { task: 'x' },
      {
        run: () => 'fine',
        onEvent: () => {
          throw new Error('listener')
        },
        logger: {
          info: () => {
            throw new Error('logger')
          },
        },
      },
    )
    expect(outcome.success).toBe(true)
  })

  it('accepts a Vercel AI SDK result, messages, or an object with content', async () => {
    const ai = await spawnSubagent({ task: 'x' }, { run: () => ({ text: 'from the SDK', content: [{ type: 'text', text: 'from the SDK' }], usage: {} }) })
    expect(ai.content).toBe('from the SDK')
    const messages = await spawnSubagent({ task: 'x' }, { run: () => [{ role: 'assistant', content: 'from messages' }] })
    expect(messages.content).toBe('from messages')
    const object = await spawnSubagent({ task: 'x' }, { run: () => ({ content: 'from an object', extra: 1 }) })
    expect(object.content).toBe('from an object')
  })

  describe('with a ledger', () => {
    it('adds what earlier subtasks left to the context and records the completion', async () => {
      const ledger = new SubtaskLedger({ store: new MemoryLedgerStore() })
      await ledger.recordCompletion({
        subtaskId: 'A.0',
        description: 'Validate the email of POST /users requests at the database',
        summary: 'The users table has a unique index on email (migration 0042); a malformed email is not checked there.',
        findings: ['db.users.insert in src/api/users.ts throws UniqueViolation on a duplicate email'],
      })
      let prompt = ''
      const outcome = await spawnSubagent(configFor('A.1'), {
        fullThreadContext: thread,
        ledger,
        budget: { contextTokens: 800 },
        run: (input) => {
          prompt = input.prompt
          return 'Summary: Validated the email in POST /users.\nFindings:\n- The users table lower-cases nothing itself\nResources:\n- src/api/users.ts'
        },
      })
      expect(outcome.success).toBe(true)
      expect(prompt).toContain('unique index on email')
      expect(outcome.metrics.ledgerTokens).toBeGreaterThan(0)
      const recorded = ledger.completions().find((c) => c.subtaskId === 'A.1')
      expect(recorded).toMatchObject({
        summary: 'Validated the email in POST /users.',
        findings: ['The users table lower-cases nothing itself'],
        resources: ['src/api/users.ts'],
      })
    })

    it('goes on without a ledger that fails', async () => {
      const broken = {
        contextFor: () => {
          throw new Error('disk gone')
        },
        recordCompletion: () => Promise.reject(new Error('disk gone')),
      }
      const events: SpawnEvent[] = []
      const outcome = await spawnSubagent({ task: 'x' }, { ledger: broken as never, run: () => 'fine', onEvent: (e) => events.push(e) })
      expect(outcome.success).toBe(true)
      expect(events[0]!.ledgerError).toMatch(/disk gone/)
      await settleLater(5)
      expect(stray()).toEqual([])
    })
  })
})
