import { setTracingDisabled, Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents'
import { expect, it } from 'vitest'

import { orchestrate } from './delegate.js'

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'

const thread: AgentInputItem[] = [
  { role: 'user', content: `Two jobs. First: ${DATE_TASK}. Second: ${BILLING_TASK}.` },
  { type: 'reasoning', content: [{ type: 'input_text', text: 'private reasoning about the client' }] },
  { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '[INTERNAL] the client is behind on payments\n\nReading what each job touches.' }] },
  { type: 'function_call', callId: 'r1', name: 'read_file', arguments: '{"path":"src/date.ts"}', status: 'completed' },
  { type: 'function_call_result', callId: 'r1', name: 'read_file', status: 'completed', output: { type: 'text', text: 'export function parseDate(text) { return new Date(text) } // drops the timezone offset' } },
  { type: 'function_call', callId: 'r2', name: 'query_billing', arguments: '{"report":"monthly invoice report"}', status: 'completed' },
  { type: 'function_call_result', callId: 'r2', name: 'query_billing', status: 'completed', output: { type: 'text', text: 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers' } },
]

/** The SDK's Model interface, answering from a script and recording every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = []
  constructor(private readonly answer: (n: number) => ModelResponse['output']) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    return { usage: new Usage(), output: this.answer(this.requests.length) }
  }
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed here')
  }
}

const say = (text: string): ModelResponse['output'] => [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }]
const input = (request: ModelRequest | undefined) => (typeof request?.input === 'string' ? request.input : JSON.stringify(request?.input))

it('each subagent gets its task and its own tool output, nothing of its sibling or of marked notes; the parent gets the filtered results', async () => {
  setTracingDisabled(true)
  const dateModel = new ScriptedModel(() => say('<thinking>private chain</thinking>\n\nparseDate now keeps the timezone offset.'))
  const billingModel = new ScriptedModel(() => say('<thinking>private chain</thinking>\n\nThe invoice report is written: 4,210 EUR.'))
  const parentModel = new ScriptedModel((n) =>
    n === 1
      ? [
          { type: 'function_call', callId: 'd1', name: 'date_fixer', arguments: JSON.stringify({ input: DATE_TASK }), status: 'completed' },
          { type: 'function_call', callId: 'd2', name: 'billing_writer', arguments: JSON.stringify({ input: BILLING_TASK }), status: 'completed' },
        ]
      : say('Both done.'),
  )
  const result = await orchestrate(parentModel, thread, [
    { name: 'date_fixer', description: 'Fixes date bugs.', task: DATE_TASK, model: dateModel },
    { name: 'billing_writer', description: 'Writes reports.', task: BILLING_TASK, model: billingModel },
  ])
  expect(result.finalOutput).toBe('Both done.')

  const date = input(dateModel.requests[0])
  const billing = input(billingModel.requests[0])
  expect(date).toContain(DATE_TASK)
  expect(date).toContain('drops the timezone offset')
  expect(date).not.toContain('overdue customers')
  expect(billing).toContain(BILLING_TASK)
  expect(billing).toContain('overdue customers')
  expect(billing).not.toContain('drops the timezone offset')
  for (const p of [date, billing]) {
    expect(p).not.toContain('behind on payments')
    expect(p).not.toContain('private reasoning')
  }
  const seen = input(parentModel.requests[1])
  expect(seen).toContain('parseDate now keeps the timezone offset.')
  expect(seen).toContain('The invoice report is written')
  expect(seen).not.toContain('private chain')
})
