import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { trackStray } from './fixtures/stray.js'
import { prepareThread, spawnParallel, spawnSubagent, type SpawnEvent, type SubagentConfig, type SubagentRunInput } from '../dist/index.js'

const sample = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'examples', 'data', 'orchestrator-thread.json'), 'utf8'))
const tasks: Record<string, string> = sample.tasks

const stray = trackStray()

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A runner that counts how many runs are in flight: a run is in flight from its call until
 * it settles or its signal aborts (then the spawn has given up on it; a runner that
 * ignores its signal goes on in the background, which no library can prevent).
 */
function instrumented(behaviour: (input: SubagentRunInput) => Promise<unknown> | unknown) {
  const state = { inFlight: 0, max: 0, calls: 0 }
  const run = async (input: SubagentRunInput) => {
    state.calls++
    state.inFlight++
    state.max = Math.max(state.max, state.inFlight)
    let done = false
    const end = () => {
      if (!done) state.inFlight--
      done = true
    }
    input.signal.addEventListener('abort', end)
    try {
      return await behaviour(input)
    } finally {
      end()
    }
  }
  return { state, run: run as never }
}

describe('spawnParallel', () => {
  it('never runs more than `concurrency` at once, and returns outcomes in input order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 20 }), async (concurrency, delays) => {
        const { state, run } = instrumented(async ({ taskId }) => {
          await sleep(delays[Number(taskId.slice(1))]!)
          return `result of ${taskId}`
        })
        const configs = delays.map((_, i) => ({ taskId: `T${i}`, task: `Task number ${i}` }))
        const { outcomes, metrics } = await spawnParallel(configs, { concurrency, run })
        expect(state.max).toBeLessThanOrEqual(concurrency)
        expect(metrics.maxInFlight).toBeLessThanOrEqual(concurrency)
        // The pool fills at once (how many runs overlap then depends on timing).
        expect(metrics.maxInFlight).toBe(Math.min(concurrency, delays.length))
        expect(outcomes.map((o) => o.taskId)).toEqual(configs.map((c) => c.taskId))
        expect(outcomes.map((o) => o.content)).toEqual(configs.map((c) => `result of ${c.taskId}`))
      }),
      { numRuns: 25 },
    )
  })

  it('isolates one failure from the others and sums the parent growth from filtered results only', async () => {
    const events: SpawnEvent[] = []
    const { outcomes, metrics } = await spawnParallel(
      [
        { taskId: 'ok-1', task: 'Write a long report' },
        { taskId: 'bad', task: 'Crash' },
        { taskId: 'ok-2', task: 'Write another long report' },
      ],
      {
        budget: { resultTokens: 50 },
        onEvent: (e) => events.push(e),
        run: ({ taskId }) => {
          if (taskId === 'bad') throw new Error('crashed')
          return `Report ${taskId}. ${'Lots of words in the report. '.repeat(100)}`
        },
      },
    )
    expect(outcomes.map((o) => o.success)).toEqual([true, false, true])
    expect(outcomes[1]!.error).toEqual({ reason: 'threw', message: 'crashed' })
    expect(events).toHaveLength(3)
    expect(metrics).toMatchObject({ spawned: 3, succeeded: 2, failed: 1, failures: { threw: 1 }, resultBudgetTokens: 150 })
    expect(metrics.parentGrowthTokens).toBe(outcomes[0]!.metrics.filteredResultTokens + outcomes[2]!.metrics.filteredResultTokens)
    expect(metrics.parentGrowthTokens).toBeLessThanOrEqual(100)
    expect(metrics.parentGrowthWithoutIsolation).toBeGreaterThan(1000)
  })

  it('1,000 spawns with random failures all resolve, in order, with no unhandled rejection', async () => {
    const kinds = ['ok', 'throw', 'reject', 'garbage', 'hang', 'late-reject', 'ok'] as const
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const plan = Array.from({ length: 1000 }, () => kinds[Math.floor(random() * kinds.length)]!)
    const { state, run } = instrumented(async ({ taskId, signal }) => {
      const kind = plan[Number(taskId)]!
      await sleep(random() * 3)
      switch (kind) {
        case 'ok':
          return `done ${taskId}`
        case 'throw':
          throw new Error(`failed ${taskId}`)
        case 'reject':
          return Promise.reject(new Error(`rejected ${taskId}`))
        case 'garbage':
          return { nothing: true }
        case 'hang':
          return new Promise(() => {})
        case 'late-reject':
          // Rejects only after the spawn has given up on it.
          return new Promise((_, reject) => signal.addEventListener('abort', () => setTimeout(() => reject(new Error('late')), 1)))
      }
    })
    const configs = plan.map((_, i) => ({ taskId: String(i), task: `Subtask ${i}` }))
    // The timeout is generous for the runs that answer (a loaded machine must not turn them into timeouts)
    // and short enough for the hung ones to keep the test quick.
    const { outcomes, metrics } = await spawnParallel(configs, { concurrency: 100, limits: { timeoutMs: 500 }, run })
    await sleep(20)
    expect(outcomes).toHaveLength(1000)
    expect(outcomes.map((o) => o.taskId)).toEqual(configs.map((c) => c.taskId))
    const expected = { ok: true, throw: false, reject: false, garbage: false, hang: false, 'late-reject': false }
    expect(outcomes.map((o) => o.success)).toEqual(plan.map((k) => expected[k]))
    for (const [i, o] of outcomes.entries()) {
      if (plan[i] === 'hang' || plan[i] === 'late-reject') expect(o.error?.reason).toBe('timeout')
    }
    expect(state.max).toBeLessThanOrEqual(100)
    expect(metrics.spawned).toBe(1000)
    expect(metrics.succeeded + metrics.failed).toBe(1000)
    expect(stray()).toEqual([])
  })

  it("the batch's signal aborts what is running and what has not started", async () => {
    const controller = new AbortController()
    const { state, run } = instrumented(({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))))
    const configs = Array.from({ length: 10 }, (_, i) => ({ taskId: `T${i}`, task: `Task ${i}` }))
    const pending = spawnParallel(configs, { concurrency: 3, run, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stop the batch')), 20)
    const { outcomes, metrics } = await pending
    expect(outcomes.every((o) => o.error?.reason === 'aborted')).toBe(true)
    expect(state.calls).toBe(3)
    expect(metrics.failures).toEqual({ aborted: 10 })
  })

  it("keeps sibling tasks out of each subagent's context", async () => {
    const configs: SubagentConfig[] = Object.keys(tasks).map((id) => ({ taskId: id, task: tasks[id]! }))
    const prompts: Record<string, string> = {}
    await spawnParallel(configs, {
      fullThreadContext: sample.messages,
      budget: { contextTokens: 500 },
      run: ({ taskId, prompt }) => {
        prompts[taskId] = prompt
        return 'ok'
      },
    })
    expect(Object.keys(prompts).sort()).toEqual(Object.keys(tasks).sort())
    for (const [id, prompt] of Object.entries(prompts)) {
      for (const other of Object.keys(tasks)) if (other !== id) expect(prompt).not.toContain(tasks[other]!)
      expect(prompt).not.toContain('[INTERNAL]')
    }
    expect(configs.every((c) => c.siblingTasks === undefined)).toBe(true)
  })

  it('prepares the thread once: each subagent gets the prompt it would get from the thread itself', async () => {
    const configs: SubagentConfig[] = Object.keys(tasks).map((id) => ({ taskId: id, task: tasks[id]! }))
    const options = { budget: { contextTokens: 400 }, run: ({ prompt }: SubagentRunInput) => prompt }
    const batch = await spawnParallel(configs, { ...options, fullThreadContext: sample.messages })
    const prepared = prepareThread(sample.messages)
    for (const [i, config] of configs.entries()) {
      const siblingTasks = configs.filter((_, j) => j !== i).map((c) => `${c.taskId}\n${c.task}`)
      const alone = await spawnSubagent({ ...config, siblingTasks }, { ...options, fullThreadContext: sample.messages })
      const fromPrepared = await spawnSubagent({ ...config, siblingTasks }, { ...options, fullThreadContext: prepared })
      expect(batch.outcomes[i]!.metrics.promptTokens).toBe(alone.metrics.promptTokens)
      expect(fromPrepared.metrics.promptTokens).toBe(alone.metrics.promptTokens)
      expect(fromPrepared.metrics.parentTokens).toBe(alone.metrics.parentTokens)
    }
    // A thread that cannot be prepared is each subagent's own failure, not the batch's.
    const { outcomes } = await spawnParallel([{ task: 'a' }, { task: 'b' }], { run: () => 'ok', fullThreadContext: [{ role: 5 }] as never })
    expect(outcomes.map((o) => o.error?.reason)).toEqual(['invalid-config', 'invalid-config'])
    for (const o of outcomes) expect(o.error?.message).toMatch(/fullThreadContext\[0\]\.role/)
  })

  it('an invalid field deep in one config fails that subagent alone', async () => {
    const { outcomes } = await spawnParallel([{ task: 'fine' }, { task: 'bad', files: { 'a.ts': 5 } } as never], { run: () => 'ok' })
    expect(outcomes[0]!.success).toBe(true)
    expect(outcomes[1]!.error?.reason).toBe('invalid-config')
    expect(outcomes[1]!.error?.message).toMatch(/config\.files/)
  })

  it('rejects invalid arguments naming the field', async () => {
    const run = () => 'x'
    await expect(spawnParallel('x' as never, { run })).rejects.toThrow(/`configs` must be an array/)
    await expect(spawnParallel([{ task: 'a' }, { nope: 1 } as never], { run })).rejects.toThrow(/`configs\[1\]\.task`/)
    await expect(spawnParallel([{ task: 'a' }], { run, concurrency: 0 })).rejects.toThrow(RangeError)
    await expect(spawnParallel([{ task: 'a' }], { run, concurrency: '2' as never })).rejects.toThrow(TypeError)
  })
})
