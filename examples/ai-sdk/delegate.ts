// The project's wiring: a parent agent whose `delegate` tool runs each task in an isolated subagent.
import { generateText, stepCountIs, type LanguageModel, type ModelMessage } from 'ai'
import { subagentTool } from 'subagent-context/ai'

/** Runs the parent on `messages`; each delegated task goes to `subagentModel` with an isolated prompt. */
export function orchestrate(parentModel: LanguageModel, subagentModel: LanguageModel, messages: ModelMessage[], tasks: string[]) {
  const delegate = subagentTool({
    description: 'Delegate one self-contained task to a subagent.',
    config: ({ task }) => ({ task, siblingTasks: tasks.filter((t) => t !== task) }),
    run: ({ prompt, signal }) => generateText({ model: subagentModel, prompt, abortSignal: signal }),
  })
  return generateText({ model: parentModel, instructions: 'You orchestrate subagents.', messages, tools: { delegate }, stopWhen: stepCountIs(2) })
}
