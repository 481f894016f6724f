// `subagent-context/openai-agents` against the real OpenAI Agents SDK, its `Model`
// interface implemented by a fake model that records what it is sent.
import { Agent, handoff, run, setTracingDisabled, Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents'
import { beforeAll, describe, expect, it } from 'vitest'

import { isolatedAgentTool, isolatingInputFilter } from '../dist/adapters/openai-agents.js'

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'
const DATE_OUTPUT = 'export function parseDate(text) { return new Date(text) } // drops the timezone offset'
const BILLING_OUTPUT = 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers'
const NOTE = '[INTERNAL] the client is behind on payments'

/** The parent's history: both tasks' tool work, a marked note and a reasoning item. */
const history = (): AgentInputItem[] => [
  { role: 'user', content: `Two jobs. First: ${DATE_TASK}. Second: ${BILLING_TASK}.` },
  { type: 'reasoning', content: [{ type: 'input_text', text: 'private reasoning about the client' }] },
  { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `${NOTE}\n\nReading what each job touches.` }] },
  { type: 'function_call', callId: 'r1', name: 'read_file', arguments: '{"path":"src/date.ts"}', status: 'completed' },
  { type: 'function_call_result', callId: 'r1', name: 'read_file', status: 'completed', output: { type: 'text', text: DATE_OUTPUT } },
  { type: 'function_call', callId: 'r2', name: 'query_billing', arguments: '{"report":"monthly invoice report"}', status: 'completed' },
  { type: 'function_call_result', callId: 'r2', name: 'query_billing', status: 'completed', output: { type: 'text', text: BILLING_OUTPUT } },
]

/** A model that answers from a script and records every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = []
  constructor(private readonly answer: (request: ModelRequest, n: number) => ModelResponse['output']) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    return { usage: new Usage(), output: this.answer(request, this.requests.length) }
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests')
  }
}

const say = (text: string): ModelResponse['output'] => [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }]
const call = (callId: string, name: string, args: object) => ({ type: 'function_call' as const, callId, name, arguments: JSON.stringify(args), status: 'completed' as const })
const inputText = (request: ModelRequest) => (typeof request.input === 'string' ? request.input : JSON.stringify(request.input))

beforeAll(() => setTracingDisabled(true))

describe('subagent-context/openai-agents', () => {
  it('isolatedAgentTool: two sibling subagents each see their task and own tool output only; the parent sees the filtered results', async () => {
    const subModel = (mine: string) => new ScriptedModel(() => say(`<thinking>private chain</thinking>\n\n${mine}`))
    const dateModel = subModel('parseDate now keeps the timezone offset.')
    const billingModel = subModel('The invoice report is written: 4,210 EUR.')
    const thread = history()
    const tools = [
      isolatedAgentTool(new Agent({ name: 'date_fixer', model: dateModel }), { toolDescription: 'Fixes date bugs.', history: () => thread, config: (task) => ({ task, siblingTasks: [BILLING_TASK] }) }),
      isolatedAgentTool(new Agent({ name: 'billing_writer', model: billingModel }), { toolDescription: 'Writes reports.', history: () => thread, config: (task) => ({ task, siblingTasks: [DATE_TASK] }) }),
    ]
    const parentModel = new ScriptedModel((_, n) => (n === 1 ? [call('d1', 'date_fixer', { input: DATE_TASK }), call('d2', 'billing_writer', { input: BILLING_TASK })] : say('Both done.')))
    const result = await run(new Agent({ name: 'parent', model: parentModel, tools }), thread)
    expect(result.finalOutput).toBe('Both done.')

    const datePrompt = inputText(dateModel.requests[0]!)
    const billingPrompt = inputText(billingModel.requests[0]!)
    expect(datePrompt).toContain(DATE_TASK)
    expect(datePrompt).toContain('drops the timezone offset')
    expect(datePrompt).not.toContain('overdue customers')
    expect(billingPrompt).toContain(BILLING_TASK)
    expect(billingPrompt).toContain('overdue customers')
    expect(billingPrompt).not.toContain('drops the timezone offset')
    for (const p of [datePrompt, billingPrompt]) {
      expect(p).not.toContain('behind on payments')
      expect(p).not.toContain('private reasoning')
    }
    const seen = inputText(parentModel.requests[1]!)
    expect(seen).toContain('parseDate now keeps the timezone offset.')
    expect(seen).toContain('The invoice report is written')
    expect(seen).not.toContain('private chain')
  })

  it('isolatingInputFilter: the handoff target gets its task and own tool output, not the sibling’s, nor marked or reasoning items', async () => {
    const dateModel = new ScriptedModel(() => say('parseDate fixed.'))
    const dateAgent = new Agent({ name: 'date_fixer', model: dateModel })
    const parentModel = new ScriptedModel(() => [call('h1', 'transfer_to_date_fixer', {})])
    const parent = Agent.create({
      name: 'parent',
      model: parentModel,
      handoffs: [handoff(dateAgent, { inputFilter: isolatingInputFilter({ task: () => DATE_TASK, siblingTasks: [BILLING_TASK] }) })],
    })
    const result = await run(parent, history())
    expect(result.finalOutput).toBe('parseDate fixed.')
    const seen = inputText(dateModel.requests[0]!)
    expect(seen).toContain(DATE_TASK)
    expect(seen).toContain('drops the timezone offset')
    expect(seen).not.toContain('overdue customers')
    expect(seen).not.toContain('behind on payments')
    expect(seen).not.toContain('private reasoning')
  })

  it('refuses what is not an agent, naming the parameter', () => {
    expect(() => isolatedAgentTool({} as never)).toThrow(/isolatedAgentTool: `agent` must be an Agent/)
    expect(() => isolatingInputFilter({ task: 'x' } as never)).toThrow(/isolatingInputFilter: `options.task` must be a function/)
  })
})
