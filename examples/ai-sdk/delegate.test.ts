import type { ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { expect, it } from 'vitest'

import { orchestrate } from './delegate.js'

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0]
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } }
const answer = (text: string): GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] })
const text = (call: CallOptions) =>
  call.prompt.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : JSON.stringify(p))).join('\n'))).join('\n')

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'

const history: ModelMessage[] = [
  { role: 'user', content: `Two jobs. First: ${DATE_TASK}. Second: ${BILLING_TASK}.` },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'private reasoning about the client' },
      { type: 'text', text: '[INTERNAL] the client is behind on payments\n\nReading what each job touches.' },
      { type: 'tool-call', toolCallId: 'r1', toolName: 'read_file', input: { path: 'src/date.ts' } },
      { type: 'tool-call', toolCallId: 'r2', toolName: 'query_billing', input: { report: 'monthly invoice report' } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r1', toolName: 'read_file', output: { type: 'text', value: 'export function parseDate(text) { return new Date(text) } // drops the timezone offset' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r2', toolName: 'query_billing', output: { type: 'text', value: 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers' } }] },
]

it('each subagent gets its task and its own tool output, nothing of its sibling or of marked notes; the parent gets the filtered results', async () => {
  const prompts: string[] = []
  const subagent = new MockLanguageModelV3({
    doGenerate: async (call) => {
      const prompt = text(call)
      prompts.push(prompt)
      return answer(`<thinking>private chain</thinking>\n\n${prompt.includes('parseDate') ? 'parseDate now keeps the timezone offset.' : 'The invoice report is written: 4,210 EUR.'}`)
    },
  })
  const parentCalls: CallOptions[] = []
  const parent = new MockLanguageModelV3({
    doGenerate: async (call) => {
      parentCalls.push(call)
      if (parentCalls.length > 1) return answer('Both done.')
      return {
        content: [
          { type: 'tool-call', toolCallId: 'd1', toolName: 'delegate', input: JSON.stringify({ task: DATE_TASK }) },
          { type: 'tool-call', toolCallId: 'd2', toolName: 'delegate', input: JSON.stringify({ task: BILLING_TASK }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      }
    },
  })
  const result = await orchestrate(parent, subagent, history, [DATE_TASK, BILLING_TASK])
  expect(result.text).toBe('Both done.')

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
  }
  const seen = text(parentCalls[1])
  expect(seen).toContain('parseDate now keeps the timezone offset.')
  expect(seen).toContain('The invoice report is written')
  expect(seen).not.toContain('private chain')
})
