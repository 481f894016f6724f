// Real framework message types are accepted without casts: this file is type-checked
// strictly by `npm run lint` (tsc -p __test__), and each case also runs.
import type { AIMessage as LangChainAIMessage, BaseMessage } from '@langchain/core/messages'
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { Agent, RunMessageOutputItem, RunReasoningItem, RunToolCallItem, RunToolCallOutputItem, type AgentInputItem, type RunItem } from '@openai/agents'
import type { Content } from '@google/genai'
import type { ModelMessage, UIMessage } from 'ai'
import type { ResponseInputItem } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'

import { countMessageTokens, countTokens, createIsolatedContext, extractRelevantContext, filterSubagentResult, spawnSubagent } from '../dist/index.js'

const TASK = 'Fix parseDate in src/date.ts'
const OUTPUT = 'export function parseDate(text) { return new Date(text) } // drops the offset'

describe('framework types, assigned without casts', () => {
  it('AI SDK ModelMessage[] (v7 parts: image, file, custom, reasoning, approvals)', () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: [{ type: 'text', text: TASK }, { type: 'image', image: new Uint8Array([1, 2]) }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Look at the file first.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'src/date.ts' } },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
          { type: 'custom', kind: 'openai.compaction' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'a1', approved: true },
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: OUTPUT } },
        ],
      },
      { role: 'assistant', content: 'parseDate drops the offset.' },
    ]
    expect(countMessageTokens(messages)).toBeGreaterThan(countTokens(OUTPUT))
    const r = extractRelevantContext(messages, TASK)
    const kept: ModelMessage[] | undefined = r.relevantMessages
    expect(kept?.some((m) => JSON.stringify(m).includes('drops the offset'))).toBe(true)
    expect(createIsolatedContext({ task: TASK }, messages).isolatedContext.relevantContext).toContain('drops the offset')
  })

  it('AI SDK UIMessage[]', async () => {
    const messages: UIMessage[] = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: TASK }] },
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'Look at the file first.' },
          { type: 'dynamic-tool', toolName: 'read_file', toolCallId: 'c1', state: 'output-available', input: { path: 'src/date.ts' }, output: OUTPUT },
          { type: 'text', text: 'parseDate drops the offset.' },
        ],
      },
    ]
    expect(countMessageTokens(messages)).toBeGreaterThan(countTokens(OUTPUT))
    const outcome = await spawnSubagent({ task: TASK }, { run: async () => messages })
    expect(outcome.content).toContain('parseDate drops the offset.')
  })

  it('Google Gemini Content[] (@google/genai)', () => {
    const contents: Content[] = [
      { role: 'user', parts: [{ text: TASK }] },
      { role: 'model', parts: [{ text: 'Look at the file first.', thought: true }, { functionCall: { id: 'c1', name: 'read_file', args: { path: 'src/date.ts' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: OUTPUT } } }] },
      { role: 'model', parts: [{ text: 'parseDate drops the offset.' }] },
    ]
    expect(countMessageTokens(contents)).toBeGreaterThan(countTokens(OUTPUT))
    const r = extractRelevantContext(contents, TASK)
    const kept: Content[] | undefined = r.relevantMessages
    expect(kept?.some((m) => JSON.stringify(m).includes('drops the offset'))).toBe(true)
    expect(r.relevantContext).not.toContain('Look at the file first.')
    expect(filterSubagentResult(contents, TASK).content).toContain('parseDate drops the offset.')
  })

  it('OpenAI Responses API ResponseInputItem[]', () => {
    const items: ResponseInputItem[] = [
      { role: 'user', content: [{ type: 'input_text', text: TASK }] },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"src/date.ts"}' },
      { type: 'function_call_output', call_id: 'c1', output: OUTPUT },
      { type: 'reasoning', id: 'r1', summary: [{ type: 'summary_text', text: 'Done reading.' }] },
    ]
    expect(extractRelevantContext(items, TASK).relevantContext).toContain('drops the offset')
  })

  it('OpenAI Agents AgentInputItem[] and RunItem[]', () => {
    const items: AgentInputItem[] = [
      { role: 'user', content: TASK },
      { type: 'function_call', callId: 'c1', name: 'read_file', arguments: '{"path":"src/date.ts"}' },
      { type: 'function_call_result', callId: 'c1', name: 'read_file', status: 'completed', output: { type: 'text', text: OUTPUT } },
    ]
    expect(filterSubagentResult(items, TASK).content).toBe('')
    const agent = new Agent({ name: 'fixer' })
    const runItems: RunItem[] = [
      new RunReasoningItem({ type: 'reasoning', content: [{ type: 'input_text', text: 'Read it.' }] }, agent),
      new RunToolCallItem({ type: 'function_call', callId: 'c1', name: 'read_file', arguments: '{"path":"src/date.ts"}' }, agent),
      new RunToolCallOutputItem({ type: 'function_call_result', callId: 'c1', name: 'read_file', status: 'completed', output: { type: 'text', text: OUTPUT } }, agent, OUTPUT),
      new RunMessageOutputItem({ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'parseDate drops the offset.' }] }, agent),
    ]
    expect(countMessageTokens(runItems)).toBeGreaterThan(countTokens(OUTPUT))
    expect(filterSubagentResult(runItems, TASK).content).toBe('parseDate drops the offset.')
  })

  it('LangChain BaseMessage[] with a thinking block counted', () => {
    const withThinking: LangChainAIMessage = new AIMessage({ content: [{ type: 'thinking', thinking: 'A long private chain of thought about offsets.' }, { type: 'text', text: 'parseDate drops the offset.' }] })
    const messages: BaseMessage[] = [
      new HumanMessage(TASK),
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'src/date.ts' } }] }),
      new ToolMessage({ content: OUTPUT, tool_call_id: 'c1' }),
      withThinking,
    ]
    const without: BaseMessage[] = [...messages.slice(0, 3), new AIMessage({ content: [{ type: 'text', text: 'parseDate drops the offset.' }] })]
    expect(countMessageTokens(messages) - countMessageTokens(without)).toBe(countTokens('A long private chain of thought about offsets.'))
    const r = extractRelevantContext(messages, TASK, { keepRecent: 1 })
    expect(r.relevantContext).not.toContain('private chain')
  })
})
