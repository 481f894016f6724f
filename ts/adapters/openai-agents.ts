// `subagent-context/openai-agents`: isolation for the OpenAI Agents SDK's two ways of
// delegating. A handoff's `inputFilter` gives the next agent only the history that its
// task needs (no sibling's work, no marked notes, no reasoning); an agent used as a tool
// gets an isolated prompt (its tool cannot see the run's history, so the caller passes
// it in) and gives back only the filtered result.
import type { Agent, AgentInputItem, HandoffInputData, RunItem } from '@openai/agents'

import type { SubagentConfig } from '../../index.js'
import { fail } from '../args.js'
import { filterSubagentResult } from '../filter.js'
import { createIsolatedContextAsync, renderPrompt } from '../isolate.js'
import type { AnyMessage } from '../messages.js'
import { extractRelevantContext } from '../native.js'

export interface IsolatingInputFilterOptions {
  /** The next agent's task. Default: the text of the last user message in the history. */
  task?: (data: HandoffInputData) => string
  /** Other tasks whose work stays out. */
  siblingTasks?: readonly string[]
  /** A cap on the history's exact tokens (as `extractRelevantContext`'s `maxTokens`). */
  maxTokens?: number
}

/** The text of an item's content, or `''`. */
function textOf(item: unknown): string {
  const content = (item as { content?: unknown }).content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('\n')
}

/** A run item's protocol item; anything else as it is. */
const raw = (item: RunItem | AgentInputItem): AgentInputItem => ('rawItem' in item ? (item.rawItem as AgentInputItem) : item)

/**
 * A handoff `inputFilter`: the next agent gets the history before the handoff reduced to
 * what its task needs (whole items, calls with their outputs, marked text and reasoning
 * out), the task as a user message if no kept item states it, and the handoff itself.
 */
export function isolatingInputFilter(options: IsolatingInputFilterOptions = {}): (data: HandoffInputData) => HandoffInputData {
  const fn = 'isolatingInputFilter'
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object', options)
  if (options.task !== undefined && typeof options.task !== 'function') fail(fn, 'options.task', 'a function', options.task)
  return (data) => {
    const history = typeof data.inputHistory === 'string' ? [{ role: 'user' as const, content: data.inputHistory }] : data.inputHistory
    const items: AgentInputItem[] = [...history, ...data.preHandoffItems.map(raw)]
    const lastUser = [...items].reverse().find((i) => 'role' in i && i.role === 'user')
    const task = options.task ? options.task(data) : lastUser ? textOf(lastUser) : ''
    const kept =
      task === ''
        ? []
        : (extractRelevantContext(items, task, {
            ...(options.siblingTasks && { siblingTasks: [...options.siblingTasks] }),
            ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
          }).relevantMessages ?? [])
    const stated = kept.some((i) => textOf(i).includes(task))
    const inputHistory: AgentInputItem[] = stated || task === '' ? kept : [{ role: 'user', content: task }, ...kept]
    return { ...data, inputHistory, preHandoffItems: [] }
  }
}

export interface IsolatedAgentToolOptions {
  /** The tool's name. Default: the agent's name. */
  toolName?: string
  /** What the parent model reads about the tool. */
  toolDescription?: string
  /** The parent's thread when the tool is called (its items or run items): the tool cannot see it otherwise. */
  history?: () => readonly (AgentInputItem | RunItem | AnyMessage)[]
  /** The subagent's config from the tool's input text. Default: `{ task: input }`. */
  config?: (input: string) => SubagentConfig
  /** A cap on the filtered result's exact tokens. */
  resultTokens?: number
}

/** The tool input `asTool` defines by default. */
interface AgentToolInput {
  input: string
}

/**
 * `agent.asTool(...)` whose nested run gets an isolated prompt (the task, and what the
 * parent's history holds for it) and whose output is the filtered result; an answer
 * with no readable text comes back as a failure the parent can read.
 */
export function isolatedAgentTool<TContext, TAgent extends Agent<TContext, any>>(agent: TAgent, options: IsolatedAgentToolOptions = {}) {
  const fn = 'isolatedAgentTool'
  if (typeof agent !== 'object' || agent === null || typeof (agent as { asTool?: unknown }).asTool !== 'function') fail(fn, 'agent', 'an Agent', agent)
  if (typeof options !== 'object' || options === null) fail(fn, 'options', 'an object', options)
  if (options.history !== undefined && typeof options.history !== 'function') fail(fn, 'options.history', 'a function', options.history)
  const toConfig = options.config ?? ((input: string): SubagentConfig => ({ task: input }))
  const taskOf = (args: string | undefined): string => {
    try {
      const parsed = JSON.parse(args ?? '') as Partial<AgentToolInput>
      return typeof parsed.input === 'string' ? toConfig(parsed.input).task : ''
    } catch {
      return ''
    }
  }
  return agent.asTool({
    ...(options.toolName !== undefined && { toolName: options.toolName }),
    ...(options.toolDescription !== undefined && { toolDescription: options.toolDescription }),
    inputBuilder: async ({ params }: { params: AgentToolInput }) => {
      const thread = options.history?.().map((i) => ('rawItem' in i ? (i.rawItem as AgentInputItem) : i)) as AnyMessage[] | undefined
      const { isolatedContext } = await createIsolatedContextAsync(toConfig(params.input), thread)
      return renderPrompt(isolatedContext)
    },
    customOutputExtractor: (result) => {
      const task = taskOf(result.agentToolInvocation.toolArguments)
      const items = result.newItems.map((i) => i.rawItem as AgentInputItem)
      const filtered = filterSubagentResult(items, task, options.resultTokens !== undefined ? { maxTokens: options.resultTokens } : undefined)
      return filtered.content.trim() === '' ? 'subagent failed (empty-result): the subagent answered with no readable text' : filtered.content
    },
  })
}
