// The project's wiring: a parent agent with one isolated agent-as-tool per sibling task.
import { Agent, run, type AgentInputItem, type Model } from '@openai/agents'
import { isolatedAgentTool } from 'subagent-context/openai-agents'

export interface Worker {
  name: string
  description: string
  task: string
  model: Model
}

/** Runs the parent on `thread`; each worker sees only what its own task needs of it. */
export function orchestrate(parentModel: Model, thread: AgentInputItem[], workers: Worker[]) {
  const tasks = workers.map((w) => w.task)
  const tools = workers.map((w) =>
    isolatedAgentTool(new Agent({ name: w.name, model: w.model }), {
      toolDescription: w.description,
      history: () => thread,
      config: (task) => ({ task, siblingTasks: tasks.filter((t) => t !== w.task) }),
    }),
  )
  return run(new Agent({ name: 'parent', model: parentModel, tools }), thread)
}
