// Issue 18's benchmark of forms: the HotpotQA questions rendered in the forms agents really
// write (text layouts, tool-call threads in each message format, cited reports in several
// citation styles), so that relevance is judged by its worst form, not by the layout of one
// benchmark. Questions are split by index parity: odd indices develop, even ones check.
//
//   node bench/forms.mjs [--half odd|even|all] [--form NAME[,NAME…]] [--limit N] [--no-peer] [--cases]
//
// prints a compact table; `measureForms(options)` returns the numbers for scripts, and `run()`
// is the `npm run bench` section. Every renderer below is deterministic and small; the recall
// rule is the extraction benchmark's (a supporting sentence counts when its whitespace-squashed,
// trimmed text appears in the output, citation markers taken out for the reports).
import { BM25 } from 'fast-bm25'
import { countTokens as gptCountTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { pathToFileURL } from 'node:url'
import { inspect } from 'node:util'

import { countMessageTokens, countTokens, extractRelevantContext, filterSubagentResult } from '../dist/index.js'
import { bm25Sentences, squash } from './extract.mjs'
import { report as filterBenchReport } from './filter.mjs'
import { cases, casesMarkdown, printCases } from './forms-check.mjs'
import { bar, fmt, loadJsonl, table } from './lib.mjs'

/** Share of the full context's (or report's) o200k tokens given as the budget. */
const BUDGET_SHARE = 0.25

// ---------------------------------------------------------------------------------------------
// Renderers. `q` is a HotpotQA record: `paragraphs: [{ title, sentences }]` (sentences keep
// their leading spaces), `supporting: [[title, index]]`.

/** A paragraph's text: its sentences as given, outer whitespace trimmed. */
const paragraphText = (p) => p.sentences.join('').trim()
/** A paragraph's sentences, trimmed, empty ones left out (for per-sentence citation markers). */
const sentencesOf = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
/** The Wikipedia address of a title, as bench/filter.mjs writes it. */
/** LangChain.js's `Document`, for `console.log` to print its class's name as it does there. */
class Document {}
const wiki = (title) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replaceAll(' ', '_'))}`
/** The same, with parentheses escaped too, so that a markdown link's `(…)` stays balanced. */
const wikiLink = (title) => wiki(title).replaceAll('(', '%28').replaceAll(')', '%29')
const FINAL_NOTE = 'I have looked up all ten pages.'

/** The lookup call of paragraph `i`: `search_wikipedia({"title": …})`, or in the varied form one
 *  of five tools with five argument shapes, so that no rule can key on one tool name or key. */
function lookup(title, i, varied) {
  if (!varied) return { name: 'search_wikipedia', input: { title } }
  const tools = [
    () => ({ name: 'fetch_page', input: { query: title } }),
    () => ({ name: 'web_search', input: { q: `${title} wikipedia`, max_results: 1 } }),
    () => ({ name: 'read_url', input: { url: wiki(title) } }),
    () => ({ name: 'lookup', input: { topic: title, source: 'wikipedia' } }),
    () => ({ name: 'search_wikipedia', input: { title } }),
  ]
  return tools[i % tools.length]()
}

/** OpenAI Chat: the question, then per paragraph an assistant call and a `tool` result, a closing note. */
function openaiThread(q, varied = false) {
  const messages = [{ role: 'user', content: q.question }]
  q.paragraphs.forEach((p, i) => {
    const { name, input } = lookup(p.title, i, varied)
    const id = `call_${i + 1}`
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(input) } }] })
    messages.push({ role: 'tool', tool_call_id: id, content: paragraphText(p) })
  })
  messages.push({ role: 'assistant', content: FINAL_NOTE })
  return messages
}

/** Anthropic Messages: `tool_use` blocks in assistant turns, `tool_result` blocks in user turns. */
function anthropicThread(q) {
  const messages = [{ role: 'user', content: q.question }]
  q.paragraphs.forEach((p, i) => {
    const { name, input } = lookup(p.title, i, false)
    const id = `toolu_${String(i + 1).padStart(2, '0')}`
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] })
    // The result as a list of text blocks, as MCP tools and many SDK helpers return it.
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: paragraphText(p) }] }] })
  })
  messages.push({ role: 'assistant', content: [{ type: 'text', text: FINAL_NOTE }] })
  return messages
}

/** Vercel AI SDK (v5) model messages: `tool-call` parts, `tool-result` parts with a text output. */
function aiSdkThread(q) {
  const messages = [{ role: 'user', content: [{ type: 'text', text: q.question }] }]
  q.paragraphs.forEach((p, i) => {
    const { name, input } = lookup(p.title, i, false)
    const toolCallId = `call-${i + 1}`
    messages.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: name, input }] })
    messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: name, output: { type: 'text', value: paragraphText(p) } }] })
  })
  messages.push({ role: 'assistant', content: [{ type: 'text', text: FINAL_NOTE }] })
  return messages
}

/** One search whose result lists all ten documents, `[i] <title>` over each. */
function oneResultThread(q) {
  const call = { id: 'call_1', type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: q.question }) } }
  const listing = q.paragraphs.map((p, i) => `[${i + 1}] ${p.title}\n${paragraphText(p)}`).join('\n\n')
  return [{ role: 'user', content: q.question }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: listing }, { role: 'assistant', content: FINAL_NOTE }]
}

/** Calls that name nothing (`next_page {"page": i}`): each result is titled by its text alone; or
 *  with `json`, calls `get_article {"name"}` whose results are JSON `{"title", "content"}`. */
function pagedThread(q, json = false) {
  const messages = [{ role: 'user', content: q.question }]
  q.paragraphs.forEach((p, i) => {
    const id = `call_${i + 1}`
    const [name, args, content] = json ? ['get_article', { name: p.title }, JSON.stringify({ title: p.title, content: paragraphText(p) })] : ['next_page', { page: i + 1 }, paragraphText(p)]
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })
    messages.push({ role: 'tool', tool_call_id: id, content })
  })
  messages.push({ role: 'assistant', content: FINAL_NOTE })
  return messages
}

/** Gemini `Content`: `functionCall` parts in `model` turns, `functionResponse` parts (`{ output }`) in
 *  `user` turns, tied by name and order (no ids, as the API sent them before it gave ids). */
function geminiThread(q) {
  const contents = [{ role: 'user', parts: [{ text: q.question }] }]
  q.paragraphs.forEach((p, i) => {
    const { name, input } = lookup(p.title, i, false)
    contents.push({ role: 'model', parts: [{ functionCall: { name, args: input } }] })
    contents.push({ role: 'user', parts: [{ functionResponse: { name, response: { output: paragraphText(p) } } }] })
  })
  contents.push({ role: 'model', parts: [{ text: FINAL_NOTE }] })
  return contents
}

/** OpenAI Responses API items: `function_call` and `function_call_output` items beside the messages. */
function responsesThread(q) {
  const items = [{ role: 'user', content: q.question }]
  q.paragraphs.forEach((p, i) => {
    const { name, input } = lookup(p.title, i, false)
    items.push({ type: 'function_call', call_id: `fc_${i + 1}`, name, arguments: JSON.stringify(input) })
    items.push({ type: 'function_call_output', call_id: `fc_${i + 1}`, output: paragraphText(p) })
  })
  items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: FINAL_NOTE }] })
  return items
}

/** One web search for the question itself whose result is the tool's JSON, as `JSON.stringify`
 *  gives it: `{ results: [{ title, url, snippet }] }`. */
function searchJsonThread(q) {
  const call = { id: 'call_1', type: 'function', function: { name: 'web_search', arguments: JSON.stringify({ query: q.question }) } }
  const results = JSON.stringify({ results: q.paragraphs.map((p) => ({ title: p.title, url: wiki(p.title), snippet: paragraphText(p) })) })
  return [{ role: 'user', content: q.question }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: results }, { role: 'assistant', content: FINAL_NOTE }]
}

/** Anthropic: ten `document` blocks (plain text, titled) in the user's message before the question. */
function anthropicDocuments(q) {
  const documents = q.paragraphs.map((p) => ({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: paragraphText(p) }, title: p.title }))
  return [{ role: 'user', content: [...documents, { type: 'text', text: q.question }] }]
}

/** Anthropic: one `search` tool use whose `tool_result` holds ten `search_result` blocks. */
function anthropicSearch(q) {
  const results = q.paragraphs.map((p) => ({ type: 'search_result', source: wiki(p.title), title: p.title, content: [{ type: 'text', text: paragraphText(p) }] }))
  return [
    { role: 'user', content: q.question },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'search', input: { query: q.question } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: results }] },
  ]
}

/** A CSV cell, quoted only where it must be (RFC 4180). */
const csvCell = (cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)

/** Extraction forms: `render(q)` gives a string or a message array. */
export const EXTRACTION_FORMS = [
  // The extraction benchmark's own layout (bench/extract.mjs renderHotpot), byte for byte.
  { name: 'sections', note: '`## <title>` then the sentences', render: (q) => q.paragraphs.map((p) => `## ${p.title}\n${p.sentences.join('')}`).join('\n\n') },
  { name: 'paragraphs', note: 'the paragraphs, no titles, a blank line between', render: (q) => q.paragraphs.map(paragraphText).join('\n\n') },
  { name: 'bullets', note: '`- **<title>**: <sentences>`, one bullet per paragraph', render: (q) => q.paragraphs.map((p) => `- **${p.title}**: ${paragraphText(p)}`).join('\n') },
  { name: 'bullets-dash', note: '`* <title> — <sentences>`, one bullet per paragraph', render: (q) => q.paragraphs.map((p) => `* ${p.title} — ${paragraphText(p)}`).join('\n') },
  // Documents titled in other ways than `##`: every one is read by structure, not a rule per form.
  { name: 'title-lines', note: 'the title alone on a line, a blank line, the paragraph', render: (q) => q.paragraphs.map((p) => `${p.title}\n\n${paragraphText(p)}`).join('\n\n') },
  { name: 'setext', note: 'the title underlined with `---`, the paragraph under it', render: (q) => q.paragraphs.map((p) => `${p.title}\n${'-'.repeat(Math.max(3, p.title.length))}\n${paragraphText(p)}`).join('\n\n') },
  { name: 'numbered', note: '`1. <title>: <sentences>`, one numbered item per paragraph', render: (q) => q.paragraphs.map((p, i) => `${i + 1}. ${p.title}: ${paragraphText(p)}`).join('\n') },
  { name: 'xml-docs', note: "Anthropic's long-context layout: `<document index>` with `<source>` and `<document_content>`", render: (q) => `<documents>\n${q.paragraphs.map((p, i) => `<document index="${i + 1}">\n<source>${p.title}</source>\n<document_content>\n${paragraphText(p)}\n</document_content>\n</document>`).join('\n')}\n</documents>` },
  { name: 'records', note: '`Title: <title>` on the first line of each paragraph', render: (q) => q.paragraphs.map((p) => `Title: ${p.title}\n${paragraphText(p)}`).join('\n\n') },
  { name: 'openai', note: 'OpenAI Chat: user question; per paragraph an assistant `tool_calls` `search_wikipedia {"title"}` and a `role: tool` result; a closing note', render: (q) => openaiThread(q) },
  { name: 'anthropic', note: 'Anthropic Messages: the same with `tool_use` blocks and `tool_result` blocks whose content is a list of one `text` block', render: anthropicThread },
  { name: 'ai-sdk', note: 'AI SDK model messages: `tool-call` / `tool-result` parts, `output: { type: "text", value }`', render: aiSdkThread },
  { name: 'openai-varied', note: 'OpenAI Chat with five tools in turn: `fetch_page {query}`, `web_search {q: "<title> wikipedia"}`, `read_url {url}`, `lookup {topic}`, `search_wikipedia {title}`', render: (q) => openaiThread(q, true) },
  // Documents in one piece, and titles given otherwise (issue 18's held-out renderings, added
  // once they were measured): each must be read document by document.
  { name: 'headed-paragraphs', note: 'one `# Notes` heading over the paragraphs, no titles', render: (q) => `# Notes\n\n${q.paragraphs.map(paragraphText).join('\n\n')}` },
  { name: 'html', note: '`<h2><title></h2>` and `<p><sentences></p>`', render: (q) => q.paragraphs.map((p) => `<h2>${p.title}</h2>\n<p>${paragraphText(p)}</p>`).join('\n') },
  { name: 'answer-paragraphs', note: "OpenAI Chat: the question, then one assistant message holding the ten paragraphs", render: (q) => [{ role: 'user', content: q.question }, { role: 'assistant', content: q.paragraphs.map(paragraphText).join('\n\n') }] },
  { name: 'one-result', note: 'OpenAI Chat: one `search {query: <question>}` whose result lists the ten documents, `[i] <title>` over each', render: oneResultThread },
  { name: 'untitled-calls', note: 'OpenAI Chat: `next_page {page: i}` calls that name nothing, each result a paragraph', render: (q) => pagedThread(q) },
  { name: 'json-results', note: 'OpenAI Chat: `get_article {name}` calls, each result JSON `{"title", "content"}` (recall read on the output with `\\"` unescaped)', render: (q) => pagedThread(q, true) },
  // Renderings measured after the forms above were settled (formats and layouts agents hand
  // over that none of the above is): added once measured, as the ones before them.
  { name: 'gemini', note: 'Gemini `Content`: `functionCall` / `functionResponse {output}` parts without ids', render: geminiThread },
  { name: 'responses', note: 'OpenAI Responses API items: `function_call` / `function_call_output`', render: responsesThread },
  { name: 'records-list', note: '`- title: <title>` over `  text: <sentences>`, one list item per paragraph', render: (q) => q.paragraphs.map((p) => `- title: ${p.title}\n  text: ${paragraphText(p)}`).join('\n') },
  { name: 'table', note: 'a markdown table `| title | text |`, one row per paragraph', render: (q) => `| title | text |\n|---|---|\n${q.paragraphs.map((p) => `| ${p.title} | ${paragraphText(p)} |`).join('\n')}` },
  { name: 'json-array', note: 'one JSON document: `[{"title", "text"}]`, as `JSON.stringify(…, null, 2)` prints it', render: (q) => JSON.stringify(q.paragraphs.map((p) => ({ title: p.title, text: paragraphText(p) })), null, 2) },
  { name: 'search-json', note: 'OpenAI Chat: one `web_search {query: <question>}` whose result is `JSON.stringify({results: [{title, url, snippet}]})`', render: searchJsonThread },
  { name: 'answer-messages', note: 'OpenAI Chat: the question, then one assistant message per paragraph, no titles', render: (q) => [{ role: 'user', content: q.question }, ...q.paragraphs.map((p) => ({ role: 'assistant', content: paragraphText(p) }))] },
  { name: 'answer-bullets', note: 'OpenAI Chat: the question, then one assistant message of bulleted notes `- **<title>**: <sentences>`', render: (q) => [{ role: 'user', content: q.question }, { role: 'assistant', content: q.paragraphs.map((p) => `- **${p.title}**: ${paragraphText(p)}`).join('\n') }] },
  { name: 'result-titles', note: 'OpenAI Chat: one `search {query: <question>}` whose result lists `<title>` over its address, a blank line, the paragraph', render: (q) => [{ role: 'user', content: q.question }, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: q.question }) } }] }, { role: 'tool', tool_call_id: 'call_1', content: q.paragraphs.map((p) => `${p.title}\n${wiki(p.title)}\n\n${paragraphText(p)}`).join('\n\n') }] },
  { name: 'anthropic-documents', note: 'Anthropic: `document` blocks (`source: {type: "text"}`, `title`) in the user message, the question after them', render: anthropicDocuments },
  { name: 'anthropic-search', note: 'Anthropic: one `search` tool use; its `tool_result` holds `search_result` blocks (`title`, `source`, text content)', render: anthropicSearch },
  { name: 'csv', note: 'CSV `title,text`, a row per paragraph, cells quoted where they must be (recall read with `""` unescaped)', unescape: (text) => text.replaceAll('""', '"'), render: (q) => `title,text\n${q.paragraphs.map((p) => `${csvCell(p.title)},${csvCell(paragraphText(p))}`).join('\n')}` },
  { name: 'documents-json', note: 'documents as `JSON.stringify(docs, null, 2)` prints them: `[{page_content, metadata: {source, title}}]`, each title after its text', render: (q) => JSON.stringify(q.paragraphs.map((p) => ({ page_content: paragraphText(p), metadata: { source: wiki(p.title), title: p.title } })), null, 2) },
  { name: 'printed-documents', note: "documents as Node's `console.log` prints LangChain.js ones: `Document { pageContent: '…', metadata: { source, title, loc: [Object] } }`", render: (q) => inspect(q.paragraphs.map((p) => Object.assign(Object.create(Document.prototype), { pageContent: paragraphText(p), metadata: { source: wiki(p.title), title: p.title, loc: { lines: { from: 1, to: p.sentences.length } } } }))) },
  { name: 'json-fence', note: 'OpenAI Chat: an assistant message, a line of prose over a ```json fence holding `[{title, text}]`', render: (q) => [{ role: 'user', content: q.question }, { role: 'assistant', content: `Here are the documents I found:\n\n\`\`\`json\n${JSON.stringify(q.paragraphs.map((p) => ({ title: p.title, text: paragraphText(p) })), null, 2)}\n\`\`\`` }] },
]

// Reports for `filterSubagentResult`: a citation style (how a sentence or paragraph names its
// source, and how sources are defined) times a layout (plain paragraphs, `## <title>` sections,
// bulleted findings under headings). Each style also says how to take its markers out for the
// recall and how to check its citations' integrity.

/** Inserts `mark` before a sentence's closing punctuation (and closing quotes/brackets): `… [3].` */
function beforePunctuation(sentence, mark) {
  const m = sentence.match(/[.!?]["')\]]*$/)
  return m ? `${sentence.slice(0, m.index)}${mark}${m[0]}` : `${sentence}${mark}`
}

/** Numbered definitions with markers `[k]` / `[^k]`: kept markers, how many keep their definition,
 *  definitions kept without a marker. */
function numberedIntegrity(content, footnote) {
  const pre = footnote ? '\\^' : ''
  const defined = new Set([...content.matchAll(new RegExp(`^\\[${pre}(\\d+)\\]:`, 'gm'))].map((m) => m[1]))
  const used = new Set([...content.matchAll(new RegExp(`\\[${pre}(\\d+)\\](?!:)`, 'g'))].map((m) => m[1]))
  return { markers: used.size, withDefinition: [...used].filter((k) => defined.has(k)).length, orphans: [...defined].filter((k) => !used.has(k)).length }
}

/** Inline citations (links, source notes): every kept one is its own definition; a piece of one
 *  (its opening without its whole, e.g. a cut link) counts as a marker without definition. */
function inlineIntegrity(content, q, whole, opening) {
  let complete = 0
  for (const p of q.paragraphs) complete += content.split(whole(p.title)).length - 1
  const starts = content.split(opening).length - 1
  return { markers: Math.max(starts, complete), withDefinition: complete, orphans: 0 }
}

const sourcesList = (q) => `## Sources\n\n${q.paragraphs.map((p, i) => `[${i + 1}]: ${p.title} — ${wiki(p.title)}`).join('\n')}`

export const CITATION_STYLES = {
  before: {
    note: 'marker before the closing punctuation `… [k].`, a `## Sources` list `[k]: <title> — <url>` (bench/filter.mjs)',
    sentence: (s, k) => beforePunctuation(s, ` [${k}]`),
    definitions: sourcesList,
    strip: (content) => content.replace(/ \[\d+\]/g, ''),
    integrity: (content) => numberedIntegrity(content, false),
  },
  after: {
    note: 'marker after the closing punctuation `…. [k]`, the same sources list',
    sentence: (s, k) => `${s} [${k}]`,
    definitions: sourcesList,
    strip: (content) => content.replace(/ \[\d+\]/g, ''),
    integrity: (content) => numberedIntegrity(content, false),
  },
  footnote: {
    note: 'footnote after the punctuation `….[^k]`, definitions `[^k]: <title> — <url>` at the end',
    sentence: (s, k) => `${s}[^${k}]`,
    definitions: (q) => q.paragraphs.map((p, i) => `[^${i + 1}]: ${p.title} — ${wiki(p.title)}`).join('\n'),
    strip: (content) => content.replace(/\[\^\d+\]/g, ''),
    integrity: (content) => numberedIntegrity(content, true),
  },
  'footnote-before': {
    note: 'footnote before the closing punctuation `…[^k].`, the same definitions',
    sentence: (s, k) => beforePunctuation(s, `[^${k}]`),
    definitions: (q) => q.paragraphs.map((p, i) => `[^${i + 1}]: ${p.title} — ${wiki(p.title)}`).join('\n'),
    strip: (content) => content.replace(/\[\^\d+\]/g, ''),
    integrity: (content) => numberedIntegrity(content, true),
  },
  link: {
    note: 'inline link before the closing punctuation `… ([<title>](https://en.wikipedia.org/wiki/<title>)).`, no list',
    sentence: (s, k, p) => beforePunctuation(s, ` ([${p.title}](${wikiLink(p.title)}))`),
    definitions: () => '',
    strip: (content, q) => q.paragraphs.reduce((c, p) => c.replaceAll(` ([${p.title}](${wikiLink(p.title)}))`, ''), content),
    integrity: (content, q) => inlineIntegrity(content, q, (t) => `[${t}](${wikiLink(t)})`, '](https://en.wikipedia.org/wiki/'),
  },
  lenticular: {
    note: 'a marker in lenticular brackets after the punctuation `….【k†source】`, no list',
    sentence: (s, k) => `${s}【${k}†source】`,
    definitions: () => '',
    strip: (content) => content.replace(/【\d+†source】/g, ''),
    integrity: (content) => {
      const markers = content.match(/【\d+†source】/g)?.length ?? 0
      return { markers, withDefinition: markers, orphans: 0 }
    },
  },
  listed: {
    note: 'marker after the punctuation `…. [k]`, a `References:` list `k. <title> (<url>)` without the colon of a definition',
    sentence: (s, k) => `${s} [${k}]`,
    definitions: (q) => `References:\n${q.paragraphs.map((p, i) => `${i + 1}. ${p.title} (${wiki(p.title)})`).join('\n')}`,
    strip: (content) => content.replace(/ \[\d+\]/g, ''),
    integrity: (content) => {
      const defined = new Set([...content.matchAll(/^(\d+)\. /gm)].map((m) => m[1]))
      const used = new Set([...content.matchAll(/ \[(\d+)\]/g)].map((m) => m[1]))
      return { markers: used.size, withDefinition: [...used].filter((k) => defined.has(k)).length, orphans: [...defined].filter((k) => !used.has(k)).length }
    },
  },
  source: {
    note: 'paragraph-level note: without headings a bold lead `**<title>.**` opens the paragraph; `(source: <title>)` closes it; no list',
    paragraph: (p, headed) => `${headed ? '' : `**${p.title}.** `}${sentencesOf(p).join(' ')} (source: ${p.title})`,
    definitions: () => '',
    strip: (content, q) => q.paragraphs.reduce((c, p) => c.replaceAll(` (source: ${p.title})`, ''), content),
    integrity: (content, q) => inlineIntegrity(content, q, (t) => `(source: ${t})`, '(source:'),
  },
}

/** A report in `style` and `layout` ('plain' | 'headed' | 'findings'). */
function renderReport(q, style, layout) {
  const s = CITATION_STYLES[style]
  const body = q.paragraphs.map((p, i) => {
    if (layout === 'findings') return `## ${p.title}\n\n${sentencesOf(p).map((x) => `- ${s.sentence(x, i + 1, p)}`).join('\n')}`
    const text = s.paragraph ? s.paragraph(p, layout === 'headed') : sentencesOf(p).map((x) => s.sentence(x, i + 1, p)).join(' ')
    return layout === 'headed' ? `## ${p.title}\n\n${text}` : text
  })
  const definitions = s.definitions(q)
  const top = layout === 'one-heading' ? '## Findings' : '# Research notes'
  return `${top}\n\n${body.join('\n\n')}\n${definitions ? `\n${definitions}\n` : ''}`
}

export const FILTER_FORMS = [
  ...['before', 'after', 'footnote', 'link', 'source'].flatMap((style) => [
    { name: `${style}`, style, layout: 'plain', note: `${CITATION_STYLES[style].note}; paragraphs without headings` },
    { name: `${style}-headed`, style, layout: 'headed', note: `the same under \`## <title>\` headings` },
  ]),
  { name: 'footnote-before', style: 'footnote-before', layout: 'plain', note: `${CITATION_STYLES['footnote-before'].note}; paragraphs without headings` },
  { name: 'findings-before', style: 'before', layout: 'findings', note: 'bulleted findings under `## <title>` headings, one sentence a bullet, `[k]` before the punctuation' },
  { name: 'findings-after', style: 'after', layout: 'findings', note: 'the same with `[k]` after the punctuation' },
  { name: 'lenticular', style: 'lenticular', layout: 'plain', note: `${CITATION_STYLES.lenticular.note}; paragraphs without headings` },
  { name: 'listed', style: 'listed', layout: 'plain', note: `${CITATION_STYLES.listed.note}; paragraphs without headings` },
  { name: 'one-heading', style: 'after', layout: 'one-heading', note: 'one `## Findings` heading over all the paragraphs, `[k]` after the punctuation, the sources list' },
]
for (const f of FILTER_FORMS) f.render = (q) => renderReport(q, f.style, f.layout)
// The filter benchmark's own report, byte for byte (its sentences keep HotpotQA's leading spaces,
// so they are joined by two spaces): the same figures as bench/filter.mjs.
FILTER_FORMS[0].render = filterBenchReport

// ---------------------------------------------------------------------------------------------
// The peer: a plain BM25 over sentences. On text it is bench/extract.mjs's `bm25Sentences`; on a
// thread every message's text is cut into sentences, and each sentence of a tool result is
// indexed with its call's arguments prepended (the output holds the sentence alone).

/** Calls (id → arguments text) and text pieces ({ text, callId? }) of a thread in any of the three formats. */
function threadPieces(messages) {
  const args = new Map()
  const pieces = []
  const json = (x) => (typeof x === 'string' ? x : JSON.stringify(x))
  for (const m of messages) {
    if (typeof m.content === 'string') pieces.push({ text: m.content, callId: m.role === 'tool' ? m.tool_call_id : undefined })
    for (const c of m.tool_calls ?? []) args.set(c.id, c.function.arguments)
    if (!Array.isArray(m.content)) continue
    for (const part of m.content) {
      if (part.type === 'text') pieces.push({ text: part.text })
      else if (part.type === 'tool_use') args.set(part.id, json(part.input))
      else if (part.type === 'tool-call') args.set(part.toolCallId, json(part.input))
      else if (part.type === 'tool_result') pieces.push({ text: Array.isArray(part.content) ? part.content.map((b) => b.text ?? '').join('\n') : json(part.content), callId: part.tool_use_id })
      else if (part.type === 'tool-result') pieces.push({ text: json(part.output?.value ?? part.output), callId: part.toolCallId })
    }
  }
  return { args, pieces }
}

/** BM25 over a thread's sentences, a result's sentences indexed with their call's arguments. */
export function bm25Thread(messages, task, budget) {
  const { args, pieces } = threadPieces(messages)
  const units = []
  for (const { text, callId } of pieces) {
    for (const s of text.split(/(?<=[.!?])\s+/)) {
      if (!s.trim()) continue
      units.push({ text: s, index: callId && args.has(callId) ? `${args.get(callId)} ${s}` : s })
    }
  }
  const order = new BM25(units.map((u) => ({ text: u.index }))).search(task, units.length).map((r) => r.index)
  // Greedy fill as bench/extract.mjs's peers do: best first, skip what no longer fits, print in order.
  const kept = new Set()
  let used = 0
  for (const i of order) {
    const tokens = gptCountTokens(`${units[i].text}\n`)
    if (used + tokens > budget) continue
    kept.add(i)
    used += tokens
  }
  return units.filter((_, i) => kept.has(i)).map((u) => u.text).join('\n')
}

// ---------------------------------------------------------------------------------------------
// Measuring.

/** Supporting sentences found in `text` (whitespace squashed), out of all. */
function recall(q, text) {
  // JSON output escapes a quote (`\"`): the sentence is there all the same.
  const haystack = squash(text.replaceAll('\\"', '"'))
  let hits = 0
  for (const [title, index] of q.supporting) {
    const sentence = q.paragraphs.find((p) => p.title === title).sentences[index]
    if (haystack.includes(squash(sentence))) hits++
  }
  return hits / q.supporting.length
}

/** The questions with their index in the data set; `half` 'odd' (develop), 'even' (check) or 'all'. */
export function questions({ half = 'all', limit = Infinity } = {}) {
  if (!['odd', 'even', 'all'].includes(half)) throw new Error(`half must be odd, even or all, got ${half}`)
  const all = loadJsonl('hotpotqa.jsonl.gz').map((q, index) => ({ ...q, index }))
  return all.filter((q) => half === 'all' || q.index % 2 === (half === 'odd' ? 1 : 0)).slice(0, limit)
}

/** One question in one form: ours and (optionally) the peer. */
function measureOne(form, kind, q, peer) {
  const context = form.render(q)
  const isThread = Array.isArray(context)
  const full = isThread ? countMessageTokens(context) : countTokens(context)
  const budget = Math.floor(full * BUDGET_SHARE)
  const row = { index: q.index, budget }
  const t0 = performance.now()
  if (kind === 'extract') {
    const r = extractRelevantContext(context, q.question, { maxTokens: budget })
    row.ms = performance.now() - t0
    // A form that escapes quotes its own way (CSV's `""`) reads its output unescaped.
    row.recall = recall(q, form.unescape ? form.unescape(r.relevantContext) : r.relevantContext)
    row.over = countTokens(r.relevantContext) > budget || (isThread && r.relevantMessages && countMessageTokens(r.relevantMessages) > budget)
    if (peer) row.peer = recall(q, isThread ? bm25Thread(context, q.question, budget) : bm25Sentences(context, q.question, budget))
  } else {
    const style = CITATION_STYLES[form.style]
    const content = filterSubagentResult(context, q.question, { maxTokens: budget }).content
    row.ms = performance.now() - t0
    row.recall = recall(q, style.strip(content, q))
    row.over = countTokens(content) > budget
    row.integrity = style.integrity(content, q)
    if (peer) row.peer = recall(q, style.strip(bm25Sentences(context, q.question, budget), q))
  }
  return row
}

const summarize = (rows) => {
  const n = rows.length
  const sum = (f) => rows.reduce((a, r) => a + f(r), 0)
  const s = { n, recall: sum((r) => r.recall) / n, allRecalled: sum((r) => (r.recall === 1 ? 1 : 0)) / n, over: sum((r) => (r.over ? 1 : 0)) }
  if (rows[0]?.peer !== undefined) Object.assign(s, { peerRecall: sum((r) => r.peer) / n, peerAllRecalled: sum((r) => (r.peer === 1 ? 1 : 0)) / n })
  if (rows[0]?.integrity) Object.assign(s, { markers: sum((r) => r.integrity.markers), withDefinition: sum((r) => r.integrity.withDefinition), orphans: sum((r) => r.integrity.orphans) })
  return s
}

/**
 * The numbers: for every selected form, its summary on the odd half, the even half and all the
 * selected questions (`{ n, recall, allRecalled, over, peerRecall?, markers?, … }`), and the worst
 * extraction and filter form (by recall) on each half. `forms` filters by name; `limit` keeps the
 * first N questions of the selected half; `peer: false` skips the BM25 peer.
 */
export function measureForms({ half = 'all', forms, limit = Infinity, peer = true, perQuestion = false } = {}) {
  const qs = questions({ half, limit })
  const pick = (list) => (forms?.length ? list.filter((f) => forms.includes(f.name)) : list)
  const results = []
  for (const [kind, list] of [['extract', pick(EXTRACTION_FORMS)], ['filter', pick(FILTER_FORMS)]]) {
    for (const form of list) {
      const started = performance.now()
      const rows = qs.map((q) => measureOne(form, kind, q, peer))
      const halves = {}
      for (const h of ['odd', 'even']) {
        const part = rows.filter((r) => r.index % 2 === (h === 'odd' ? 1 : 0))
        if (part.length) halves[h] = summarize(part)
      }
      halves.all = summarize(rows)
      results.push({ kind, name: form.name, note: form.note, ...halves, ms: performance.now() - started, ...(perQuestion ? { rows } : {}) })
    }
  }
  const worst = {}
  for (const kind of ['extract', 'filter']) {
    worst[kind] = {}
    for (const h of ['odd', 'even', 'all']) {
      const candidates = results.filter((r) => r.kind === kind && r[h])
      if (candidates.length) worst[kind][h] = candidates.reduce((a, b) => (b[h].recall < a[h].recall ? b : a)).name
    }
  }
  return { questions: qs.length, results, worst }
}

// ---------------------------------------------------------------------------------------------
// Reporting.

const r3 = (x) => (x === undefined ? '' : fmt(x, 3))

function formTable(numbers, kind, { markdown }) {
  const rows = numbers.results.filter((r) => r.kind === kind)
  if (!rows.length) return ''
  const halves = ['odd', 'even', 'all'].filter((h) => rows[0][h])
  const header = ['form', ...halves.flatMap((h) => [`${h} recall`, `${h} all`]), 'over budget', 'peer recall (all)']
  if (kind === 'filter') header.push('markers kept', 'with definition', 'orphan defs')
  const body = rows.map((r) => {
    const cells = [r.name, ...halves.flatMap((h) => [r3(r[h].recall), r3(r[h].allRecalled)]), r.all.over, r3(r.all.peerRecall)]
    if (kind === 'filter') cells.push(r.all.markers, r.all.withDefinition, r.all.orphans)
    return cells
  })
  const worst = halves.map((h) => {
    const w = rows.find((r) => r.name === numbers.worst[kind][h])
    return `${h}: ${w.name} ${r3(w[h].recall)}`
  })
  if (markdown) return `${table(header, body)}\n\nWorst ${kind === 'extract' ? 'extraction' : 'filter'} form — ${worst.join('; ')}.`
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)))
  const line = (cells) => cells.map((c, i) => (i ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ')
  return [line(header), ...body.map(line), `worst — ${worst.join('; ')}`].join('\n')
}

/** Issue 18's bars that this benchmark measures, on the halves present: [text, ok] pairs. */
export function bars(numbers) {
  const out = []
  const of = (kind) => numbers.results.filter((r) => r.kind === kind)
  for (const h of ['odd', 'even', 'all']) {
    for (const [kind, label] of [['extract', 'extraction'], ['filter', 'filter']]) {
      const w = of(kind).find((r) => r.name === numbers.worst[kind]?.[h])
      if (w) out.push([`${h}: worst ${label} form ≥ 0.88 (${w.name} ${r3(w[h].recall)})`, w[h].recall >= 0.88])
    }
    const s = of('extract').find((r) => r.name === 'sections')?.[h]
    if (s) out.push([`${h}: headed sections ≥ 0.92 recall and ≥ 0.83 all recalled (${r3(s.recall)}, ${r3(s.allRecalled)})`, s.recall >= 0.92 && s.allRecalled >= 0.83])
  }
  const filters = of('filter')
  if (filters.length) {
    const missing = filters.reduce((n, r) => n + r.all.markers - r.all.withDefinition, 0)
    const orphans = filters.reduce((n, r) => n + r.all.orphans, 0)
    out.push([`no kept citation marker without its definition (${missing} without, ${orphans} orphan definitions)`, missing === 0])
  }
  const over = numbers.results.reduce((n, r) => n + r.all.over, 0)
  out.push([`nothing over budget (${over})`, over === 0])
  return out
}

/** The `npm run bench` section: `parts` among 'extract', 'filter', 'cases'. */
export async function run(parts = ['extract', 'filter', 'cases']) {
  const lines = []
  const say = (s = '') => lines.push(s)
  say('## Relevance in every form (issue 18)')
  say()
  const started = performance.now()
  const numbers = measureForms({ forms: [...(parts.includes('extract') ? EXTRACTION_FORMS : []), ...(parts.includes('filter') ? FILTER_FORMS : [])].map((f) => f.name) })
  const seconds = (performance.now() - started) / 1000
  say(
    `The ${numbers.questions} questions of \`hotpotqa.jsonl.gz\`, each rendered in every form below; task = the question; budget = floor(25 %) of the rendering's o200k tokens (\`countMessageTokens\` for a thread). Recall: a supporting sentence counts when its whitespace-squashed, trimmed text appears in the output (\`relevantContext\` for extraction, \`content\` with its citation markers taken out for filtering); "all" is the share of questions with every supporting sentence recalled. Odd question indices are the development half, even ones the check half. Over budget: \`countTokens\` of the output (and \`countMessageTokens\` of \`relevantMessages\`) above the budget. The peer is a plain BM25 (fast-bm25) over sentences, filled best first by gpt-tokenizer counts; on threads each result sentence is indexed with its call's arguments prepended. ${fmt(seconds, 0)} s for all forms.`,
  )
  say()
  if (parts.includes('extract')) {
    say('### Extraction (`extractRelevantContext`)')
    say()
    for (const f of EXTRACTION_FORMS) say(`- **${f.name}**: ${f.note}`)
    say()
    say(formTable(numbers, 'extract', { markdown: true }))
    say()
  }
  if (parts.includes('filter')) {
    say('### Result filtering (`filterSubagentResult`), a report citing all ten paragraphs')
    say()
    for (const f of FILTER_FORMS) say(`- **${f.name}**: ${f.note}`)
    say()
    say('Markers kept, with definition, orphan definitions: summed over all questions (distinct markers per result for `[k]`/`[^k]`; for inline links and source notes every whole one is its own definition and a cut piece counts as a marker without one).')
    say()
    say(formTable(numbers, 'filter', { markdown: true }))
    say()
  }
  say('Bars of issue 18 measured here (the issue checks them on questions and renderings this benchmark does not have):')
  say()
  for (const [text, ok] of bars(numbers)) say(`- ${bar(ok, text)}`)
  say()
  if (parts.includes('cases')) {
    say('### The issue\'s named cases (measured, not asserted)')
    say()
    say(casesMarkdown(cases()))
    say()
  }
  return lines.join('\n')
}

function parseArgs(argv) {
  const options = { half: 'all', forms: undefined, limit: Infinity, peer: true, cases: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--half') options.half = argv[++i]
    else if (a === '--form') options.forms = [...(options.forms ?? []), ...argv[++i].split(',')]
    else if (a === '--limit') options.limit = Number(argv[++i])
    else if (a === '--no-peer') options.peer = false
    else if (a === '--cases') options.cases = true
    else throw new Error(`unknown argument ${a}; usage: node bench/forms.mjs [--half odd|even|all] [--form NAME[,NAME…]] [--limit N] [--no-peer] [--cases]`)
  }
  const known = [...EXTRACTION_FORMS, ...FILTER_FORMS].map((f) => f.name)
  for (const f of options.forms ?? []) if (!known.includes(f)) throw new Error(`unknown form ${f}; forms: ${known.join(', ')}`)
  return options
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let options
  try {
    options = parseArgs(process.argv.slice(2))
  } catch (e) {
    console.error(e.message)
    process.exit(2)
  }
  const started = performance.now()
  const numbers = measureForms(options)
  console.log(`${numbers.questions} questions (half ${options.half}${Number.isFinite(options.limit) ? `, first ${options.limit}` : ''}), budget 25 %`)
  for (const kind of ['extract', 'filter']) {
    const t = formTable(numbers, kind, { markdown: false })
    if (t) console.log(`\n${kind === 'extract' ? 'extractRelevantContext' : 'filterSubagentResult'}\n${t}`)
  }
  console.log('\nbars')
  for (const [text, ok] of bars(numbers)) console.log(`  ${ok ? 'met ' : 'MISS'} ${text}`)
  console.log(`\n${fmt((performance.now() - started) / 1000, 1)} s`)
  if (options.cases) printCases(cases())
}
