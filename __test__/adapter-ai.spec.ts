// `subagent-context/ai` against the real AI SDK (`generateText`, its `MockLanguageModelV3`):
// a parent model delegates two sibling tasks through `subagentTool`.
import { generateText, stepCountIs, type ModelMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'

import { aiSdkPromptWithCacheHints, subagentTool, toModelOutput } from '../dist/adapters/ai.js'

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0]
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>

const USAGE = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } }
const answer = (text: string): GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] })

const DATE_TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const BILLING_TASK = 'Write the monthly invoice report from the billing database'
const DATE_OUTPUT = 'export function parseDate(text) { return new Date(text) } // drops the timezone offset'
const BILLING_OUTPUT = 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers'
const NOTE = '[INTERNAL] the client is behind on payments'

const history: ModelMessage[] = [
  { role: 'user', content: `Two jobs. First: ${DATE_TASK}. Second: ${BILLING_TASK}.` },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: `${NOTE}\n\nReading what each job touches.` },
      { type: 'tool-call', toolCallId: 'r1', toolName: 'read_file', input: { path: 'src/date.ts' } },
      { type: 'tool-call', toolCallId: 'r2', toolName: 'query_billing', input: { report: 'monthly invoice report' } },
    ],
  },
  // One result per tool message: a message holding both tasks' results is, as a whole,
  // the sibling's to the core's ownership rule (a known limit, see the README).
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r1', toolName: 'read_file', output: { type: 'text', value: DATE_OUTPUT } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r2', toolName: 'query_billing', output: { type: 'text', value: BILLING_OUTPUT } }] },
]

const text = (call: CallOptions) =>
  call.prompt.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : JSON.stringify(p))).join('\n'))).join('\n')

describe('subagent-context/ai', () => {
  it('a parent delegates two sibling tasks; each subagent sees its own task and tool output only, the parent only the filtered result', async () => {
    const prompts: string[] = []
    const subagentModel = new MockLanguageModelV3({
      doGenerate: async (call) => {
        const prompt = text(call)
        prompts.push(prompt)
        const mine = prompt.includes('parseDate') ? 'parseDate now keeps the timezone offset.' : 'The invoice report is written: 4,210 EUR.'
        return answer(`<thinking>private reasoning</thinking>\n\n${mine}`)
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
    const siblings = [DATE_TASK, BILLING_TASK]
    const delegate = subagentTool({
      description: 'Delegate one self-contained task to a subagent.',
      config: ({ task }) => ({ task, siblingTasks: siblings.filter((t) => t !== task) }),
      run: async ({ prompt, signal }) => generateText({ model: subagentModel, prompt, abortSignal: signal }),
    })
    const result = await generateText({ model: parent, instructions: 'You orchestrate subagents.', messages: history, tools: { delegate }, stopWhen: stepCountIs(2) })
    expect(result.text).toBe('Both done.')

    expect(prompts).toHaveLength(2)
    const datePrompt = prompts.find((p) => p.includes(DATE_TASK))!
    const billingPrompt = prompts.find((p) => p.includes(BILLING_TASK))!
    expect(datePrompt).toContain('drops the timezone offset')
    expect(datePrompt).not.toContain('overdue customers')
    expect(datePrompt).not.toContain(BILLING_TASK)
    expect(billingPrompt).toContain('overdue customers')
    expect(billingPrompt).not.toContain('drops the timezone offset')
    for (const p of prompts) expect(p).not.toContain('behind on payments')

    // The parent's second call holds the filtered outcomes, as text, and nothing else of the subagents.
    const seen = text(parentCalls[1]!)
    expect(seen).toContain('parseDate now keeps the timezone offset.')
    expect(seen).toContain('The invoice report is written')
    expect(seen).not.toContain('private reasoning')
  })

  it('passes the abort signal on: an aborted parent aborts the subagent', async () => {
    let started!: (signal: AbortSignal) => void
    const called = new Promise<AbortSignal>((resolve) => (started = resolve))
    const delegate = subagentTool({
      description: 'Delegate.',
      run: ({ signal }) => {
        started(signal)
        return new Promise(() => {})
      },
    })
    const controller = new AbortController()
    const pending = delegate.execute!({ task: 'Fix parseDate' }, { toolCallId: 'x', messages: history, abortSignal: controller.signal, context: {} })
    const sawSignal = await called
    controller.abort(new Error('user cancelled'))
    const outcome = (await pending) as { success: boolean; error?: { reason: string } }
    expect(sawSignal.aborted).toBe(true)
    expect(outcome.success).toBe(false)
    expect(outcome.error?.reason).toBe('aborted')
  })

  it('toModelOutput: text on success, error-text with the reason otherwise', () => {
    const metrics = {} as never
    expect(toModelOutput({ taskId: 't', success: true, content: 'done', citations: [], metrics })).toEqual({ type: 'text', value: 'done' })
    expect(toModelOutput({ taskId: 't', success: false, content: '', citations: [], error: { reason: 'empty-result', message: 'nothing readable' }, metrics })).toEqual({
      type: 'error-text',
      value: 'subagent failed (empty-result): nothing readable',
    })
  })

  it('refuses a tool without a model call, naming the parameter', () => {
    expect(() => subagentTool({ description: 'x' } as never)).toThrow(/subagentTool: `options.run` must be a function/)
  })
})

describe('aiSdkPromptWithCacheHints', () => {
  it('reaches the model as a cache breakpoint after the shared part and a prompt cache key', async () => {
    const calls: CallOptions[] = []
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        calls.push(options)
        return answer('done')
      },
    })
    const shared = 'Architecture shared by every sibling. '.repeat(20)
    const hints = aiSdkPromptWithCacheHints({ prompt: `${shared}## Your Task\nA.1`, cache: { sharedPrefix: shared, key: 'batch-7' } })
    await generateText({ model, ...hints })
    const user = calls[0]!.prompt.find((m) => m.role === 'user')!
    const parts = user.content as { type: string; text: string; providerOptions?: unknown }[]
    expect(parts[0]!.text).toBe(shared)
    expect(parts[0]!.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } })
    expect(parts[1]!.text).toBe('## Your Task\nA.1')
    expect(calls[0]!.providerOptions).toEqual({ openai: { promptCacheKey: 'batch-7' } })
  })
})
