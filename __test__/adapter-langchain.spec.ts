// `subagent-context/langchain` against the real `langchain` (`createAgent`) and `deepagents`
// (`createDeepAgent`), with LangChain's own fake chat model (`fakeModel`).
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { fakeModel } from '@langchain/core/testing'
import { createDeepAgent } from 'deepagents'
import { createAgent } from 'langchain'
import { describe, expect, it } from 'vitest'

import { isolatingSubAgent, subagentTool } from '../dist/adapters/langchain.js'

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'
const DATE_OUTPUT = 'export function parseDate(text) { return new Date(text) } // drops the timezone offset'
const BILLING_OUTPUT = 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers'

const history = (): BaseMessage[] => [
  new HumanMessage(`Two jobs. First: ${DATE_TASK}. Second: ${BILLING_TASK}.`),
  new AIMessage({
    content: [
      { type: 'thinking', thinking: 'private reasoning about the client' },
      { type: 'text', text: '[INTERNAL] the client is behind on payments\n\nReading what each job touches.' },
    ],
    tool_calls: [
      { id: 'r1', name: 'read_file', args: { path: 'src/date.ts' } },
      { id: 'r2', name: 'query_billing', args: { report: 'monthly invoice report' } },
    ],
  }),
  new ToolMessage({ content: DATE_OUTPUT, tool_call_id: 'r1', name: 'read_file' }),
  new ToolMessage({ content: BILLING_OUTPUT, tool_call_id: 'r2', name: 'query_billing' }),
]

const text = (messages: BaseMessage[]) => messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')

/** A subagent model that records its prompt and answers for the task it was given. */
function subagentModel(prompts: string[]) {
  const answer = (messages: BaseMessage[]) => {
    const prompt = text(messages)
    prompts.push(prompt)
    return new AIMessage(`<thinking>private chain</thinking>\n\n${prompt.includes('parseDate') ? 'parseDate now keeps the timezone offset.' : 'The invoice report is written: 4,210 EUR.'}`)
  }
  return fakeModel().respond(answer).respond(answer)
}

function expectIsolated(prompts: string[]) {
  expect(prompts).toHaveLength(2)
  const date = prompts.find((p) => p.includes(DATE_TASK))!
  const billing = prompts.find((p) => p.includes(BILLING_TASK))!
  expect(date).toContain('drops the timezone offset')
  expect(date).not.toContain('overdue customers')
  expect(billing).toContain('overdue customers')
  expect(billing).not.toContain('drops the timezone offset')
  for (const p of prompts) {
    expect(p).not.toContain('behind on payments')
    expect(p).not.toContain('private reasoning')
  }
}

const siblingsOf = (task: string) => [DATE_TASK, BILLING_TASK].filter((t) => t !== task)

describe('subagent-context/langchain', () => {
  it('subagentTool: a createAgent parent delegates two sibling tasks; each subagent is isolated, the parent sees filtered results', async () => {
    const prompts: string[] = []
    const worker = createAgent({ model: subagentModel(prompts), tools: [] })
    const parentModel = fakeModel()
      .respondWithTools([
        { name: 'delegate', args: { task: DATE_TASK }, id: 'd1' },
        { name: 'delegate', args: { task: BILLING_TASK }, id: 'd2' },
      ])
      .respond(new AIMessage('Both done.'))
    const delegate = subagentTool({ name: 'delegate', description: 'Delegate one self-contained task.', agent: worker, config: (task) => ({ task, siblingTasks: siblingsOf(task) }) })
    const parent = createAgent({ model: parentModel, tools: [delegate] })
    const result = await parent.invoke({ messages: history() })
    expect(text(result.messages.slice(-1))).toBe('Both done.')
    expectIsolated(prompts)
    const seen = text(parentModel.calls[1]!.messages)
    expect(seen).toContain('parseDate now keeps the timezone offset.')
    expect(seen).toContain('The invoice report is written')
    expect(seen).not.toContain('private chain')
  })

  it('isolatingSubAgent: deepagents fork mode, the preamble removed, each subagent isolated', async () => {
    const prompts: string[] = []
    const worker = createAgent({ model: subagentModel(prompts), tools: [] })
    const parentModel = fakeModel()
      .respondWithTools([
        { name: 'task', args: { description: DATE_TASK, subagent_type: 'date_fixer' }, id: 't1' },
        { name: 'task', args: { description: BILLING_TASK, subagent_type: 'billing_writer' }, id: 't2' },
      ])
      .respond(new AIMessage('Both done.'))
    const subagents = [
      isolatingSubAgent({ name: 'date_fixer', description: 'Fixes date bugs.', agent: worker, config: (task) => ({ task, siblingTasks: siblingsOf(task) }) }),
      isolatingSubAgent({ name: 'billing_writer', description: 'Writes reports.', agent: worker, config: (task) => ({ task, siblingTasks: siblingsOf(task) }) }),
    ]
    const parent = createDeepAgent({ model: parentModel, subagents })
    const result = await parent.invoke({ messages: history() })
    expect(text(result.messages.slice(-1))).toBe('Both done.')
    expectIsolated(prompts)
    for (const p of prompts) expect(p).not.toContain('prior conversation')
    const seen = text(parentModel.calls[1]!.messages)
    expect(seen).toContain('parseDate now keeps the timezone offset.')
    expect(seen).not.toContain('private chain')
  })

  it('refuses a subagent without an agent, naming the parameter', () => {
    expect(() => isolatingSubAgent({ name: 'x', description: 'y' } as never)).toThrow(/isolatingSubAgent: `options.agent` must be an agent/)
  })
})
