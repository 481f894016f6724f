// `subagent-context/langchain`: isolation for LangChain agents. `isolatingSubAgent` is a
// deepagents compiled subagent in fork mode: deepagents hands it the parent's whole
// conversation and the task behind a long preamble; it takes the task back out of the
// preamble, isolates the context from the conversation, runs the inner agent on the
// rendered prompt alone and answers with the filtered result. `subagentTool` is the same
// for `createAgent`: a tool that isolates from the agent state's messages.
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages'
import { RunnableLambda, type RunnableConfig } from '@langchain/core/runnables'
import { tool, type ToolRuntime } from '@langchain/core/tools'

import type { SubagentConfig } from '../../index.js'
import { fail } from '../args.js'
import { filterSubagentResult } from '../filter.js'
import { createIsolatedContextAsync, renderPrompt } from '../isolate.js'
import type { AnyMessage } from '../messages.js'
import { spawnSubagent, type SpawnOptions, type SubagentOutcome } from '../spawn.js'

/**
 * An agent `createAgent` (or `createDeepAgent`) builds: state in, state with `messages` out.
 * Typed without LangChain's classes, so that an agent whose types come from the ESM build of
 * `@langchain/core` fits this package's CommonJS declarations too.
 */
export interface MessagesAgent {
  // `any`: the agent's own state and config types, which vary with its middleware, its
  // version and the module format its declarations were read in; it is called with
  // `{ messages: [HumanMessage] }` and a RunnableConfig only.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  invoke(input: any, config?: any): PromiseLike<{ messages: unknown[] }>
}

/**
 * deepagents' fork mode puts a fixed preamble, in brackets and ending in a blank line,
 * before the task it sends a subagent ("[The messages above are a prior conversation …
 * Your actual task is below.]").
 */
const FORK_PREAMBLE = /^\[The messages above are a prior conversation[\s\S]*?\]\n\n/

const EMPTY_RESULT = 'subagent failed (empty-result): the subagent answered with no readable text'

/** A message's text (string content, or its text blocks). */
function textOf(message: BaseMessage | undefined): string {
  const content = message?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((b) => (typeof b === 'object' && b !== null && 'text' in b && typeof b.text === 'string' ? b.text : '')).join('\n')
}

export interface IsolatingSubAgentOptions {
  /** The subagent's name (the `subagent_type` the parent model picks). */
  name: string
  /** What the parent model reads about it. */
  description: string
  /** The agent that does the work, on the isolated prompt alone. */
  agent: MessagesAgent
  /** The subagent's config from the task (add `siblingTasks`, `files`, …). Default: `{ task }`. */
  config?: (task: string) => SubagentConfig
  /** A cap on the filtered result's exact tokens. */
  resultTokens?: number
}

/** A deepagents `CompiledSubAgent` (fork mode) that isolates its context and filters its result. */
export function isolatingSubAgent(options: IsolatingSubAgentOptions) {
  const fn = 'isolatingSubAgent'
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object', options)
  if (typeof options.name !== 'string') fail(fn, 'options.name', 'a string', options.name)
  if (typeof options.description !== 'string') fail(fn, 'options.description', 'a string', options.description)
  if (typeof options.agent?.invoke !== 'function') fail(fn, 'options.agent', 'an agent with `invoke`', options.agent)
  const toConfig = options.config ?? ((task: string): SubagentConfig => ({ task }))
  const runnable = RunnableLambda.from(async (state: { messages?: BaseMessage[] }, config?: RunnableConfig) => {
    const messages = state.messages ?? []
    const task = textOf(messages[messages.length - 1]).replace(FORK_PREAMBLE, '')
    const thread = messages.slice(0, -1)
    const { isolatedContext } = await createIsolatedContextAsync(toConfig(task), thread.length > 0 ? thread : undefined)
    const result = await options.agent.invoke({ messages: [new HumanMessage(renderPrompt(isolatedContext))] }, config)
    const filtered = filterSubagentResult(result.messages as AnyMessage[], task, options.resultTokens !== undefined ? { maxTokens: options.resultTokens } : undefined)
    return { messages: [new AIMessage(filtered.content.trim() === '' ? EMPTY_RESULT : filtered.content)] }
  })
  return { name: options.name, description: options.description, runnable, mode: 'fork' as const }
}

export type SubagentToolOptions = Omit<SpawnOptions, 'run' | 'fullThreadContext' | 'signal'> & {
  /** The tool's name. */
  name: string
  /** What the parent model reads about the tool. */
  description: string
  /** The subagent's config from the task. Default: `{ task }`. */
  config?: (task: string) => SubagentConfig
} & ({ run: SpawnOptions['run']; agent?: undefined } | { /** A LangChain agent that answers the isolated prompt. */ agent: MessagesAgent; run?: undefined })

const TASK_SCHEMA = {
  type: 'object',
  properties: { task: { type: 'string', description: 'The whole task for the subagent, self-contained.' } },
  required: ['task'],
} as const

/** What the parent reads of an outcome: the filtered content, or why it failed. */
export const outcomeText = (o: SubagentOutcome): string => (o.success ? o.content : `subagent failed (${o.error?.reason}): ${o.error?.message}`)

/** A `createAgent` tool that spawns an isolated subagent from the agent state's messages. */
export function subagentTool(options: SubagentToolOptions) {
  const fn = 'subagentTool'
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object', options)
  const { name, description, config, run, agent, ...spawn } = options
  if (typeof name !== 'string') fail(fn, 'options.name', 'a string', name)
  if (typeof description !== 'string') fail(fn, 'options.description', 'a string', description)
  const runner: SpawnOptions['run'] | undefined =
    typeof run === 'function'
      ? run
      : typeof agent?.invoke === 'function'
        ? async ({ prompt, signal }) => (await agent.invoke({ messages: [new HumanMessage(prompt)] }, { signal })).messages as AnyMessage[]
        : undefined
  if (runner === undefined) fail(fn, 'options.run', 'a function (or `options.agent` an agent with `invoke`)', run ?? agent)
  const toConfig = config ?? ((task: string): SubagentConfig => ({ task }))
  return tool(
    async (input: { task: string }, runtime: ToolRuntime<{ messages?: BaseMessage[] }>) => {
      // The state ends with the message that is calling this tool: its calls have no results
      // yet and name the sibling tasks, so it is left out, as deepagents does for its forks.
      const messages = runtime.state?.messages
      const last = messages?.[messages.length - 1] as { tool_calls?: { id?: string }[] } | undefined
      const inFlight = last?.tool_calls?.some((c) => c.id === runtime.toolCallId) ?? false
      const thread = inFlight ? messages!.slice(0, -1) : messages
      const outcome = await spawnSubagent(toConfig(input.task), {
        ...spawn,
        run: runner,
        ...(thread && { fullThreadContext: thread }),
        ...(runtime.signal && { signal: runtime.signal }),
      })
      return outcomeText(outcome)
    },
    { name, description, schema: TASK_SCHEMA },
  )
}
