// Black-box checks of the formats that are not chat messages with `content`: OpenAI
// Responses API items, OpenAI Agents JS items, AI SDK UI messages, Gemini `Content`, and of
// chat messages whose parts are no one else's (Bedrock Converse, Cohere v2). Each thread holds two
// tasks' work (this task: parseDate; the sibling: the invoice report) and a reasoning note.
import { describe, expect, it } from 'vitest'

import { countMessageTokens, countTokens, createIsolatedContext, extractRelevantContext, filterSubagentResult, spawnSubagent, type AnyMessage, type Message } from '../dist/index.js'

const TASK = 'Fix the timezone bug in parseDate in src/date.ts'
const SIBLING = 'Write the monthly invoice report from the billing database'
const OWN_OUTPUT = 'export function parseDate(text) { return new Date(text) } // drops the timezone offset'
const SIBLING_OUTPUT = 'billing rows: 17 invoices, 4,210 EUR total, 3 overdue customers'
const REASONING = 'Private musing: the user seems impatient, hurry up.'
const ANSWER = 'parseDate drops the timezone offset; src/date.ts now keeps it.'

const responses = (): Message[] => [
  { role: 'user', content: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: REASONING }] },
  { type: 'function_call', call_id: 'call_date', name: 'read_file', arguments: '{"path":"src/date.ts"}' },
  { type: 'function_call_output', call_id: 'call_date', output: OWN_OUTPUT },
  { type: 'function_call', call_id: 'call_bill', name: 'query_billing', arguments: '{"table":"invoices","report":"monthly invoice report"}' },
  { type: 'function_call_output', call_id: 'call_bill', output: SIBLING_OUTPUT },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ANSWER }] },
]

const agents = (): Message[] => [
  { role: 'user', content: [{ type: 'input_text', text: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }] },
  { type: 'reasoning', content: [{ type: 'input_text', text: REASONING }] },
  { type: 'function_call', callId: 'call_date', name: 'read_file', arguments: '{"path":"src/date.ts"}' },
  { type: 'function_call_result', callId: 'call_date', name: 'read_file', status: 'completed', output: { type: 'text', text: OWN_OUTPUT } },
  { type: 'function_call', callId: 'call_bill', name: 'query_billing', arguments: '{"table":"invoices","report":"monthly invoice report"}' },
  { type: 'function_call_result', callId: 'call_bill', name: 'query_billing', status: 'completed', output: { type: 'text', text: SIBLING_OUTPUT } },
  { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: ANSWER }] },
]

const ui = (): Message[] => [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'step-start' }, { type: 'reasoning', text: REASONING }, { type: 'tool-readFile', toolCallId: 't_date', state: 'output-available', input: { path: 'src/date.ts' }, output: OWN_OUTPUT }],
  },
  {
    id: 'a2',
    role: 'assistant',
    parts: [{ type: 'dynamic-tool', toolName: 'queryBilling', toolCallId: 't_bill', state: 'output-available', input: { report: 'monthly invoice report' }, output: SIBLING_OUTPUT }],
  },
  { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: ANSWER }, { type: 'source-url', sourceId: 's1', url: 'https://example.com/tz', title: 'Timezones' }] },
]

// Gemini: the own call carries an id (as the API gives one now), the sibling's does not
// (tied to its response by name and order).
const gemini = (): Message[] => [
  { role: 'user', parts: [{ text: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }] },
  { role: 'model', parts: [{ text: REASONING, thought: true }, { functionCall: { id: 'call_date', name: 'read_file', args: { path: 'src/date.ts' } } }] },
  { role: 'user', parts: [{ functionResponse: { id: 'call_date', name: 'read_file', response: { output: OWN_OUTPUT } } }] },
  { role: 'model', parts: [{ functionCall: { name: 'query_billing', args: { table: 'invoices', report: 'monthly invoice report' } } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'query_billing', response: { result: SIBLING_OUTPUT } } }] },
  { role: 'model', parts: [{ text: ANSWER }] },
]

// Bedrock Converse: blocks without a type, one member each; the sibling's result also holds a `json` block.
const bedrock = (): Message[] => [
  { role: 'user', content: [{ text: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }] },
  { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: REASONING, signature: 'c2ln' } } }, { toolUse: { toolUseId: 'call_date', name: 'read_file', input: { path: 'src/date.ts' } } }] },
  { role: 'user', content: [{ toolResult: { toolUseId: 'call_date', content: [{ text: OWN_OUTPUT }], status: 'success' } }] },
  { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_bill', name: 'query_billing', input: { table: 'invoices', report: 'monthly invoice report' } } }] },
  { role: 'user', content: [{ toolResult: { toolUseId: 'call_bill', content: [{ text: SIBLING_OUTPUT }, { json: { overdue: 3 } }], status: 'success' } }] },
  { role: 'assistant', content: [{ text: ANSWER }] },
]

// Cohere v2: the assistant's `tool_plan` is its reasoning; tools answer with `document` parts.
const cohere = (): Message[] => [
  { role: 'user', content: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` },
  { role: 'assistant', tool_plan: REASONING, tool_calls: [{ id: 'call_date', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/date.ts"}' } }] },
  { role: 'tool', tool_call_id: 'call_date', content: [{ type: 'document', document: { id: 'doc_1', data: OWN_OUTPUT } }] },
  { role: 'assistant', tool_calls: [{ id: 'call_bill', type: 'function', function: { name: 'query_billing', arguments: '{"report":"monthly invoice report"}' } }] },
  { role: 'tool', tool_call_id: 'call_bill', content: [{ type: 'document', document: { id: 'doc_2', data: SIBLING_OUTPUT } }] },
  { role: 'assistant', content: [{ type: 'text', text: ANSWER }] },
]

// Pydantic AI (`ModelMessagesTypeAdapter.dump_python(mode='json')`): messages of a kind, not a
// role; parts of a `part_kind`, read by their fields (a tool's name with its arguments is a call).
const PYDANTIC_AT = '2026-11-27T04:00:00Z'
const pydanticAi = (): Message[] => [
  { kind: 'request', parts: [{ content: `Two jobs. First: ${TASK}. Second: ${SIBLING}.`, timestamp: PYDANTIC_AT, part_kind: 'user-prompt' }] },
  { kind: 'response', model_name: 'gpt-4o', parts: [{ content: REASONING, part_kind: 'thinking' }, { tool_name: 'read_file', args: '{"path":"src/date.ts"}', tool_call_id: 'call_date', part_kind: 'tool-call' }] },
  { kind: 'request', parts: [{ tool_name: 'read_file', content: OWN_OUTPUT, tool_call_id: 'call_date', timestamp: PYDANTIC_AT, part_kind: 'tool-return' }] },
  { kind: 'response', model_name: 'gpt-4o', parts: [{ tool_name: 'query_billing', args: { report: 'monthly invoice report' }, tool_call_id: 'call_bill', part_kind: 'tool-call' }] },
  { kind: 'request', parts: [{ tool_name: 'query_billing', content: SIBLING_OUTPUT, tool_call_id: 'call_bill', timestamp: PYDANTIC_AT, part_kind: 'tool-return' }] },
  { kind: 'response', model_name: 'gpt-4o', parts: [{ content: ANSWER, part_kind: 'text' }] },
]

// LlamaIndex `ChatMessage`s: `blocks` of a `block_type`; a tool message names its call in `additional_kwargs`.
const llamaindex = (): Message[] => [
  { role: 'user', additional_kwargs: {}, blocks: [{ block_type: 'text', text: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }] },
  { role: 'assistant', additional_kwargs: {}, blocks: [{ block_type: 'thinking', content: REASONING }, { block_type: 'tool_call', tool_call_id: 'call_date', tool_name: 'read_file', tool_kwargs: { path: 'src/date.ts' } }] },
  { role: 'tool', additional_kwargs: { tool_call_id: 'call_date' }, blocks: [{ block_type: 'text', text: OWN_OUTPUT }] },
  { role: 'assistant', additional_kwargs: {}, blocks: [{ block_type: 'tool_call', tool_call_id: 'call_bill', tool_name: 'query_billing', tool_kwargs: { report: 'monthly invoice report' } }] },
  { role: 'tool', additional_kwargs: { tool_call_id: 'call_bill' }, blocks: [{ block_type: 'text', text: SIBLING_OUTPUT }] },
  { role: 'assistant', additional_kwargs: {}, blocks: [{ block_type: 'text', text: ANSWER }] },
]

const FORMATS = {
  'Responses API items': responses,
  'OpenAI Agents items': agents,
  'AI SDK UI messages': ui,
  'Gemini Content': gemini,
  'Bedrock Converse messages': bedrock,
  'Cohere v2 messages': cohere,
  'Pydantic AI messages': pydanticAi,
  'LlamaIndex messages': llamaindex,
}

/**
 * Every text an item carries (deep), with a copy of the item where that text is emptied.
 * Labels, ids and states are not text; strings inside a structured tool input are counted
 * with their JSON, not alone, so they are left to the JSON's own check.
 */
function texts(root: unknown): { text: string; emptied: () => unknown }[] {
  const out: { text: string; emptied: () => unknown }[] = []
  const walk = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') {
      const key = path[path.length - 1]
      if (value === '' || NOT_TEXT.has(String(key)) || ['input', 'args', 'tool_kwargs', 'json'].some((k) => path.includes(k))) return
      out.push({
        text: value,
        emptied: () => {
          const copy = structuredClone(root) as Record<string | number, unknown>
          let at = copy
          for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>
          at[key!] = ''
          return copy
        },
      })
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, Array.isArray(value) ? Number(k) : k])
    }
  }
  walk(root, [])
  return out
}

/** Fields that are labels, ids or states, not text a model reads. */
const NOT_TEXT = new Set(['type', 'id', 'call_id', 'callId', 'toolCallId', 'tool_call_id', 'toolUseId', 'status', 'state', 'sourceId', 'role', 'name', 'toolName', 'url', 'signature',
  'kind', 'part_kind', 'block_type', 'tool_name', 'timestamp', 'model_name'])

describe.each(Object.entries(FORMATS))('%s', (_, thread) => {
  it('count every text they carry: emptying any one lowers the count by its tokens', () => {
    const full = countMessageTokens(thread())
    let checked = 0
    for (const [i, item] of thread().entries()) {
      for (const { text, emptied } of texts(item)) {
        const copy = thread()
        copy[i] = emptied() as Message
        expect(full - countMessageTokens(copy), `${JSON.stringify(text)} in item ${i}`).toBe(countTokens(text))
        checked++
      }
    }
    // The request, the reasoning, both outputs and the answer at least.
    expect(checked).toBeGreaterThanOrEqual(5)
  })

  it('extraction keeps the task’s own tool output, not the sibling’s, nor the reasoning', () => {
    const items = thread()
    const r = extractRelevantContext(items, TASK, { siblingTasks: [SIBLING], audit: true })
    expect(r.relevantContext).toContain('drops the timezone offset')
    expect(r.relevantContext).not.toContain('overdue customers')
    expect(r.relevantContext).not.toContain('impatient')
    expect(r.dropped?.some((d) => d.reason === 'internal')).toBe(true)
    const kept = r.relevantMessages ?? []
    // The caller's own objects; one that held reasoning is a copy without it.
    for (const m of kept) {
      if (items.includes(m)) continue
      const id = (o: Message) => (o as { id?: string }).id
      const original = items.find((o) => id(o) === id(m) && JSON.stringify(o).includes(REASONING))
      expect(original).toBeDefined()
      expect(JSON.stringify(m)).not.toContain(REASONING)
    }
    expect(kept.filter((m) => items.includes(m)).length).toBeGreaterThan(0)
    expect(kept.some((m) => JSON.stringify(m).includes(OWN_OUTPUT))).toBe(true)
    expect(kept.some((m) => JSON.stringify(m).includes(SIBLING_OUTPUT))).toBe(false)
    expect(kept.some((m) => JSON.stringify(m).includes(REASONING))).toBe(false)
  })

  it('a call and its output are kept together', () => {
    const items = thread()
    const kept = extractRelevantContext(items, TASK, { siblingTasks: [SIBLING] }).relevantMessages ?? []
    const ids = (m: Message) => JSON.stringify(m).match(/"(call_date|t_date)"/g)?.length ?? 0
    const total = kept.reduce((n, m) => n + ids(m), 0)
    // Either the call and the output (two mentions), or the UI part that holds both.
    expect(total === 2 || kept.some((m) => 'parts' in m && ids(m) === 1)).toBe(true)
  })

  it('isolation keeps the task’s own tool output, not the sibling’s', () => {
    const { isolatedContext } = createIsolatedContext({ task: TASK, siblingTasks: [SIBLING] }, thread())
    expect(isolatedContext.relevantContext).toContain('drops the timezone offset')
    expect(isolatedContext.relevantContext).not.toContain('overdue customers')
    expect(isolatedContext.relevantContext).not.toContain('impatient')
  })

  it('a run answering with such a history succeeds with its text', async () => {
    const outcome = await spawnSubagent({ task: TASK }, { run: async () => thread() })
    expect(outcome.success).toBe(true)
    expect(outcome.content).toContain('parseDate drops the timezone offset')
    expect(filterSubagentResult(thread(), TASK).content).toContain('parseDate drops the timezone offset')
  })

  it('an answer with no readable text does not succeed', async () => {
    const unreadable = thread().slice(1, -1) // reasoning and tool work, no answer
    const outcome = await spawnSubagent({ task: TASK }, { run: async () => unreadable })
    expect(outcome.success).toBe(false)
    expect(outcome.error?.reason).toBe('empty-result')
  })

  it('never mutates its input', () => {
    const items = thread()
    const before = structuredClone(items)
    extractRelevantContext(items, TASK, { siblingTasks: [SIBLING], keepRecent: 3 })
    createIsolatedContext({ task: TASK, siblingTasks: [SIBLING] }, items)
    expect(items).toEqual(before)
  })
})

// Stored, logged and flat forms: an AI SDK v4 UI message's `toolInvocations`, Mastra's stored
// messages (the UI parts inside `content`), AG-UI's camelCase messages (`toolCalls`,
// `toolCallId`), a Claude Code transcript's rows (`{ type, message }`), LangGraph's flat
// LangChain messages (`{ type: 'human' | 'ai' | 'tool', content, … }`).
const REQUEST = `Two jobs. First: ${TASK}. Second: ${SIBLING}.`
const invocation = (toolCallId: string, toolName: string, args: object, result: string) => ({ state: 'result', toolCallId, toolName, args, result })
const STORED: Record<string, () => AnyMessage[]> = {
  'AI SDK v4 UI messages': () => [
    { id: 'u1', role: 'user', content: REQUEST },
    { id: 'a1', role: 'assistant', content: '', toolInvocations: [invocation('call_date', 'readFile', { path: 'src/date.ts' }, OWN_OUTPUT)] },
    { id: 'a2', role: 'assistant', content: '', toolInvocations: [invocation('call_bill', 'queryBilling', { report: 'monthly invoice report' }, SIBLING_OUTPUT)] },
    { id: 'a3', role: 'assistant', content: ANSWER },
  ],
  'Mastra stored messages': () => [
    { id: 'm1', role: 'user', content: { format: 2, parts: [{ type: 'text', text: REQUEST }] } },
    { id: 'm2', role: 'assistant', content: { format: 2, parts: [{ type: 'step-start' }, { type: 'tool-invocation', toolInvocation: invocation('call_date', 'readFile', { path: 'src/date.ts' }, OWN_OUTPUT) }] } },
    { id: 'm3', role: 'assistant', content: { format: 2, parts: [{ type: 'tool-invocation', toolInvocation: invocation('call_bill', 'queryBilling', { report: 'monthly invoice report' }, SIBLING_OUTPUT) }] } },
    { id: 'm4', role: 'assistant', content: { format: 2, parts: [{ type: 'text', text: ANSWER }] } },
  ],
  'Claude Code transcript rows': () => [
    { type: 'user', message: { role: 'user', content: REQUEST } },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'call_date', name: 'Read', input: { file_path: 'src/date.ts' } }] } },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_date', content: OWN_OUTPUT }] } },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'call_bill', name: 'Bash', input: { command: 'psql -c "select * from invoices" # monthly invoice report' } }] } },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_bill', content: SIBLING_OUTPUT }] } },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: ANSWER }] } },
  ],
  'AG-UI messages': () => [
    { id: 'u1', role: 'user', content: REQUEST },
    { id: 'a1', role: 'assistant', toolCalls: [{ id: 'call_date', type: 'function', function: { name: 'readFile', arguments: '{"path":"src/date.ts"}' } }] },
    { id: 't1', role: 'tool', toolCallId: 'call_date', content: OWN_OUTPUT },
    { id: 'a2', role: 'assistant', toolCalls: [{ id: 'call_bill', type: 'function', function: { name: 'queryBilling', arguments: '{"report":"monthly invoice report"}' } }] },
    { id: 't2', role: 'tool', toolCallId: 'call_bill', content: SIBLING_OUTPUT },
    { id: 'a3', role: 'assistant', content: ANSWER },
  ],
  'OpenAI legacy functions': () => [
    { role: 'user', content: REQUEST },
    { role: 'assistant', content: null, function_call: { name: 'read_file', arguments: '{"path":"src/date.ts"}' } },
    { role: 'function', name: 'read_file', content: OWN_OUTPUT },
    { role: 'assistant', content: null, function_call: { name: 'query_billing', arguments: '{"report":"monthly invoice report"}' } },
    { role: 'function', name: 'query_billing', content: SIBLING_OUTPUT },
    { role: 'assistant', content: ANSWER },
  ],
  'LangGraph flat messages': () => [
    { type: 'human', content: REQUEST },
    { type: 'ai', content: '', tool_calls: [{ id: 'call_date', name: 'read_file', args: { path: 'src/date.ts' } }] },
    { type: 'tool', content: OWN_OUTPUT, tool_call_id: 'call_date', name: 'read_file' },
    { type: 'ai', content: '', tool_calls: [{ id: 'call_bill', name: 'query_billing', args: { report: 'monthly invoice report' } }] },
    { type: 'tool', content: SIBLING_OUTPUT, tool_call_id: 'call_bill', name: 'query_billing' },
    { type: 'ai', content: ANSWER },
  ],
}

it('AG-UI’s camelCase calls are read and kept with their results', () => {
  const items = STORED['AG-UI messages']!()
  const r = extractRelevantContext(items, TASK, { siblingTasks: [SIBLING] })
  expect(r.relevantContext).toContain('→ readFile {"path":"src/date.ts"}')
  expect(r.relevantMessages).toContain(items[1])
  expect(r.relevantMessages).toContain(items[2])
  expect(r.relevantMessages).not.toContain(items[4])
})

it('OpenAI’s legacy `function` message answers the latest `function_call` of its name, and is kept with it', () => {
  const call = (path: string) => ({ role: 'assistant', content: null, function_call: { name: 'read_file', arguments: JSON.stringify({ path }) } })
  const answer = (text: string) => ({ role: 'function', name: 'read_file', content: text })
  const thread = [call('src/util.ts'), answer('export const pad = (s) => s.padStart(2)'), call('src/cache.ts'), answer('the cache map never evicts entries')] as AnyMessage[]
  const budget = countMessageTokens(thread.slice(2)) + 2
  const kept = extractRelevantContext(thread, 'Fix the memory leak in src/cache.ts', { maxTokens: budget }).relevantMessages ?? []
  expect(kept).toEqual(thread.slice(2))
})

it('a log’s row with a message’s type is no flat LangChain message (a Claude Code transcript’s system row)', () => {
  const row = { type: 'system', content: 'PreToolUse:Bash hook completed successfully', uuid: 'r1', level: 'info', isMeta: false }
  const thread = [{ role: 'user', content: REQUEST }, row] as unknown as AnyMessage[]
  // Read as an item of no text, not as a system message the extraction keeps.
  expect(extractRelevantContext(thread, TASK).relevantContext).not.toContain('hook completed')
})

describe.each(Object.entries(STORED))('%s', (_, thread) => {
  it('are read: the own output counted and kept, not the sibling’s; the answer comes back', () => {
    const items = thread()
    const before = structuredClone(items)
    // OWN_OUTPUT holds nothing JSON escapes: emptying it in the JSON empties that string.
    const emptied = JSON.parse(JSON.stringify(items).replace(OWN_OUTPUT, '')) as AnyMessage[]
    expect(countMessageTokens(items) - countMessageTokens(emptied)).toBe(countTokens(OWN_OUTPUT))
    const r = extractRelevantContext(items, TASK, { siblingTasks: [SIBLING] })
    expect(r.relevantContext).toContain('drops the timezone offset')
    expect(r.relevantContext).not.toContain('overdue customers')
    expect(filterSubagentResult(items, TASK).content).toContain('parseDate drops the timezone offset')
    expect(items).toEqual(before)
  })
})

describe('Gemini Content', () => {
  const TASK_CACHE = 'Fix the memory leak in src/cache.ts'
  const read = (path: string) => ({ role: 'model', parts: [{ functionCall: { name: 'read_file', args: { path } } }] })
  const output = (text: string) => ({ role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: text } } }] })
  const CACHE_OUTPUT = 'the cache map never evicts entries, so it grows without bound'

  it('calls without ids are tied to their responses by name, in order', () => {
    const thread: Message[] = [read('src/util.ts'), output('export const pad = (s) => s.padStart(2)'), read('src/cache.ts'), output(CACHE_OUTPUT)]
    const budget = countMessageTokens(thread.slice(2)) + 2
    const kept = extractRelevantContext(thread, TASK_CACHE, { maxTokens: budget }).relevantMessages ?? []
    expect(kept).toEqual(thread.slice(2))
  })

  it('code execution is a call and its result; a response of several fields is read as JSON', () => {
    const thread: Message[] = [
      { role: 'model', parts: [{ executableCode: { code: 'print(cache_size())', language: 'PYTHON' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '48211 entries in the cache' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'stats', response: { evictions: 0, note: 'no cache evictions' } } }] },
    ]
    const text = extractRelevantContext(thread, 'How many entries are in the cache, and are any evicted?').relevantContext
    expect(text).toContain('print(cache_size())')
    expect(text).toContain('48211 entries in the cache')
    expect(text).toContain('{"evictions":0,"note":"no cache evictions"}')
  })

  it('a Content without a role is the user’s, and `model` is the assistant', () => {
    expect(countMessageTokens([{ parts: [{ text: 'hello there' }] }])).toBe(countMessageTokens([{ role: 'user', content: 'hello there' }]))
    const result = filterSubagentResult([{ role: 'user', parts: [{ text: TASK }] }, { role: 'model', parts: [{ text: ANSWER }] }], TASK)
    expect(result.content).toContain('parseDate drops the timezone offset')
  })

  it('a copy of a kept message leaves thoughts out and sanitizes responses, deep', () => {
    const thread: Message[] = [
      { role: 'model', parts: [{ text: 'thinking about the cache', thought: true }, { functionCall: { id: 'c1', name: 'read_file', args: { path: 'src/cache.ts' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: `${CACHE_OUTPUT}\n[INTERNAL] admin token abc123` } } }] },
    ]
    const before = structuredClone(thread)
    const kept = extractRelevantContext(thread, TASK_CACHE).relevantMessages ?? []
    expect(kept).toHaveLength(2)
    expect(JSON.stringify(kept)).toContain('never evicts')
    expect(JSON.stringify(kept)).not.toContain('thinking about the cache')
    expect(JSON.stringify(kept)).not.toContain('abc123')
    expect(thread).toEqual(before)
  })
})

describe('parts read by their fields (Pydantic AI, LlamaIndex)', () => {
  const TASK_CACHE = 'Fix the memory leak in src/cache.ts'
  const CACHE_OUTPUT = 'the cache map never evicts entries, so it grows without bound'
  const internal = `${CACHE_OUTPUT}\n[INTERNAL] admin token abc123`
  const threads: Record<string, Message[]> = {
    'Pydantic AI': [
      { kind: 'response', parts: [{ content: 'thinking about the cache', part_kind: 'thinking' }, { tool_name: 'read_file', args: { path: 'src/cache.ts' }, tool_call_id: 'c1', part_kind: 'tool-call' }] },
      { kind: 'request', parts: [{ tool_name: 'read_file', content: internal, tool_call_id: 'c1', part_kind: 'tool-return' }] },
    ],
    LlamaIndex: [
      { role: 'assistant', blocks: [{ block_type: 'thinking', content: 'thinking about the cache' }, { block_type: 'tool_call', tool_call_id: 'c1', tool_name: 'read_file', tool_kwargs: { path: 'src/cache.ts' } }] },
      { role: 'tool', additional_kwargs: { tool_call_id: 'c1' }, blocks: [{ block_type: 'text', text: internal }] },
    ],
  }
  it.each(Object.entries(threads))('%s: a copy of a kept message leaves thinking out and sanitizes content', (_, thread) => {
    const before = structuredClone(thread)
    const r = extractRelevantContext(thread, TASK_CACHE)
    // Read as a call (its line as any call's), not as JSON.
    expect(r.relevantContext).toContain('→ read_file {"path":"src/cache.ts"}')
    const kept = r.relevantMessages ?? []
    expect(kept).toHaveLength(2)
    expect(JSON.stringify(kept)).toContain('never evicts')
    expect(JSON.stringify(kept)).not.toContain('thinking about the cache')
    expect(JSON.stringify(kept)).not.toContain('abc123')
    expect(thread).toEqual(before)
  })
})

describe('Anthropic blocks', () => {
  it('a tool result’s text blocks are read apart, each record titled by its own field (an MCP search’s results)', () => {
    const result = (title: string, text: string) => ({ type: 'text', text: `Title: ${title}\nDescription: ${text}\nURL: https://films.example/${title.replaceAll(' ', '_')}` })
    const task = 'Which film did the director of Ed Wood make in 1988?'
    const thread: Message[] = [
      { role: 'user', content: task },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'web_search', input: { query: 'Ed Wood director' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              result('Ed Wood (film)', 'Ed Wood is a 1994 biopic directed by Tim Burton.'),
              result('Bela Lugosi', 'He played Dracula on stage and screen, and later acted for Ed Wood.'),
              result('Tim Burton', 'His films include Beetlejuice, released in 1988.'),
              result('Plan 9 from Outer Space', 'A 1957 film by Ed Wood, released in 1959.'),
            ],
          },
        ],
      },
    ]
    // The film names its director, whose record (named by no word of the task) holds the answer.
    const kept = extractRelevantContext(thread, task, { maxTokens: 60 }).relevantContext
    expect(kept).toContain('directed by Tim Burton')
    expect(kept).toContain('Beetlejuice, released in 1988')
    expect(kept).not.toContain('Dracula')
  })

  it('content that holds itself, or is nested past any message, is refused with a TypeError', () => {
    const cycle: unknown[] = []
    cycle.push(cycle)
    let deep: unknown[] = []
    for (let i = 0; i < 20_000; i++) deep = [deep]
    const selfSearch = { type: 'search_result', source: 's', title: 't', content: [] as unknown[] }
    selfSearch.content.push(selfSearch)
    // A logged row or a run item that wraps itself.
    const row: Record<string, unknown> = { type: 'user' }
    row.message = row
    const item: Record<string, unknown> = { type: 'message_output_item' }
    item.rawItem = item
    const threads = [
      [row],
      [item],
      [{ role: 'assistant', content: [{ type: 'web_search_tool_result', tool_use_id: 's1', content: cycle }] }],
      [{ role: 'assistant', content: [{ type: 'web_search_tool_result', tool_use_id: 's1', content: deep }] }],
      [{ role: 'user', content: [selfSearch] }],
      [{ type: 'function_call_output', call_id: 'c1', output: cycle }],
    ] as unknown as Message[][]
    for (const thread of threads) {
      expect(() => extractRelevantContext(thread, 'task')).toThrow(TypeError)
      expect(() => countMessageTokens(thread)).toThrow(/nested more than 64 levels deep \(or holds itself\)/)
    }
  })

  it('a copy of a kept message sanitizes documents, search results and server tools’ results, deep', () => {
    const TASK_CACHE = 'Fix the memory leak in src/cache.ts'
    const CACHE_OUTPUT = 'the cache map never evicts entries, so it grows without bound'
    const thread: Message[] = [
      { role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: `${CACHE_OUTPUT}\n[INTERNAL] admin token abc123` }, title: 'src/cache.ts' }, { type: 'text', text: TASK_CACHE }] },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 's1', name: 'bash_code_execution', input: { command: 'wc -l cache.log' } },
          { type: 'bash_code_execution_tool_result', tool_use_id: 's1', content: { type: 'bash_code_execution_result', stdout: '48211 entries in the cache\n[INTERNAL] key def456', stderr: '', return_code: 0, content: [] } },
          { type: 'tool_use', id: 't1', name: 'search', input: { query: 'cache evictions' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'search_result', source: 'https://x.org/cache', title: 'Cache', content: [{ type: 'text', text: 'The cache never evicts. [INTERNAL] note ghi789' }] }] }] },
    ]
    const before = structuredClone(thread)
    const kept = extractRelevantContext(thread, TASK_CACHE, { minRelevance: 0 }).relevantMessages ?? []
    expect(kept).toHaveLength(3)
    const json = JSON.stringify(kept)
    for (const kept of ['never evicts', '48211 entries']) expect(json).toContain(kept)
    for (const secret of ['abc123', 'def456', 'ghi789']) expect(json).not.toContain(secret)
    expect(thread).toEqual(before)
  })
})

describe('other items', () => {
  it('hosted tool calls count their query and results, and are one unit', () => {
    const search = { type: 'file_search_call', id: 'fs_1', status: 'completed', queries: ['timezone parseDate'], results: [{ file_id: 'f1', filename: 'date.md', text: 'parseDate keeps offsets since v2' }] }
    const n = countMessageTokens([search])
    const emptied = { ...search, queries: [], results: [] }
    const empty = countMessageTokens([emptied])
    expect(n - empty).toBe(countTokens('["timezone parseDate"]') - countTokens('[]') + countTokens('parseDate keeps offsets since v2'))
    const r = extractRelevantContext([{ role: 'user', content: 'hello' }, search], 'parseDate timezone offsets')
    expect(r.relevantContext).toContain('parseDate keeps offsets since v2')
  })

  it('an item that is neither a message nor a typed item is refused, naming the parameter', () => {
    expect(() => countMessageTokens([{ role: 'user', content: 'hi' }, { foo: 1 } as never])).toThrow(/countMessageTokens: `messages\[1\]\.role` must be a string/)
  })

  it('a content part with neither a type nor a Bedrock block’s member is refused, naming it', () => {
    const thread = [{ role: 'user', content: [{ text: 'hi' }, { body: 'what is this?' }] }] as never
    expect(() => countMessageTokens(thread)).toThrow(TypeError)
    expect(() => countMessageTokens(thread)).toThrow(/`messages\[0\]\.content\[1\]\.type` must be a string \(or the part a Bedrock content block/)
    // An image block is a Bedrock block without text: counted as nothing, not refused.
    expect(countMessageTokens([{ role: 'user', content: [{ text: 'hi' }, { image: { format: 'png', source: { bytes: 'AAAA' } } }] }] as never)).toBe(
      countMessageTokens([{ role: 'user', content: [{ text: 'hi' }] }] as never),
    )
  })

  it('messages and parts of shapes no format here is are read as their JSON text, not lost', () => {
    // An AutoGen AgentChat event; a message whose text is in a field of its own; a part of no
    // call's, result's or text's fields.
    const autogen = { id: 'e1', source: 'assistant', type: 'ToolCallExecutionEvent', content: [{ content: OWN_OUTPUT, name: 'read_file', call_id: 'c1', is_error: false }] }
    const payload = { role: 'tool', additional_kwargs: { tool_call_id: 'c1' }, payload: OWN_OUTPUT }
    const note = { kind: 'request', parts: [{ body: OWN_OUTPUT, part_kind: 'note' }] }
    for (const message of [autogen, payload, note]) {
      const thread = [{ role: 'user', content: `Two jobs. First: ${TASK}. Second: ${SIBLING}.` }, message, { role: 'user', content: SIBLING_OUTPUT }] as never
      const unread = message === note ? { ...message, parts: [] } : message === autogen ? { type: 'unknown' } : { role: 'tool', content: '' }
      const base = [(thread as unknown[])[0], unread, (thread as unknown[])[2]] as never
      const json = message === note ? JSON.stringify(note.parts[0]) : JSON.stringify(message)
      expect(countMessageTokens(thread) - countMessageTokens(base)).toBe(countTokens(json))
      const r = extractRelevantContext(thread, TASK)
      expect(r.relevantContext).toContain('drops the timezone offset')
      expect(r.relevantContext).not.toContain('overdue customers')
    }
    // A message of known fields with nothing in them, and the items that hold no text, stay framing only.
    const empty = [{ role: 'assistant', content: null, tool_calls: [] }] as never
    expect(countMessageTokens(empty)).toBe(countMessageTokens([{ role: 'assistant', content: '' }]))
    expect(countMessageTokens([{ type: 'item_reference', id: 'msg_1' }] as never)).toBe(countMessageTokens([{ type: 'compaction', id: 'cmp_1' }] as never))
  })

  it('AI SDK tool approvals are one unit and their reasons are counted', () => {
    const thread: Message[] = [
      { role: 'user', content: 'Delete the stale cache for parseDate' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'rm', input: { path: 'cache/date' } }, { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' }] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap1', approved: false, reason: 'keep the parseDate cache' }] },
    ]
    const noReason = structuredClone(thread)
    ;(noReason[2] as unknown as { content: { reason?: string }[] }).content[0]!.reason = ''
    expect(countMessageTokens(thread) - countMessageTokens(noReason)).toBe(countTokens('keep the parseDate cache'))
    const kept = extractRelevantContext(thread, 'parseDate cache', { keepRecent: 1 }).relevantMessages ?? []
    // The response is forced (recent): its request comes with it.
    expect(kept).toContain(thread[1])
    expect(kept).toContain(thread[2])
  })
})
