import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { fakeModel } from '@langchain/core/testing'
import { expect, it } from 'vitest'

import { orchestrate } from './delegate.js'

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'

const history: BaseMessage[] = [
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
  new ToolMessage({ content: 'export function parseDate(text) { return new Date(text) } // drops the timezone offset', tool_call_id: 'r1', name: 'read_file' }),
  new ToolMessage({ content: 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers', tool_call_id: 'r2', name: 'query_billing' }),
]

const text = (messages: BaseMessage[]) => messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')

it('each subagent gets its task and its own tool output, nothing of its sibling or of marked notes; the parent gets the filtered results', async () => {
  const prompts: string[] = []
  const answer = (messages: BaseMessage[]) => {
    const prompt = text(messages)
    prompts.push(prompt)
    return new AIMessage(`<thinking>private chain</thinking>\n\n${prompt.includes('parseDate') ? 'parseDate now keeps the timezone offset.' : 'The invoice report is written: 4,210 EUR.'}`)
  }
  const workerModel = fakeModel().respond(answer).respond(answer)
  const parentModel = fakeModel()
    .respondWithTools([
      { name: 'task', args: { description: DATE_TASK, subagent_type: 'date_fixer' }, id: 't1' },
      { name: 'task', args: { description: BILLING_TASK, subagent_type: 'billing_writer' }, id: 't2' },
    ])
    .respond(new AIMessage('Both done.'))
  const result = await orchestrate(parentModel, workerModel, history, [
    { name: 'date_fixer', description: 'Fixes date bugs.', task: DATE_TASK },
    { name: 'billing_writer', description: 'Writes reports.', task: BILLING_TASK },
  ])
  expect(text(result.messages.slice(-1))).toBe('Both done.')

  expect(prompts).toHaveLength(2)
  const date = prompts.find((p) => p.includes(DATE_TASK))
  const billing = prompts.find((p) => p.includes(BILLING_TASK))
  expect(date).toContain('drops the timezone offset')
  expect(date).not.toContain('overdue customers')
  expect(billing).toContain('overdue customers')
  expect(billing).not.toContain('drops the timezone offset')
  for (const p of prompts) {
    expect(p).not.toContain('behind on payments')
    expect(p).not.toContain('private reasoning')
    expect(p).not.toContain('prior conversation')
  }
  const seen = text(parentModel.calls[1]?.messages ?? [])
  expect(seen).toContain('parseDate now keeps the timezone offset.')
  expect(seen).toContain('The invoice report is written')
  expect(seen).not.toContain('private chain')
})
