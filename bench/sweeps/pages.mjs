// Each of the question's ten documents fetched by a call of its own, the page printed as web
// readers and fetch tools print it: a reader's fields over the text (`Title:`, `URL Source:`,
// `Markdown Content:`, with or without a blank line under the label), the page's own title
// underlined under them, a site's menu over it, `From Wikipedia, the free encyclopedia` and
// `Retrieved from "…"` around it, an MCP fetch server's `Contents of …:` line. An OpenAI Chat
// thread. Written in session 39 as probes (the forms with notes around the text read at
// .83 to .86 on the odd half at 65cbd284, against .95 for the text alone). Measured by bench/sweep.mjs.
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
const text = (p) => sentences(p).join(' ')
const url = (title) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replaceAll(' ', '_')).replaceAll('(', '%28').replaceAll(')', '%29')}`

/** The thread: the question, then a `fetch` of each document's page whose result is `page(p)`. */
const fetched = (page) => (q) => [
  { role: 'system', content: 'You are a research assistant. Use the tools to answer.' },
  { role: 'user', content: q.question },
  ...q.paragraphs.flatMap((p, i) => [
    { role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'fetch', arguments: JSON.stringify({ url: url(p.title) }) } }] },
    { role: 'tool', tool_call_id: `call_${i}`, content: page(p) },
  ]),
]
const fields = (p) => `Title: ${p.title}\n\nURL Source: ${url(p.title)}\n\nMarkdown Content:\n`
const underlined = (p) => `${p.title}\n${'='.repeat(p.title.length)}`
const menu = '[Jump to content](#bodyContent)\n\nMain menu\n\n*   [Main page](https://en.wikipedia.org/wiki/Main_Page)\n*   [Contents](https://en.wikipedia.org/wiki/Wikipedia:Contents)\n*   [Random article](https://en.wikipedia.org/wiki/Special:Random)'
const retrieved = (p) => `Retrieved from "${url(p.title)}"`
const encyclopedia = 'From Wikipedia, the free encyclopedia'

export const FORMS = [
  { name: 'reader-fields', render: fetched((p) => `${fields(p)}${text(p)}`) },
  { name: 'reader-fields-spaced', render: fetched((p) => `${fields(p)}\n${text(p)}`) },
  { name: 'reader-retrieved', render: fetched((p) => `${fields(p)}${text(p)}\n\n${retrieved(p)}`) },
  { name: 'reader-encyclopedia', render: fetched((p) => `${fields(p)}${encyclopedia}\n\n${text(p)}`) },
  { name: 'reader-underlined', render: fetched((p) => `${fields(p)}${underlined(p)}\n\n${text(p)}`) },
  { name: 'reader-menu', render: fetched((p) => `Title: ${p.title} - Wikipedia\n\nURL Source: ${url(p.title)}\n\nMarkdown Content:\n${menu}\n\n${underlined(p)}\n\n${encyclopedia}\n\n${text(p)}\n\n${retrieved(p)}`) },
  { name: 'page-notes', render: fetched((p) => `${encyclopedia}\n\n${text(p)}\n\n${retrieved(p)}`) },
  { name: 'underlined-page', render: fetched((p) => `${underlined(p)}\n\n${encyclopedia}\n\n${text(p)}\n\n${retrieved(p)}`) },
  { name: 'mcp-fetch', render: fetched((p) => `Contents of ${url(p.title)}:\n${text(p)}`) },
  { name: 'text-alone', render: fetched((p) => text(p)) },
]
