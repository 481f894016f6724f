// Sub-agent contracts (seed: waiboard's context isolation): a contract states who does
// what, with which inputs, what should come back and within which limits; executing it
// isolates, runs, filters and reports, like `spawnSubagent`, and answers in the
// contract's terms. The two-phase form runs a reasoning phase first: its plan says
// whether execution may go ahead (`shouldProceed`) and, when not, why
// (`blockingReason`); execution runs only when it may.
import type { ArchitecturalContext, SubagentConfig } from '../index.js'
import { describe, fail } from './args.js'
import { runBatch } from './parallel.js'
import type { Citation } from './filter.js'
import {
  type CheckedSpawnOptions,
  checkOptions,
  type SpawnError,
  type SpawnLimits,
  type SpawnMetrics,
  type SpawnOptions,
  type SubagentOutcome,
  type SubagentRunInput,
  type SubagentRunResult,
  SubagentBlockedError,
  spawnChecked,
} from './spawn.js'

/** What a sub-agent is asked to do, with what, and within which limits. */
export interface SubAgentContract {
  /** Unique per contract; the subagent's task id. */
  contractId: string
  /** Which kind of agent runs it (e.g. `'code-reviewer'`); handed to `run`. */
  agentType: string
  /** The full task text. */
  task: string
  /**
   * What the sub-agent is given. Known keys go to their place in the isolated context
   * (`files`, `constraints`, `clarifications`, `architecture`, `originalQuery`,
   * `relevantContext`, `instructions`, `userId`, `siblingTasks`); any other key is
   * listed under "Inputs" in the instructions (objects as JSON). Everything is sanitized.
   */
  inputs?: SubAgentInputs
  /** What the answer should be: added to the instructions. */
  expectedOutput?: string
  limits: { maxIterations: number; maxTokens: number; timeoutMs: number }
}

export interface SubAgentInputs {
  files?: Record<string, string>
  constraints?: string[]
  clarifications?: string[]
  architecture?: ArchitecturalContext
  originalQuery?: string
  relevantContext?: string
  instructions?: string
  userId?: string
  siblingTasks?: string[]
  [other: string]: unknown
}

/** A contract's answer. */
export interface SubAgentResult {
  contractId: string
  agentType: string
  success: boolean
  /** The filtered result: what flows back to the parent (empty on failure). */
  summary: string
  citations: Citation[]
  error?: SpawnError
  /** What the sub-agent reported in `usage`, else its prompt and raw result tokens. */
  tokensUsed: number
  durationMs: number
  iterations: number
  metrics: SpawnMetrics
}

/** What a contract's `run` gets: the spawn's input and the contract. */
export interface ContractRunInput extends SubagentRunInput {
  readonly contract: Readonly<SubAgentContract>
}

export interface ContractOptions extends Omit<SpawnOptions, 'run' | 'limits'> {
  run: (input: ContractRunInput) => SubagentRunResult | PromiseLike<SubagentRunResult>
}

/** The reasoning phase's answer. */
export interface SubAgentPlan {
  shouldProceed: boolean
  /** Why execution must not go ahead (when `shouldProceed` is false). */
  blockingReason?: string
  /** Anything else the plan holds (steps, approach, risks) is passed to the execution phase. */
  [key: string]: unknown
}

export interface TwoPhaseOptions extends Omit<SpawnOptions, 'run' | 'limits'> {
  /** The reasoning phase: reads the task and its context, returns a plan. */
  reason: (input: ContractRunInput) => SubAgentPlan | PromiseLike<SubAgentPlan>
  /** The execution phase: runs only when the plan says `shouldProceed`. */
  execute: (input: ContractRunInput & { readonly plan: Readonly<SubAgentPlan> }) => SubagentRunResult | PromiseLike<SubagentRunResult>
}

export interface TwoPhaseResult extends SubAgentResult {
  /** The reasoning phase's plan, when it returned one. */
  plan?: Readonly<SubAgentPlan>
  /** The last phase that ran. */
  phase: 'reasoning' | 'execution'
  /** The plan's reason not to proceed, when it blocked execution. */
  blockingReason?: string
}

const KNOWN_INPUTS = [
  'files',
  'constraints',
  'clarifications',
  'architecture',
  'originalQuery',
  'relevantContext',
  'instructions',
  'userId',
  'siblingTasks',
] as const
const CONTEXT_INPUTS = ['originalQuery', 'relevantContext', 'instructions', 'userId'] as const

/** The contract checked and copied (frozen), and the SubagentConfig it stands for. */
function readContract(fn: string, contract: unknown, path: string): { contract: Readonly<SubAgentContract>; config: SubagentConfig } {
  if (typeof contract !== 'object' || contract === null || Array.isArray(contract)) fail(fn, path, 'a SubAgentContract object', contract)
  const c = contract as Record<string, unknown>
  for (const key of ['contractId', 'agentType', 'task'] as const) {
    if (typeof c[key] !== 'string' || (c[key] as string).trim() === '') fail(fn, `${path}.${key}`, 'a non-empty string', c[key])
  }
  if (typeof c.limits !== 'object' || c.limits === null) fail(fn, `${path}.limits`, 'an object { maxIterations, maxTokens, timeoutMs }', c.limits)
  const l = c.limits as Record<string, unknown>
  const limits = { maxIterations: l.maxIterations, maxTokens: l.maxTokens, timeoutMs: l.timeoutMs }
  for (const [key, value] of Object.entries(limits)) {
    const max = key === 'timeoutMs' ? 2_147_483_647 : Number.MAX_SAFE_INTEGER
    const expected = `a whole number from 1 to ${max.toLocaleString('en-US')} or Infinity`
    if (typeof value !== 'number') fail(fn, `${path}.limits.${key}`, expected, value)
    if (value !== Infinity && (!Number.isInteger(value) || value < 1 || value > max)) {
      throw Object.assign(new RangeError(`${fn}: \`${path}.limits.${key}\` must be ${expected}, got ${value}`), { code: 'ERR_OUT_OF_RANGE' })
    }
  }
  if (c.expectedOutput !== undefined && typeof c.expectedOutput !== 'string') fail(fn, `${path}.expectedOutput`, 'a string', c.expectedOutput)
  const inputs = c.inputs ?? {}
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) fail(fn, `${path}.inputs`, 'an object', inputs)
  const given = inputs as Record<string, unknown>

  const extra: string[] = []
  for (const key of Object.keys(given)) {
    if ((KNOWN_INPUTS as readonly string[]).includes(key)) continue
    const value = given[key]
    if (value === undefined) continue
    extra.push(`- ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
  }
  const instructions = [
    typeof given.instructions === 'string' ? given.instructions : undefined,
    extra.length ? `Inputs:\n${extra.join('\n')}` : undefined,
    typeof c.expectedOutput === 'string' && c.expectedOutput.trim() ? `Expected output: ${c.expectedOutput}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n')
  const context: Record<string, unknown> = {}
  for (const key of CONTEXT_INPUTS) if (given[key] !== undefined) context[key] = given[key]
  if (instructions) context.instructions = instructions
  const config: Record<string, unknown> = { taskId: c.contractId, task: c.task }
  if (Object.keys(context).length) config.context = context
  for (const key of ['files', 'constraints', 'clarifications', 'architecture', 'siblingTasks'] as const) {
    if (given[key] !== undefined) config[key] = given[key]
  }
  const frozen = Object.freeze({
    contractId: c.contractId as string,
    agentType: c.agentType as string,
    task: c.task as string,
    inputs: Object.freeze({ ...given }),
    ...(c.expectedOutput !== undefined && { expectedOutput: c.expectedOutput as string }),
    limits: Object.freeze(limits as SubAgentContract['limits']),
  })
  return { contract: frozen, config: config as unknown as SubagentConfig }
}

function toResult(contract: Readonly<SubAgentContract>, outcome: SubagentOutcome): SubAgentResult {
  return {
    contractId: contract.contractId,
    agentType: contract.agentType,
    success: outcome.success,
    summary: outcome.content,
    citations: outcome.citations,
    ...(outcome.error && { error: outcome.error }),
    tokensUsed: outcome.metrics.tokensUsed,
    durationMs: outcome.metrics.durationMs,
    iterations: outcome.metrics.iterations,
    metrics: outcome.metrics,
  }
}

function checked(fn: string, options: unknown, run: unknown, contract: Readonly<SubAgentContract>): CheckedSpawnOptions {
  const o = options as Record<string, unknown>
  return checkOptions(fn, { ...o, run, limits: contract.limits })
}

/**
 * Executes one contract in isolation (see `spawnSubagent`): the contract's limits are
 * handed to `run` and enforced (timeout always; iterations and tokens where `run` or its
 * result tells). Resolves to the contract's result; a failing sub-agent resolves
 * `success: false` with a reason. Invalid contracts reject with a `TypeError` or
 * `RangeError` naming the field.
 */
export async function executeIsolatedSubAgent(contract: SubAgentContract, options: ContractOptions): Promise<SubAgentResult> {
  const fn = 'executeIsolatedSubAgent'
  const { contract: c, config } = readContract(fn, contract, 'contract')
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object with a `run` function', options)
  if (typeof options.run !== 'function') fail(fn, 'options.run', 'a function', options.run)
  const userRun = options.run
  const o = checked(fn, options, (input: SubagentRunInput) => userRun(Object.freeze({ ...input, contract: c })), c)
  return toResult(c, await spawnChecked(fn, config, { task: c.task, taskId: c.contractId }, o))
}

/**
 * Executes contracts in parallel, at most `concurrency` at a time, each isolated from
 * the others (their tasks are one another's siblings); results in input order, with the
 * batch's totals. One failure never affects the others.
 */
export async function executeParallelIsolated(
  contracts: readonly SubAgentContract[],
  options: ContractOptions & { concurrency?: number },
): Promise<{ results: SubAgentResult[]; metrics: import('./parallel.js').ParallelMetrics }> {
  const fn = 'executeParallelIsolated'
  if (!Array.isArray(contracts)) fail(fn, 'contracts', 'an array of SubAgentContract', contracts)
  const read = contracts.map((c, i) => readContract(fn, c, `contracts[${i}]`))
  const ids = new Set<string>()
  read.forEach(({ contract }, i) => {
    if (ids.has(contract.contractId)) {
      throw Object.assign(new RangeError(`${fn}: \`contracts[${i}].contractId\` ('${contract.contractId}') is used twice`), { code: 'ERR_INVALID_ARG_VALUE' })
    }
    ids.add(contract.contractId)
  })
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object with a `run` function', options)
  if (typeof options.run !== 'function') fail(fn, 'options.run', 'a function', options.run)
  const concurrency = options.concurrency ?? 4
  if (concurrency !== Infinity && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw Object.assign(new RangeError(`${fn}: \`options.concurrency\` must be a whole number ≥ 1 or Infinity, got ${String(concurrency)}`), {
      code: 'ERR_OUT_OF_RANGE',
    })
  }
  const userRun = options.run
  // Each contract keeps its own limits.
  const perContract = read.map(({ contract }) =>
    checked(fn, options, (input: SubagentRunInput) => userRun(Object.freeze({ ...input, contract })), contract),
  )
  const heads = read.map(({ contract }) => ({ task: contract.task, taskId: contract.contractId }))
  const base = checkOptions(fn, { ...options, run: userRun, limits: undefined })
  const result = await runBatch(
    fn,
    read.map(({ config }) => config),
    heads,
    base,
    { concurrency, siblings: true, optionsFor: (i) => perContract[i]! },
  )
  return { results: result.outcomes.map((outcome, i) => toResult(read[i]!.contract, outcome)), metrics: result.metrics }
}

/**
 * The two-phase form: `reason` reads the task and returns a plan; `execute` runs only
 * when the plan says `shouldProceed` (and the spawn was not aborted meanwhile). Both
 * phases share the contract's limits and its one timeout; a plan that blocks ends the
 * sub-agent at once (`success: false`, reason `'blocked'`, with `blockingReason`).
 */
export async function executeTwoPhase(contract: SubAgentContract, options: TwoPhaseOptions): Promise<TwoPhaseResult> {
  const fn = 'executeTwoPhase'
  const { contract: c, config } = readContract(fn, contract, 'contract')
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object with `reason` and `execute` functions', options)
  if (typeof options.reason !== 'function') fail(fn, 'options.reason', 'a function', options.reason)
  if (typeof options.execute !== 'function') fail(fn, 'options.execute', 'a function', options.execute)
  const { reason, execute } = options
  let plan: Readonly<SubAgentPlan> | undefined
  let phase: TwoPhaseResult['phase'] = 'reasoning'
  const run = async (input: SubagentRunInput) => {
    const withContract = Object.freeze({ ...input, contract: c })
    const answer: unknown = await reason(withContract)
    if (typeof answer !== 'object' || answer === null || typeof (answer as SubAgentPlan).shouldProceed !== 'boolean') {
      throw new TypeError(`the reasoning phase returned ${describe(answer)}, not a plan with a boolean \`shouldProceed\``)
    }
    plan = Object.freeze({ ...(answer as SubAgentPlan) })
    if (!plan.shouldProceed) {
      const why = typeof plan.blockingReason === 'string' && plan.blockingReason.trim() ? plan.blockingReason : 'the plan did not proceed'
      throw new SubagentBlockedError(why)
    }
    // Early abort: a timeout or an abort during reasoning stops here.
    input.signal.throwIfAborted()
    phase = 'execution'
    return execute(Object.freeze({ ...withContract, plan }))
  }
  const outcome = await spawnChecked(fn, config, { task: c.task, taskId: c.contractId }, checked(fn, options, run, c))
  const result: TwoPhaseResult = { ...toResult(c, outcome), phase, ...(plan && { plan }) }
  if (plan && !plan.shouldProceed) result.blockingReason = outcome.error?.message ?? ''
  return result
}
