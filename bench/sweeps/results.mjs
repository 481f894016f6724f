// One web search whose result lists the question's ten documents, in the layouts search tools
// and their wrappers print: a title line over the text (with its address, as a link, in bold,
// numbered), XML records, front matter. An OpenAI Chat thread: the question, one
// `web_search {query}` call, its `role: tool` result. Written in session 35 as probes of forms
// the bench did not have (they found title lines, XML records and front matter that carry an
// address unread). Measured by bench/sweep.mjs.
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
const text = (p) => sentences(p).join(' ')
/** The Wikipedia address of a title, parentheses escaped as a markdown link needs them. */
const wiki = (t) => `https://en.wikipedia.org/wiki/${encodeURIComponent(t.replaceAll(' ', '_')).replaceAll('(', '%28').replaceAll(')', '%29')}`
const link = (t) => `[${t}](${wiki(t)})`

/** The thread: a search for the question whose result is `body(paragraphs)`. */
const search = (body) => (q) => [
  { role: 'system', content: 'You are a research assistant. Use the tools to answer.' },
  { role: 'user', content: q.question },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'web_search', arguments: JSON.stringify({ query: q.question }) } }] },
  { role: 'tool', tool_call_id: 'call_1', content: body(q.paragraphs) },
]

export const FORMS = [
  { name: 'title-dash-url', render: search((ps) => ps.map((p) => `${p.title} - ${wiki(p.title)}\n${text(p)}`).join('\n\n')) },
  { name: 'bold-link-titles', render: search((ps) => ps.map((p) => `**${link(p.title)}**\n${text(p)}`).join('\n\n')) },
  { name: 'heading-links', render: search((ps) => ps.map((p) => `### ${link(p.title)}\n${text(p)}`).join('\n\n')) },
  { name: 'numbered-links', render: search((ps) => ps.map((p, i) => `${i + 1}. ${link(p.title)}\n   ${text(p)}`).join('\n\n')) },
  { name: 'title-lines', render: search((ps) => ps.map((p) => `${p.title}\n${text(p)}`).join('\n\n')) },
  { name: 'xml-results', render: search((ps) => ps.map((p, i) => `<result index="${i + 1}">\n<title>${p.title}</title>\n<url>${wiki(p.title)}</url>\n<content>${text(p)}</content>\n</result>`).join('\n')) },
  { name: 'xml-results-no-url', render: search((ps) => ps.map((p, i) => `<result index="${i + 1}">\n<title>${p.title}</title>\n<content>${text(p)}</content>\n</result>`).join('\n')) },
  { name: 'front-matter', render: search((ps) => ps.map((p) => `---\ntitle: ${p.title}\nurl: ${wiki(p.title)}\n---\n${text(p)}`).join('\n\n')) },
]
