// Real framework message types are accepted without casts: this file is type-checked
// strictly by `npm run lint` (tsc -p __test__), and each case also runs.
import type { AIMessage as LangChainAIMessage, BaseMessage } from '@langchain/core/messages'
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { Agent, RunMessageOutputItem, RunReasoningItem, RunToolCallItem, RunToolCallOutputItem, type AgentInputItem, type RunItem } from '@openai/agents'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { Content } from '@google/genai'
import type { ModelMessage, UIMessage } from 'ai'
import type { ResponseInputItem } from 'openai/resources/responses/responses'
import { describe, expect, it } from 'vitest'

import { countMessageTokens, countTokens, createIsolatedContext, extractRelevantContext, filterSubagentResult, spawnSubagent, type Message } from '../dist/index.js'

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

  it('Anthropic MessageParam[] with documents, search results, server tools and MCP', () => {
    const PAGE = 'The offset of an ISO date is dropped by new Date(text) in some engines; parse it apart.'
    const messages: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: OUTPUT }, title: 'src/date.ts', context: 'the file as it is' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' }, title: 'A PDF by address' },
          { type: 'text', text: TASK },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 's1', name: 'web_fetch', input: { url: 'https://example.com/dates' } },
          { type: 'web_fetch_tool_result', tool_use_id: 's1', content: { type: 'web_fetch_result', url: 'https://example.com/dates', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: PAGE }, title: 'Dates' } } },
          { type: 'server_tool_use', id: 's2', name: 'bash_code_execution', input: { command: 'node -e "new Date(\'2024-01-01T00:00+02:00\')"' } },
          { type: 'bash_code_execution_tool_result', tool_use_id: 's2', content: { type: 'bash_code_execution_result', stdout: 'offset lost: 2023-12-31T22:00Z', stderr: '', return_code: 0, content: [] } },
          { type: 'tool_use', id: 't1', name: 'search_docs', input: { query: 'date offset' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'search_result', source: 'https://example.com/tz', title: 'Time zones', content: [{ type: 'text', text: 'Keep the offset when you parse a date.' }] }] }],
      },
    ]
    const count = countMessageTokens(messages)
    expect(count).toBeGreaterThan(countTokens(OUTPUT) + countTokens(PAGE))
    // Every block with text is read (a document under its title, a search result under its
    // title and source); the PDF by address has none.
    const r = extractRelevantContext(messages, `${TASK}: the date offset is lost`, { minRelevance: 0 })
    for (const text of [OUTPUT, PAGE, 'offset lost: 2023', 'Keep the offset', '# src/date.ts', '# Time zones\nhttps://example.com/tz']) expect(r.relevantContext).toContain(text)
    expect(r.relevantContext).not.toContain('A PDF by address')
    const kept: MessageParam[] | undefined = r.relevantMessages
    expect(kept).toHaveLength(3)
  })

  it('Anthropic beta blocks: MCP calls and results, a web search and its error', () => {
    const messages: Message[] = [
      { role: 'user', content: TASK },
      {
        role: 'assistant',
        content: [
          { type: 'mcp_tool_use', id: 'm1', name: 'read_file', input: { path: 'src/date.ts' } },
          { type: 'mcp_tool_result', tool_use_id: 'm1', content: [{ type: 'text', text: OUTPUT }] },
          { type: 'server_tool_use', id: 'w1', name: 'web_search', input: { query: 'parseDate offset' } },
          { type: 'web_search_tool_result', tool_use_id: 'w1', content: [{ type: 'web_search_result', title: 'parseDate and offsets', url: 'https://example.com/parse', encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2' }] },
          { type: 'server_tool_use', id: 'w2', name: 'web_search', input: { query: 'parseDate src/date.ts' } },
          { type: 'web_search_tool_result', tool_use_id: 'w2', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
        ],
      },
    ]
    const text = extractRelevantContext(messages, TASK, { minRelevance: 0 }).relevantContext
    for (const t of [OUTPUT, 'parseDate and offsets\nhttps://example.com/parse', 'error: max_uses_exceeded']) expect(text).toContain(t)
    expect(text).not.toContain('EqgfCioI')
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
