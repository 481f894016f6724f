// The project's wiring: a deep agent whose subagents each work on an isolated context.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import type { BaseMessage } from '@langchain/core/messages'
import { createDeepAgent } from 'deepagents'
import { createAgent } from 'langchain'
import { isolatingSubAgent } from 'subagent-context/langchain'

export interface Worker {
  name: string
  description: string
  task: string
}

/** Runs the parent on `messages`; each worker (a `createAgent` on `workerModel`) sees only what its task needs. */
export function orchestrate(parentModel: BaseChatModel, workerModel: BaseChatModel, messages: BaseMessage[], workers: Worker[]) {
  const tasks = workers.map((w) => w.task)
  const worker = createAgent({ model: workerModel, tools: [] })
  const subagents = workers.map((w) =>
    isolatingSubAgent({ name: w.name, description: w.description, agent: worker, config: (task) => ({ task, siblingTasks: tasks.filter((t) => t !== w.task) }) }),
  )
  return createDeepAgent({ model: parentModel, subagents }).invoke({ messages })
}
