// HotpotQA paragraphs rendered as the threads and tool outputs that real agent frameworks emit.
// Each render(q) is deterministic (ids, timestamps and orders derive from q.id) and keeps every
// sentence verbatim; forms whose text is escaped (JSON with \u escapes, Python repr) give unescape().
// Shapes were checked against the frameworks' own code (see the note above each render).

// ---------- shared helpers ----------
const text = (p) => p.sentences.join('').trim()
const CLOSE = 'I have gathered the relevant pages and can answer now.'
const SYSTEM = 'You are a research assistant. Use the tools to look facts up before you answer.'

function h32(s) {
  let h = 0x811c9dc5
  for (const c of s) h = Math.imul(h ^ c.codePointAt(0), 0x01000193)
  return h >>> 0
}
function rng(seed) {
  let a = h32(seed)
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const HEX = '0123456789abcdef'
const B64 = ALNUM + '+/'
function rid(seed, n, abc = ALNUM) {
  const r = rng(seed)
  let s = ''
  for (let i = 0; i < n; i++) s += abc[Math.floor(r() * abc.length)]
  return s
}
const uuid = (seed) => { const h = rid(seed, 32, HEX); return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}` }
// per-framework id styles; k distinguishes calls within one question
const callId = (q, k) => `call_${rid(`${q.id}/call/${k}`, 24)}`
const toolu = (q, k) => `toolu_01${rid(`${q.id}/toolu/${k}`, 22)}`
const msgId = (q, k, pre = 'msg_') => `${pre}${rid(`${q.id}/msg/${k}`, 24)}`
const iso = (q, k) => new Date(Date.UTC(2025, 4, 12, 9, 30) + (h32(q.id) % 3600) * 1000 + k * 1731).toISOString()
function shuffled(xs, seed) {
  const r = rng(seed), a = [...xs]
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]] }
  return a
}
const chunk = (xs, n) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n))
const wikiUrl = (t) => `https://en.wikipedia.org/wiki/${encodeURIComponent(t.replaceAll(' ', '_'))}`
const slug = (t) => t.replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '')
const pageId = (t) => 1000 + (h32(t) % 60000000)

// JSON as Python's json.dumps (py: ', ' and ': ' separators) or JS (compact); ascii: \u-escape non-ASCII.
function dumps(v, { ascii = false, py = false } = {}) {
  const [cs, ks] = py ? [', ', ': '] : [',', ':']
  const enc = (x) => {
    if (x === null || x === undefined) return 'null'
    if (typeof x === 'string') {
      const s = JSON.stringify(x)
      return ascii ? s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : s
    }
    if (typeof x !== 'object') return String(x)
    if (Array.isArray(x)) return `[${x.map(enc).join(cs)}]`
    return `{${Object.entries(x).map(([k, y]) => enc(k) + ks + enc(y)).join(cs)}}`
  }
  return enc(v)
}
// Python repr() of str / dict / list / None / bool / number.
function pyRepr(x) {
  if (x === null || x === undefined) return 'None'
  if (typeof x === 'boolean') return x ? 'True' : 'False'
  if (typeof x === 'number') return String(x)
  if (Array.isArray(x)) return `[${x.map(pyRepr).join(', ')}]`
  if (typeof x === 'object') return `{${Object.entries(x).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`
  const quote = x.includes("'") && !x.includes('"') ? '"' : "'"
  let out = ''
  for (const ch of x) {
    const c = ch.codePointAt(0)
    if (ch === '\\' || ch === quote) out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) out += c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : c <= 0xffff ? `\\u${c.toString(16).padStart(4, '0')}` : `\\U${c.toString(16).padStart(8, '0')}`
    else out += ch
  }
  return quote + out + quote
}
const JSON_ESC = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
const unjson = (t) => t.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, u, c) => (u ? String.fromCharCode(parseInt(u, 16)) : JSON_ESC[c]))
const PY_ESC = { "'": "'", '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t' }
const unpy = (t) => t.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(['"\\nrt]))/g, (_, x, u, U, c) => (c ? PY_ESC[c] : String.fromCodePoint(parseInt(x ?? u ?? U, 16))))

// ---------- OpenAI Chat Completions ----------
// Parallel tool calls in one assistant message; tool results come back in a different order.
// platform.openai.com/docs/guides/function-calling (ChatCompletionMessageToolCall, role 'tool')
function openaiChatParallelShuffled(q) {
  const calls = q.paragraphs.map((p, i) => ({ id: callId(q, i), type: 'function', function: { name: 'get_wikipedia_page', arguments: JSON.stringify({ title: p.title }) } }))
  const results = q.paragraphs.map((p, i) => ({ role: 'tool', tool_call_id: calls[i].id, content: text(p) }))
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: q.question },
    { role: 'assistant', content: null, refusal: null, tool_calls: calls },
    ...shuffled(results, q.id),
    { role: 'assistant', content: CLOSE, refusal: null },
  ]
}
// A generic http_get tool returning the raw MediaWiki action API body (formatversion 1: non-ASCII \u-escaped).
// www.mediawiki.org/wiki/API:Get_the_contents_of_a_page (query.pages[pageid].extract)
function openaiChatMediawiki(q) {
  return [
    { role: 'user', content: q.question },
    ...q.paragraphs.flatMap((p, i) => {
      const id = callId(q, i)
      const url = `https://en.wikipedia.org/w/api.php?action=query&format=json&prop=extracts&explaintext=1&titles=${encodeURIComponent(p.title)}`
      const body = { batchcomplete: '', query: { pages: { [pageId(p.title)]: { pageid: pageId(p.title), ns: 0, title: p.title, extract: text(p) } } } }
      return [
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'http_get', arguments: JSON.stringify({ url }) } }] },
        { role: 'tool', tool_call_id: id, content: dumps(body, { ascii: true }) },
      ]
    }),
    { role: 'assistant', content: CLOSE },
  ]
}
// Tool content as an array of text parts; the call names only a file, the title is the result's first line.
// ChatCompletionToolMessageParam.content: string | ChatCompletionContentPartText[]
function openaiChatReadFileParts(q) {
  return [
    { role: 'user', content: q.question },
    ...q.paragraphs.flatMap((p, i) => {
      const id = callId(q, i)
      return [
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `research/sources/source_${String(i + 1).padStart(2, '0')}.txt` }) } }] },
        { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: `${p.title}\n\n${text(p)}\n` }] },
      ]
    }),
    { role: 'assistant', content: CLOSE },
  ]
}

// ---------- OpenAI Responses API / Agents SDK ----------
// Responses input items: message (input_text), function_call, function_call_output (string), parallel calls.
// platform.openai.com/docs/api-reference/responses (ResponseFunctionToolCall, FunctionCallOutput)
function openaiResponsesItems(q) {
  const calls = q.paragraphs.map((p, i) => ({ type: 'function_call', id: `fc_${rid(`${q.id}/fc/${i}`, 48, HEX)}`, call_id: callId(q, i), name: 'search_wikipedia', arguments: JSON.stringify({ title: p.title }), status: 'completed' }))
  return [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: q.question }] },
    ...calls,
    ...q.paragraphs.map((p, i) => ({ type: 'function_call_output', call_id: calls[i].call_id, output: text(p) })),
    { type: 'message', id: msgId(q, 'final'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: CLOSE, annotations: [] }] },
  ]
}
// @openai/agents result.history: function_call / function_call_result with output {type:'text', text};
// the tool returned an object, so the text is its JSON (agents-core runner/toolExecution getToolCallOutputItem).
function openaiAgentsJsHistory(q) {
  return [
    { type: 'message', role: 'user', content: q.question },
    ...q.paragraphs.flatMap((p, i) => {
      const cid = callId(q, i)
      return [
        { type: 'function_call', id: `fc_${rid(`${q.id}/fc/${i}`, 48, HEX)}`, callId: cid, name: 'lookup_article', arguments: JSON.stringify({ title: p.title }), status: 'completed' },
        { type: 'function_call_result', name: 'lookup_article', callId: cid, status: 'completed', output: { type: 'text', text: JSON.stringify({ title: p.title, url: wikiUrl(p.title), summary: text(p) }) } },
      ]
    }),
    { type: 'message', id: msgId(q, 'final'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: CLOSE, providerData: { annotations: [] } }] },
  ]
}
// @openai/agents result.newItems serialized: RunToolCallItem / RunToolCallOutputItem / RunMessageOutputItem
// (checked with agents-core 0.20 RunItem.toJSON: {type, rawItem, agent:{name}, output}).
function openaiAgentsJsRunItems(q) {
  const agent = { name: 'Researcher' }
  const raw = q.paragraphs.map((p, i) => ({ type: 'function_call', id: `fc_${rid(`${q.id}/fc/${i}`, 48, HEX)}`, callId: callId(q, i), name: 'wikipedia', arguments: JSON.stringify({ page: p.title }), status: 'completed' }))
  return [
    ...raw.map((rawItem) => ({ type: 'tool_call_item', rawItem, agent })),
    ...q.paragraphs.map((p, i) => ({ type: 'tool_call_output_item', rawItem: { type: 'function_call_result', name: 'wikipedia', callId: raw[i].callId, status: 'completed', output: { type: 'text', text: text(p) } }, agent, output: text(p) })),
    { type: 'message_output_item', rawItem: { type: 'message', id: msgId(q, 'final'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: CLOSE }] }, agent },
  ]
}
// openai-agents (Python) result.to_input_list() with an MCP fetch server: MCP text content becomes
// output [{type:'input_text', text}] (agents/mcp/util.py invoke_mcp_tool, items.py _convert_tool_output);
// the text is what the reference MCP fetch server returns ("Contents of <url>:\n...").
function openaiAgentsPyMcp(q) {
  return [
    { content: q.question, role: 'user' },
    ...q.paragraphs.flatMap((p, i) => {
      const cid = callId(q, i)
      return [
        { arguments: JSON.stringify({ url: wikiUrl(p.title) }), call_id: cid, name: 'fetch', type: 'function_call', id: `fc_${rid(`${q.id}/fc/${i}`, 48, HEX)}`, status: 'completed' },
        { call_id: cid, output: [{ type: 'input_text', text: `Contents of ${wikiUrl(p.title)}:\n# ${p.title}\n\n${text(p)}` }], type: 'function_call_output' },
      ]
    }),
    { id: msgId(q, 'final'), content: [{ annotations: [], text: CLOSE, type: 'output_text', logprobs: [] }], role: 'assistant', status: 'completed', type: 'message' },
  ]
}

// ---------- LangChain / LangGraph ----------
const lcAiKwargs = (q, k, calls) => ({
  content: '',
  id: `chatcmpl-${rid(`${q.id}/cc/${k}`, 29)}`,
  tool_calls: calls.map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' })),
  additional_kwargs: { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) },
  response_metadata: { finish_reason: 'tool_calls', model_name: 'gpt-4o-mini-2024-07-18' },
  usage_metadata: { input_tokens: 412 + k * 180, output_tokens: 21, total_tokens: 433 + k * 180 },
  invalid_tool_calls: [],
})
const lcSer = (cls, kwargs) => ({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs })
// JSON.stringify of @langchain/core messages (toJSON -> {lc:1,type:'constructor',id,kwargs}); checked with @langchain/core 1.4.
function lcJsSerialized(q) {
  return [
    lcSer('SystemMessage', { content: SYSTEM, additional_kwargs: {}, response_metadata: {} }),
    lcSer('HumanMessage', { content: q.question, additional_kwargs: {}, response_metadata: {} }),
    ...q.paragraphs.flatMap((p, i) => {
      const c = { id: callId(q, i), name: 'wikipedia_lookup', args: { title: p.title } }
      return [
        lcSer('AIMessage', lcAiKwargs(q, i, [c])),
        lcSer('ToolMessage', { content: text(p), tool_call_id: c.id, name: c.name, additional_kwargs: {}, response_metadata: {} }),
      ]
    }),
    lcSer('AIMessage', { content: CLOSE, additional_kwargs: {}, response_metadata: { finish_reason: 'stop' }, tool_calls: [], invalid_tool_calls: [] }),
  ]
}
// mapChatMessagesToStoredMessages (chat-history stores): {type, data}; one AI message with parallel calls.
function lcStoredParallel(q) {
  const calls = q.paragraphs.map((p, i) => ({ id: callId(q, i), name: 'get_page', args: { title: p.title } }))
  return [
    { type: 'human', data: { content: q.question, additional_kwargs: {}, response_metadata: {} } },
    { type: 'ai', data: lcAiKwargs(q, 0, calls) },
    ...q.paragraphs.map((p, i) => ({ type: 'tool', data: { content: text(p), tool_call_id: calls[i].id, name: 'get_page', additional_kwargs: {}, response_metadata: {} } })),
    { type: 'ai', data: { content: CLOSE, tool_calls: [], invalid_tool_calls: [], additional_kwargs: {}, response_metadata: {} } },
  ]
}
// LangChain.js message instances as plain objects ({...msg}: lc_kwargs, lc_namespace, own fields; checked with @langchain/core 1.4).
const lcInst = (type, fields, extra = {}) => ({ lc_serializable: true, lc_kwargs: { ...fields }, lc_namespace: ['langchain_core', 'messages'], ...fields, type, ...extra })
function lcJsInstances(q) {
  return [
    lcInst('human', { content: q.question, additional_kwargs: {}, response_metadata: {} }),
    ...q.paragraphs.flatMap((p, i) => {
      const c = { id: callId(q, i), name: 'wiki_search', args: { query: p.title } }
      return [
        lcInst('ai', lcAiKwargs(q, i, [c])),
        lcInst('tool', { content: text(p), tool_call_id: c.id, name: c.name, additional_kwargs: {}, response_metadata: {} }, { lc_direct_tool_output: true }),
      ]
    }),
    lcInst('ai', { content: CLOSE, additional_kwargs: {}, response_metadata: {}, tool_calls: [], invalid_tool_calls: [] }),
  ]
}
// LangGraph API thread state values.messages (flat {type:'human'|'ai'|'tool'}, @langchain/langgraph-sdk types.messages)
// with a Tavily search tool: ToolMessage content = json.dumps(TavilySearch result, ensure_ascii=False).
function langgraphApiTavily(q) {
  const id = callId(q, 0)
  const result = {
    query: q.question, follow_up_questions: null, answer: null, images: [],
    results: q.paragraphs.map((p, i) => ({ url: wikiUrl(p.title), title: `${p.title} - Wikipedia`, content: text(p), score: Number((0.91 - i * 0.047).toFixed(5)), raw_content: null })),
    response_time: 1.42,
  }
  return [
    { type: 'human', content: q.question, id: uuid(`${q.id}/h`), additional_kwargs: {}, response_metadata: {}, name: null, example: false },
    { type: 'ai', content: '', id: `run-${uuid(`${q.id}/r0`)}-0`, tool_calls: [{ name: 'tavily_search', args: { query: q.question, max_results: 10 }, id, type: 'tool_call' }], invalid_tool_calls: [], usage_metadata: { input_tokens: 655, output_tokens: 31, total_tokens: 686 }, additional_kwargs: {}, response_metadata: { finish_reason: 'tool_calls', model_name: 'gpt-4o-2024-08-06' }, name: null, example: false },
    { type: 'tool', content: dumps(result, { py: true }), name: 'tavily_search', id: uuid(`${q.id}/t`), tool_call_id: id, status: 'success', artifact: null, additional_kwargs: {}, response_metadata: {} },
    { type: 'ai', content: CLOSE, id: `run-${uuid(`${q.id}/r1`)}-0`, tool_calls: [], invalid_tool_calls: [], additional_kwargs: {}, response_metadata: { finish_reason: 'stop' }, name: null, example: false },
  ]
}
// Python messages_to_dict ({type, data}) with create_retriever_tool: the query names nothing,
// the result is the documents' page_content joined by blank lines (no titles).
function lcPyRetrieverTool(q) {
  const id = callId(q, 0)
  const base = { additional_kwargs: {}, response_metadata: {}, name: null, id: null }
  return [
    { type: 'human', data: { content: q.question, ...base, type: 'human', example: false } },
    { type: 'ai', data: { content: '', ...base, type: 'ai', example: false, tool_calls: [{ name: 'search_knowledge_base', args: { query: q.question }, id, type: 'tool_call' }], invalid_tool_calls: [], usage_metadata: null } },
    { type: 'tool', data: { content: q.paragraphs.map(text).join('\n\n'), ...base, type: 'tool', name: 'search_knowledge_base', tool_call_id: id, artifact: null, status: 'success' } },
    { type: 'ai', data: { content: CLOSE, ...base, type: 'ai', example: false, tool_calls: [], invalid_tool_calls: [], usage_metadata: null } },
  ]
}

// ---------- Anthropic Messages ----------
// Parallel tool_use blocks, all tool_result blocks (string content) in one user turn.
// docs.anthropic.com/en/docs/agents-and-tools/tool-use (parallel tool use)
function anthropicParallel(q) {
  return [
    { role: 'user', content: q.question },
    { role: 'assistant', content: [{ type: 'text', text: "I'll look up the relevant articles." }, ...q.paragraphs.map((p, i) => ({ type: 'tool_use', id: toolu(q, i), name: 'get_article', input: { title: p.title } }))] },
    { role: 'user', content: q.paragraphs.map((p, i) => ({ type: 'tool_result', tool_use_id: toolu(q, i), content: text(p) })) },
    { role: 'assistant', content: [{ type: 'text', text: CLOSE }] },
  ]
}
// Sequential calls, tool_result content as text blocks; one lookup fails first (is_error) and is retried.
function anthropicBlocksError(q) {
  const bad = h32(q.id) % q.paragraphs.length
  const turn = (k, name, input, content, isError) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: toolu(q, k), name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolu(q, k), ...(isError ? { is_error: true } : {}), content }] },
  ]
  return [
    { role: 'user', content: [{ type: 'text', text: q.question }] },
    ...q.paragraphs.flatMap((p, i) => [
      ...(i === bad ? turn(`${i}e`, 'fetch_page', { title: p.title.toLowerCase().replaceAll(' ', '-') }, `Error: no page named "${p.title.toLowerCase().replaceAll(' ', '-')}"`, true) : []),
      ...turn(i, 'fetch_page', { title: p.title }, [{ type: 'text', text: text(p) }], false),
    ]),
    { role: 'assistant', content: [{ type: 'text', text: CLOSE }] },
  ]
}
// Custom search tool returning search_result blocks (SearchResultBlockParam: source, title, content[], citations).
function anthropicSearchResults(q) {
  const groups = chunk(q.paragraphs, 5)
  return [
    { role: 'user', content: q.question },
    ...groups.flatMap((g, k) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: toolu(q, k), name: 'search_docs', input: { query: q.question, page: k + 1 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolu(q, k), content: g.map((p) => ({ type: 'search_result', source: wikiUrl(p.title), title: p.title, content: [{ type: 'text', text: text(p) }], citations: { enabled: true } })) }] },
    ]),
    { role: 'assistant', content: CLOSE },
  ]
}
// Server tools: web_search_tool_result (encrypted page content only) then web_fetch_tool_result with the
// document text, all inside the assistant turn (WebFetchToolResultBlock / WebFetchBlock / PlainTextSource).
function anthropicWebFetch(q) {
  const srv = (k) => `srvtoolu_01${rid(`${q.id}/srv/${k}`, 22)}`
  return [
    { role: 'user', content: q.question },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: "I'll search for this." },
        { type: 'server_tool_use', id: srv('s'), name: 'web_search', input: { query: q.question } },
        { type: 'web_search_tool_result', tool_use_id: srv('s'), content: q.paragraphs.map((p) => ({ type: 'web_search_result', title: `${p.title} - Wikipedia`, url: wikiUrl(p.title), encrypted_content: rid(`${q.id}/enc/${p.title}`, 96, B64), page_age: null })) },
        { type: 'text', text: 'Let me read these pages.' },
        ...q.paragraphs.flatMap((p, i) => [
          { type: 'server_tool_use', id: srv(i), name: 'web_fetch', input: { url: wikiUrl(p.title) } },
          { type: 'web_fetch_tool_result', tool_use_id: srv(i), content: { type: 'web_fetch_result', url: wikiUrl(p.title), content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text(p) }, title: `${p.title} - Wikipedia` }, retrieved_at: iso(q, i) } },
        ]),
        { type: 'text', text: CLOSE },
      ],
    },
  ]
}
// Claude Code session transcript (~/.claude/projects/*.jsonl entries): Read tool results in cat -n form
// ("     1→...") plus toolUseResult.file; envelope fields as in real transcripts.
function claudeCodeTranscript(q) {
  const session = uuid(`${q.id}/session`)
  const cwd = '/home/user/research'
  let parent = null, k = 0
  const entry = (type, message, extra = {}) => {
    const uuidK = uuid(`${q.id}/cc/${k}`)
    const e = { parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: session, version: '2.0.14', gitBranch: 'main', type, message, ...extra, uuid: uuidK, timestamp: iso(q, k) }
    parent = uuidK; k++
    return e
  }
  const asst = (content) => ({ id: msgId(q, `cc${k}`, 'msg_01'), type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: null, stop_sequence: null, usage: { input_tokens: 4, cache_creation_input_tokens: 310, cache_read_input_tokens: 14100 + k * 260, output_tokens: 88 } })
  const out = [entry('user', { role: 'user', content: q.question })]
  q.paragraphs.forEach((p, i) => {
    const filePath = `${cwd}/wiki/${slug(p.title)}.md`
    const file = `# ${p.title}\n\n${text(p)}\n`
    const lines = file.split('\n')
    const numbered = lines.map((l, n) => `${String(n + 1).padStart(6)}→${l}`).join('\n')
    out.push(entry('assistant', asst([{ type: 'tool_use', id: toolu(q, i), name: 'Read', input: { file_path: filePath } }]), { requestId: `req_011C${rid(`${q.id}/req/${i}`, 20)}` }))
    out.push(entry('user', { role: 'user', content: [{ tool_use_id: toolu(q, i), type: 'tool_result', content: numbered }] }, { toolUseResult: { type: 'text', file: { filePath, content: file, numLines: lines.length, startLine: 1, totalLines: lines.length } } }))
  })
  out.push(entry('assistant', asst([{ type: 'text', text: CLOSE }]), { requestId: `req_011C${rid(`${q.id}/req/end`, 20)}` }))
  return out
}

// ---------- Vercel AI SDK ----------
// ModelMessage: tool-call (input) / tool-result with output {type:'text', value} (ai 5+; checked in @ai-sdk/provider-utils).
function aiSdkModelText(q) {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: q.question },
    ...q.paragraphs.flatMap((p, i) => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: callId(q, i), toolName: 'getArticle', input: { title: p.title } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: callId(q, i), toolName: 'getArticle', output: { type: 'text', value: text(p) } }] },
    ]),
    { role: 'assistant', content: [{ type: 'text', text: CLOSE }] },
  ]
}
// ModelMessage with parallel calls and output {type:'json', value} holding a Wikipedia REST summary object.
function aiSdkModelJson(q) {
  return [
    { role: 'user', content: [{ type: 'text', text: q.question }] },
    { role: 'assistant', content: q.paragraphs.map((p, i) => ({ type: 'tool-call', toolCallId: callId(q, i), toolName: 'wikipediaSummary', input: { title: p.title } })) },
    { role: 'tool', content: q.paragraphs.map((p, i) => ({ type: 'tool-result', toolCallId: callId(q, i), toolName: 'wikipediaSummary', output: { type: 'json', value: { type: 'standard', title: p.title, pageid: pageId(p.title), lang: 'en', extract: text(p), content_urls: { desktop: { page: wikiUrl(p.title) } } } } })) },
    { role: 'assistant', content: CLOSE },
  ]
}
// UIMessage (useChat) parts: step-start, tool-<name> with state 'output-available', input, output (ai 5+ ToolUIPart).
function aiSdkUiToolParts(q) {
  return [
    { id: rid(`${q.id}/u`, 16), role: 'user', parts: [{ type: 'text', text: q.question }] },
    {
      id: rid(`${q.id}/a`, 16), role: 'assistant',
      parts: [
        ...q.paragraphs.flatMap((p, i) => [{ type: 'step-start' }, { type: 'tool-searchWikipedia', toolCallId: callId(q, i), state: 'output-available', input: { query: p.title }, output: { title: p.title, url: wikiUrl(p.title), text: text(p) } }]),
        { type: 'step-start' },
        { type: 'text', text: CLOSE, state: 'done' },
      ],
    },
  ]
}
// UIMessage dynamic-tool parts from an MCP server: output is the raw CallToolResult with structuredContent
// and its serialized JSON in a text block (MCP spec: structured content SHOULD also be returned as text).
function aiSdkUiMcpDynamic(q) {
  return [
    { id: rid(`${q.id}/u`, 16), role: 'user', parts: [{ type: 'text', text: q.question }] },
    {
      id: rid(`${q.id}/a`, 16), role: 'assistant',
      parts: [
        { type: 'step-start' },
        ...q.paragraphs.map((p, i) => {
          const structured = { title: p.title, extract: text(p) }
          return { type: 'dynamic-tool', toolName: 'get_article', toolCallId: callId(q, i), state: 'output-available', input: { title: p.title }, output: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, isError: false } }
        }),
        { type: 'step-start' },
        { type: 'text', text: CLOSE, state: 'done' },
      ],
    },
  ]
}

// ---------- Google Gemini ----------
// Content[] with functionCall / functionResponse parts (@google/genai FunctionCall, FunctionResponse);
// the tool wraps Google Custom Search JSON (items[].title/link/snippet), paged with `start`.
function geminiContents(q) {
  const groups = chunk(q.paragraphs, 5)
  const args = (k) => ({ q: q.question, num: 5, start: 1 + k * 5 })
  return [
    { role: 'user', parts: [{ text: q.question }] },
    { role: 'model', parts: groups.map((_, k) => ({ functionCall: { name: 'google_search', args: args(k) } })) },
    { role: 'user', parts: groups.map((g, k) => ({ functionResponse: { name: 'google_search', response: { items: g.map((p) => ({ kind: 'customsearch#result', title: `${p.title} - Wikipedia`, link: wikiUrl(p.title), displayLink: 'en.wikipedia.org', snippet: text(p) })) } } })) },
    { role: 'model', parts: [{ text: CLOSE }] },
  ]
}

// ---------- AWS Bedrock Converse ----------
// toolUse / toolResult with content [{json}] (docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html).
function bedrockConverseJson(q) {
  const tid = (i) => `tooluse_${rid(`${q.id}/tu/${i}`, 22)}`
  return [
    { role: 'user', content: [{ text: q.question }] },
    ...q.paragraphs.flatMap((p, i) => [
      { role: 'assistant', content: [{ toolUse: { toolUseId: tid(i), name: 'lookup_article', input: { title: p.title } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: tid(i), content: [{ json: { title: p.title, text: text(p) } }], status: 'success' } }] },
    ]),
    { role: 'assistant', content: [{ text: CLOSE }] },
  ]
}
// Several toolUse blocks in one assistant message, toolResult content [{text}] in one user message.
function bedrockConverseTextParallel(q) {
  const tid = (i) => `tooluse_${rid(`${q.id}/tu/${i}`, 22)}`
  return [
    { role: 'user', content: [{ text: q.question }] },
    { role: 'assistant', content: [{ text: 'Looking these up.' }, ...q.paragraphs.map((p, i) => ({ toolUse: { toolUseId: tid(i), name: 'get_page', input: { title: p.title } } }))] },
    { role: 'user', content: q.paragraphs.map((p, i) => ({ toolResult: { toolUseId: tid(i), content: [{ text: text(p) }], status: 'success' } })) },
    { role: 'assistant', content: [{ text: CLOSE }] },
  ]
}

// ---------- Other providers' chat formats ----------
// Cohere v2: assistant tool_plan + tool_calls, tool content [{type:'document', document:{data: json.dumps(...)}}]
// (docs.cohere.com tool use; Python json.dumps => ASCII with \u escapes).
function cohereV2Documents(q) {
  const cid = (i) => `search_wikipedia_${rid(`${q.id}/co/${i}`, 12, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
  return [
    { role: 'user', content: q.question },
    { role: 'assistant', tool_plan: 'I will look up each relevant article and then answer.', tool_calls: q.paragraphs.map((p, i) => ({ id: cid(i), type: 'function', function: { name: 'search_wikipedia', arguments: JSON.stringify({ query: p.title }) } })) },
    ...q.paragraphs.map((p, i) => ({ role: 'tool', tool_call_id: cid(i), content: [{ type: 'document', document: { data: dumps({ title: p.title, snippet: text(p) }, { ascii: true, py: true }) } }] })),
    { role: 'assistant', content: CLOSE },
  ]
}
// Mistral TypeScript SDK messages (camelCase toolCalls / toolCallId, prefix), as in its examples/src/async_function_calling.ts.
function mistralTs(q) {
  return [
    { role: 'user', content: q.question },
    ...q.paragraphs.flatMap((p, i) => {
      const id = rid(`${q.id}/mi/${i}`, 9)
      return [
        { role: 'assistant', content: '', toolCalls: [{ id, type: 'function', function: { name: 'retrieve_page', arguments: JSON.stringify({ title: p.title }) }, index: 0 }], prefix: false },
        { role: 'tool', name: 'retrieve_page', content: text(p), toolCallId: id },
      ]
    }),
    { role: 'assistant', content: CLOSE, prefix: false },
  ]
}
// Ollama /api/chat with its web_search tool: arguments as an object, no call ids, tool message {tool_name};
// content = str(WebSearchResponse) (Python repr), as in ollama-python's web search example.
function ollamaWebSearch(q) {
  const repr = `results=[${q.paragraphs.map((p) => `WebSearchResult(content=${pyRepr(text(p))}, title=${pyRepr(`${p.title} - Wikipedia`)}, url=${pyRepr(wikiUrl(p.title))})`).join(', ')}]`
  return [
    { role: 'user', content: q.question },
    { role: 'assistant', content: '', thinking: 'I should search the web for this.', tool_calls: [{ function: { name: 'web_search', arguments: { query: q.question, max_results: 10 } } }] },
    { role: 'tool', content: repr, tool_name: 'web_search' },
    { role: 'assistant', content: CLOSE },
  ]
}

// ---------- Python agent frameworks (shapes produced with the installed packages) ----------
// AutoGen AgentChat TaskResult.messages model_dump(): TextMessage, ToolCallRequestEvent, ToolCallExecutionEvent,
// ToolCallSummaryMessage (default reflect_on_tool_use=False); autogen-agentchat 0.7.
function autogenAgentchat(q) {
  const calls = q.paragraphs.map((p, i) => ({ id: callId(q, i), arguments: JSON.stringify({ title: p.title }), name: 'wikipedia_lookup' }))
  const results = q.paragraphs.map((p, i) => ({ content: text(p), name: 'wikipedia_lookup', call_id: calls[i].id, is_error: false }))
  const head = (k, source, usage = null) => ({ id: uuid(`${q.id}/ag/${k}`), source, models_usage: usage, metadata: {}, created_at: iso(q, k).replace('Z', '000Z') })
  return [
    { ...head(0, 'user'), content: q.question, type: 'TextMessage' },
    { ...head(1, 'assistant', { prompt_tokens: 318, completion_tokens: 176 }), content: calls, type: 'ToolCallRequestEvent' },
    { ...head(2, 'assistant'), content: results, type: 'ToolCallExecutionEvent' },
    { ...head(3, 'assistant'), content: results.map((r) => r.content).join('\n'), type: 'ToolCallSummaryMessage', tool_calls: calls, results },
  ]
}
// Pydantic AI ModelMessagesTypeAdapter.dump_json: ModelRequest / ModelResponse with part_kind parts (pydantic-ai 1.x+; trimmed nulls).
function pydanticAi(q) {
  const ts = (k) => iso(q, k)
  const usage = { input_tokens: 402, cache_write_tokens: 0, cache_read_tokens: 0, output_tokens: 190, details: {} }
  const resp = (k, parts, finish) => ({ parts, usage, model_name: 'gpt-4o', timestamp: ts(k), kind: 'response', provider_name: 'openai', provider_response_id: `chatcmpl-${rid(`${q.id}/pa/${k}`, 29)}`, finish_reason: finish })
  return [
    { parts: [{ content: SYSTEM, timestamp: ts(0), dynamic_ref: null, part_kind: 'system-prompt' }, { content: q.question, timestamp: ts(0), part_kind: 'user-prompt' }], instructions: null, kind: 'request' },
    resp(1, q.paragraphs.map((p, i) => ({ tool_name: 'retrieve', args: JSON.stringify({ title: p.title }), tool_call_id: callId(q, i), id: null, part_kind: 'tool-call' })), 'tool_call'),
    { parts: q.paragraphs.map((p, i) => ({ tool_name: 'retrieve', content: text(p), tool_call_id: callId(q, i), metadata: null, timestamp: ts(2), outcome: 'success', part_kind: 'tool-return' })), instructions: null, kind: 'request' },
    resp(3, [{ content: CLOSE, id: null, part_kind: 'text' }], 'stop'),
  ]
}
// Haystack ChatMessage.to_dict(): content parts {text} / {tool_call} / {tool_call_result:{result, origin, error}} (haystack-ai 2.x+).
function haystack(q) {
  const tc = (p, i) => ({ tool_name: 'wiki_page', arguments: { title: p.title }, id: callId(q, i), extra: null })
  return [
    { role: 'user', meta: {}, name: null, content: [{ text: q.question }] },
    { role: 'assistant', meta: { model: 'gpt-4o-mini', finish_reason: 'tool_calls' }, name: null, content: q.paragraphs.map((p, i) => ({ tool_call: tc(p, i) })) },
    ...q.paragraphs.map((p, i) => ({ role: 'tool', meta: {}, name: null, content: [{ tool_call_result: { result: text(p), origin: tc(p, i), error: false } }] })),
    { role: 'assistant', meta: { finish_reason: 'stop' }, name: null, content: [{ text: CLOSE }] },
  ]
}
// LlamaIndex FunctionAgent memory: ChatMessage blocks; assistant ToolCallBlock, tool messages with
// additional_kwargs.tool_call_id only (llama_index/core/agent/workflow/function_agent.py).
function llamaindexFunctionAgent(q) {
  return [
    { role: 'user', additional_kwargs: {}, blocks: [{ block_type: 'text', text: q.question }] },
    { role: 'assistant', additional_kwargs: {}, blocks: q.paragraphs.map((p, i) => ({ block_type: 'tool_call', tool_call_id: callId(q, i), tool_name: 'wikipedia_search', tool_kwargs: { query: p.title } })) },
    ...q.paragraphs.map((p, i) => ({ role: 'tool', additional_kwargs: { tool_call_id: callId(q, i) }, blocks: [{ block_type: 'text', text: text(p) }] })),
    { role: 'assistant', additional_kwargs: {}, blocks: [{ block_type: 'text', text: CLOSE }] },
  ]
}
// smolagents ToolCallingAgent memory.to_messages(): roles 'tool-call' / 'tool-response' with text parts,
// "Calling tools:\n[...python repr...]" and "Observation:\n" + DuckDuckGoSearchTool's "## Search Results" markdown.
function smolagentsToolCalling(q) {
  const part = (t) => [{ type: 'text', text: t }]
  const m = (role, t) => ({ role, content: part(t), tool_calls: null, raw: null, token_usage: null })
  const searchCall = [{ id: callId(q, 0), type: 'function', function: { name: 'web_search', arguments: { query: q.question } } }]
  const finalCall = [{ id: callId(q, 1), type: 'function', function: { name: 'final_answer', arguments: { answer: CLOSE } } }]
  const obs = `## Search Results\n\n${q.paragraphs.map((p) => `[${p.title} - Wikipedia](${wikiUrl(p.title)})\n${text(p)}`).join('\n\n')}`
  return [
    m('system', 'You are an expert assistant who can solve any task using tool calls. You will be given a task to solve as best you can.'),
    m('user', `New task:\n${q.question}`),
    m('tool-call', `Calling tools:\n${pyRepr(searchCall)}`),
    m('tool-response', `Observation:\n${obs}`),
    m('tool-call', `Calling tools:\n${pyRepr(finalCall)}`),
  ]
}

// ---------- text transcripts ----------
// LangChain classic ReAct agent prompt + scratchpad (hub "hwchase17/react").
function reactLangchain(q) {
  const head = `Answer the following questions as best you can. You have access to the following tools:\n\nwikipedia: Look up a Wikipedia article by its title.\n\nUse the following format:\n\nQuestion: the input question you must answer\nThought: you should always think about what to do\nAction: the action to take, should be one of [wikipedia]\nAction Input: the input to the action\nObservation: the result of the action\n... (this Thought/Action/Action Input/Observation can repeat N times)\nThought: I now know the final answer\nFinal Answer: the final answer to the original input question\n\nBegin!\n\n`
  const steps = q.paragraphs.map((p) => `Thought: I should look up ${p.title}.\nAction: wikipedia\nAction Input: ${p.title}\nObservation: ${text(p)}`)
  return `${head}Question: ${q.question}\n${steps.join('\n')}\nThought: I now know the final answer\nFinal Answer: ${CLOSE}`
}
// The ReAct paper's HotpotQA trajectories (Yao et al. 2023): numbered Thought/Action/Observation, Search[entity].
function reactPaper(q) {
  const steps = q.paragraphs.map((p, i) => `Thought ${i + 1}: I need to search ${p.title} and find what it says.\nAction ${i + 1}: Search[${p.title}]\nObservation ${i + 1}: ${text(p)}`)
  return `Question: ${q.question}\n${steps.join('\n')}`
}
// CrewAI verbose console log (crewai agent printer: "# Agent:", "## Using tool:", "## Tool Input:", "## Tool Output:").
function crewaiVerbose(q) {
  const agent = '# Agent: Senior Research Analyst'
  const steps = q.paragraphs.map((p) => `${agent}\n## Thought: Thought: I should read the article on ${p.title}.\n## Using tool: Wikipedia Article Reader\n## Tool Input: \n${dumps(dumps({ title: p.title }, { py: true, ascii: true }), { ascii: true })}\n## Tool Output: \n${text(p)}\n\n`)
  return `${agent}\n## Task: ${q.question}\n\n\n${steps.join('\n')}\n${agent}\n## Final Answer: \n${CLOSE}\n`
}

// Haystack's `ChatMessage.to_dict()` (Python): parts of no type and no Bedrock member, which
// the library refuses with a TypeError naming them; opt in with AGENTS_THROWING=1 (the sweep
// stops at the first refusal).
export const THROWING_FORMS = [{ name: 'haystack-chatmessage', render: haystack }]

const BASE_FORMS = [
  { name: 'openai-chat-parallel-shuffled', render: openaiChatParallelShuffled },
  { name: 'bedrock-converse-json', render: bedrockConverseJson },
  { name: 'bedrock-converse-text-parallel', render: bedrockConverseTextParallel },
  { name: 'openai-chat-mediawiki-json', render: openaiChatMediawiki, unescape: unjson },
  { name: 'openai-chat-readfile-parts', render: openaiChatReadFileParts },
  { name: 'openai-responses-items', render: openaiResponsesItems },
  { name: 'openai-agents-js-history', render: openaiAgentsJsHistory, unescape: unjson },
  { name: 'openai-agents-js-runitems', render: openaiAgentsJsRunItems },
  { name: 'openai-agents-py-mcp-fetch', render: openaiAgentsPyMcp },
  { name: 'langchain-js-serialized', render: lcJsSerialized },
  { name: 'langchain-stored-parallel', render: lcStoredParallel },
  { name: 'langchain-js-instances', render: lcJsInstances },
  { name: 'langgraph-api-tavily', render: langgraphApiTavily, unescape: unjson },
  { name: 'langchain-py-retriever-tool', render: lcPyRetrieverTool },
  { name: 'anthropic-parallel', render: anthropicParallel },
  { name: 'anthropic-blocks-error-retry', render: anthropicBlocksError },
  { name: 'anthropic-search-result-blocks', render: anthropicSearchResults },
  { name: 'anthropic-web-search-fetch', render: anthropicWebFetch },
  { name: 'claude-code-transcript', render: claudeCodeTranscript },
  { name: 'ai-sdk-model-text', render: aiSdkModelText },
  { name: 'ai-sdk-model-json-parallel', render: aiSdkModelJson },
  { name: 'ai-sdk-ui-tool-parts', render: aiSdkUiToolParts },
  { name: 'ai-sdk-ui-mcp-dynamic', render: aiSdkUiMcpDynamic, unescape: unjson },
  { name: 'gemini-contents-cse', render: geminiContents },
  { name: 'cohere-v2-documents', render: cohereV2Documents, unescape: unjson },
  { name: 'mistral-ts', render: mistralTs },
  { name: 'ollama-web-search-repr', render: ollamaWebSearch, unescape: unpy },
  { name: 'autogen-agentchat', render: autogenAgentchat },
  { name: 'pydantic-ai', render: pydanticAi },
  { name: 'llamaindex-function-agent', render: llamaindexFunctionAgent },
  { name: 'smolagents-toolcalling', render: smolagentsToolCalling },
  { name: 'react-langchain-text', render: reactLangchain },
  { name: 'react-paper-text', render: reactPaper },
  { name: 'crewai-verbose-text', render: crewaiVerbose },
]

export const FORMS = process.env.AGENTS_THROWING ? [...BASE_FORMS, ...THROWING_FORMS] : BASE_FORMS
