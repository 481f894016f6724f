// `subagent-context/ai`: a Vercel AI SDK tool that runs a subagent on an isolated context.
// The parent model calls the tool with a task; `execute` isolates the subagent's context
// from the parent's own `messages` (the ones the SDK passes every tool), passes the abort
// signal on, and spawns; `toModelOutput` gives the parent only the filtered outcome.
import { fail } from '../args.js'
import { jsonSchema, type FlexibleSchema, type ModelMessage, type Tool } from 'ai'

import type { SubagentConfig } from '../../index.js'
import { spawnSubagent, type SpawnOptions, type SubagentOutcome, type SubagentRunInput } from '../spawn.js'

/**
 * For a `run` that calls `generateText`/`streamText` itself: the prompt as call settings with
 * both providers' cache hints (an Anthropic cache breakpoint at the end of the part sibling
 * subagents share, an OpenAI `promptCacheKey` per batch), spread into the call:
 * `generateText({ model, ...aiSdkPromptWithCacheHints(input), abortSignal: input.signal })`.
 */
export { aiSdkPromptWithCacheHints } from '../prompt-cache.js'

/** What a tool's `toModelOutput` returns (the SDK's `ToolResultOutput`). */
export type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>

/** Something that answers a prompt: an AI SDK `Agent` (`ToolLoopAgent`) or anything with its `generate`. */
export interface PromptAgent {
  generate(options: { prompt: string; abortSignal?: AbortSignal }): PromiseLike<{ text: string; steps?: readonly unknown[] }>
}

/** The default tool input: the task, in full. */
export interface SubagentTaskInput {
  task: string
}

export type SubagentToolOptions<INPUT = SubagentTaskInput> = Omit<SpawnOptions, 'run' | 'fullThreadContext' | 'signal'> & {
  /** What the parent model reads about the tool: when to delegate, what a task should say. */
  description: string
  /** The tool input. Default: `{ task: string }`. */
  inputSchema?: FlexibleSchema<INPUT>
  /** The subagent's config from the tool input (add `siblingTasks`, `files`, …). Default: `{ task: input.task }`. */
  config?: (input: INPUT) => SubagentConfig
} & (
    | { /** The subagent's model call (as `spawnSubagent`'s `run`). */ run: SpawnOptions['run']; agent?: undefined }
    | { /** An AI SDK agent that answers the isolated prompt. */ agent: PromptAgent; run?: undefined }
  )

const TASK_SCHEMA = jsonSchema<SubagentTaskInput>({
  type: 'object',
  properties: { task: { type: 'string', description: 'The whole task for the subagent, self-contained.' } },
  required: ['task'],
  additionalProperties: false,
})

/** An AI SDK tool that spawns an isolated subagent per call and returns its filtered outcome. */
export function subagentTool<INPUT = SubagentTaskInput>(options: SubagentToolOptions<INPUT>): Tool<INPUT, SubagentOutcome> {
  if (typeof options !== 'object' || options === null) fail('subagentTool', 'options', 'an object', options)
  const { description, inputSchema, config, run, agent, ...spawn } = options
  if (typeof description !== 'string') fail('subagentTool', 'options.description', 'a string', description)
  if (config !== undefined && typeof config !== 'function') fail('subagentTool', 'options.config', 'a function', config)
  const runner: SpawnOptions['run'] | undefined =
    typeof run === 'function'
      ? run
      : agent && typeof agent.generate === 'function'
        ? ({ prompt, signal }: SubagentRunInput) => agent.generate({ prompt, abortSignal: signal })
        : undefined
  if (runner === undefined) fail('subagentTool', 'options.run', 'a function (or `options.agent` an agent with `generate`)', run ?? agent)
  const toConfig = config ?? ((input: INPUT) => ({ task: (input as SubagentTaskInput).task }))
  // The object `tool()` would return as it is (`tool` only infers types).
  const subagent: Tool<INPUT, SubagentOutcome> = {
    description,
    inputSchema: inputSchema ?? (TASK_SCHEMA as FlexibleSchema<unknown> as FlexibleSchema<INPUT>),
    execute: (input: INPUT, { messages, abortSignal }: { messages: ModelMessage[]; abortSignal?: AbortSignal }) =>
      spawnSubagent(toConfig(input), { ...spawn, run: runner, fullThreadContext: messages, ...(abortSignal && { signal: abortSignal }) }),
    toModelOutput: ({ output }: { output: SubagentOutcome }) => toModelOutput(output),
  }
  return subagent
}

/** What the parent model reads of an outcome: its filtered content, or the reason it failed. */
export function toModelOutput(outcome: SubagentOutcome): ToolResultOutput {
  if (outcome.success) return { type: 'text', value: outcome.content }
  const error = outcome.error
  return { type: 'error-text', value: error ? `subagent failed (${error.reason}): ${error.message}` : 'subagent failed' }
}
