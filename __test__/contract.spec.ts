import { describe, expect, it, vi } from 'vitest'

import {
  executeIsolatedSubAgent,
  executeParallelIsolated,
  executeTwoPhase,
  type ContractRunInput,
  type SubAgentContract,
} from '../dist/index.js'

const contract = (id: string, over: Partial<SubAgentContract> = {}): SubAgentContract => ({
  contractId: id,
  agentType: 'code-reviewer',
  task: `Review ${id}: check src/auth/login.ts for missing rate limiting`,
  inputs: {
    files: { 'src/auth/login.ts': 'export function login() {}\n' },
    constraints: ['Report, do not edit'],
    severity: 'high',
    owners: ['ana', 'li'],
  },
  expectedOutput: 'A list of findings with file:line references',
  limits: { maxIterations: 5, maxTokens: 10_000, timeoutMs: 5_000 },
  ...over,
})

describe('executeIsolatedSubAgent', () => {
  it('hands the contract and its limits to run and answers in the contract’s terms', async () => {
    let input: ContractRunInput | undefined
    const result = await executeIsolatedSubAgent(contract('C-1'), {
      run: (i) => {
        input = i
        return { text: 'Finding: no rate limit in src/auth/login.ts:1', usage: { inputTokens: 300, outputTokens: 20 } }
      },
    })
    expect(input!.limits).toEqual({ maxIterations: 5, maxTokens: 10_000, timeoutMs: 5_000 })
    expect(input!.contract.agentType).toBe('code-reviewer')
    expect(input!.taskId).toBe('C-1')
    expect(input!.prompt).toContain('export function login() {}')
    expect(input!.prompt).toContain('Report, do not edit')
    expect(input!.prompt).toContain('- severity: high')
    expect(input!.prompt).toContain('- owners: ["ana","li"]')
    expect(input!.prompt).toContain('Expected output: A list of findings')
    expect(result).toMatchObject({
      contractId: 'C-1',
      agentType: 'code-reviewer',
      success: true,
      summary: 'Finding: no rate limit in src/auth/login.ts:1',
      tokensUsed: 320,
    })
    expect(result.durationMs).toBeGreaterThan(0)
  })

  it('enforces the contract’s timeout', async () => {
    const result = await executeIsolatedSubAgent(contract('C-2', { limits: { maxIterations: 5, maxTokens: 10_000, timeoutMs: 30 } }), {
      run: () => new Promise(() => {}),
    })
    expect(result.success).toBe(false)
    expect(result.error?.reason).toBe('timeout')
  })

  it('rejects an invalid contract naming the field', async () => {
    const run = () => 'x'
    await expect(executeIsolatedSubAgent({ ...contract('C'), contractId: '' }, { run })).rejects.toThrow(/`contract\.contractId`/)
    await expect(executeIsolatedSubAgent({ ...contract('C'), limits: { maxIterations: 1, maxTokens: 1 } } as never, { run })).rejects.toThrow(
      /`contract\.limits\.timeoutMs` must be a whole number/,
    )
    await expect(executeIsolatedSubAgent({ ...contract('C'), limits: { maxIterations: 0, maxTokens: 1, timeoutMs: 1 } }, { run })).rejects.toThrow(
      /`contract\.limits\.maxIterations`/,
    )
  })
})

describe('executeParallelIsolated', () => {
  it('runs contracts in parallel, each within its own limits, results in order', async () => {
    const contracts = [contract('P-1'), contract('P-2', { limits: { maxIterations: 5, maxTokens: 10_000, timeoutMs: 30 } }), contract('P-3')]
    const { results, metrics } = await executeParallelIsolated(contracts, {
      concurrency: 2,
      run: ({ contract: c, prompt }) => {
        if (c.contractId === 'P-2') return new Promise(() => {})
        // Sibling contracts' tasks are not in this one's prompt.
        return prompt.includes('Review P-') && !prompt.includes(c.contractId === 'P-1' ? 'P-3' : 'P-1') ? `ok ${c.contractId}` : 'leak'
      },
    })
    expect(results.map((r) => r.contractId)).toEqual(['P-1', 'P-2', 'P-3'])
    expect(results.map((r) => r.summary)).toEqual(['ok P-1', '', 'ok P-3'])
    expect(results[1]!.error?.reason).toBe('timeout')
    expect(metrics.maxInFlight).toBeLessThanOrEqual(2)
  })

  it('refuses a contract id used twice', async () => {
    await expect(executeParallelIsolated([contract('D'), contract('D')], { run: () => 'x' })).rejects.toThrow(/`contracts\[1\]\.contractId`/)
  })
})

describe('executeTwoPhase', () => {
  it('executes only when the plan says shouldProceed, and passes the plan on', async () => {
    const execute = vi.fn(({ plan }: { plan: { steps?: string[] } }) => `done: ${plan.steps!.join(', ')}`)
    const result = await executeTwoPhase(contract('T-1'), {
      reason: () => ({ shouldProceed: true, steps: ['read', 'report'] }),
      execute: execute as never,
    })
    expect(execute).toHaveBeenCalledOnce()
    expect(result).toMatchObject({ success: true, phase: 'execution', summary: 'done: read, report', plan: { shouldProceed: true } })
  })

  it('stops after reasoning when the plan blocks, with its blockingReason', async () => {
    const execute = vi.fn(() => 'never')
    const result = await executeTwoPhase(contract('T-2'), {
      reason: () => ({ shouldProceed: false, blockingReason: 'login.ts is generated; the generator must change instead' }),
      execute,
    })
    expect(execute).not.toHaveBeenCalled()
    expect(result).toMatchObject({
      success: false,
      phase: 'reasoning',
      blockingReason: 'login.ts is generated; the generator must change instead',
      error: { reason: 'blocked' },
    })
  })

  it('aborts early: a reasoning phase that times out never reaches execution', async () => {
    const execute = vi.fn(() => 'never')
    const result = await executeTwoPhase(contract('T-3', { limits: { maxIterations: 5, maxTokens: 10_000, timeoutMs: 30 } }), {
      reason: async ({ signal }) => {
        await new Promise((resolve) => setTimeout(resolve, 60))
        return { shouldProceed: !signal.aborted }
      },
      execute,
    })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(result.error?.reason).toBe('timeout')
    expect(execute).not.toHaveBeenCalled()
  })

  it('a reasoning phase that answers no plan fails with a reason', async () => {
    const result = await executeTwoPhase(contract('T-4'), { reason: () => 'yes' as never, execute: () => 'x' })
    expect(result.success).toBe(false)
    expect(result.error?.message).toMatch(/shouldProceed/)
  })
})
