// One web search whose result lists the question's ten documents with their titles dressed as
// chat models and tools dress them: pictographs before a title (`📄 **Title**`, `### 📄 Title`,
// `📄 Title`, a keycap `1️⃣`, an arrow), marks around it (`_Title_`, `[Title]`, `` `Title` ``,
// `【Title】`), an index or a label before it (`【1】Title`, `Result 1 of 10: Title`), fields a bar
// apart (`Title: … | Source: … | Date: …`), rules over and under it (box-drawn, `=`, `*`, `#`)
// or around it (`===== Title =====`, session 39), a `<details>` element
// titled by its `<summary>`; and the same documents undressed (`**Title**`, `- **Title**`) to
// compare with. An OpenAI Chat thread as in `results.mjs`. Written in session 36 as probes
// (each dressed form lost .10 to .23 against its undressed twin). Measured by bench/sweep.mjs.
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
const text = (p) => sentences(p).join(' ')

/** The thread: a search for the question whose result is `body(paragraphs)`. */
const search = (body) => (q) => [
  { role: 'system', content: 'You are a research assistant. Use the tools to answer.' },
  { role: 'user', content: q.question },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'web_search', arguments: JSON.stringify({ query: q.question }) } }] },
  { role: 'tool', tool_call_id: 'call_1', content: body(q.paragraphs) },
]
/** A keycap emoji of a number (`1️⃣`). */
const keycap = (n) => `${n}\uFE0F\u20E3`
/** Recall is read on the text: the markup the form wraps words in is left out. */
const untagged = (t) => t.replace(/<\/?(summary|details)>/g, '')

export const FORMS = [
  { name: 'bold-titles', render: search((ps) => ps.map((p) => `**${p.title}**\n${text(p)}`).join('\n\n')) },
  { name: 'bulleted-bold-titles', render: search((ps) => ps.map((p) => `- **${p.title}**\n${text(p)}`).join('\n\n')) },
  { name: 'pictograph-bold-titles', render: search((ps) => ps.map((p) => `📄 **${p.title}**\n${text(p)}`).join('\n\n')) },
  { name: 'pictograph-titles', render: search((ps) => ps.map((p) => `📄 ${p.title}\n${text(p)}`).join('\n\n')) },
  { name: 'pictograph-headings', render: search((ps) => ps.map((p) => `### 📄 ${p.title}\n${text(p)}`).join('\n\n')) },
  { name: 'keycap-bold-titles', render: search((ps) => ps.map((p, i) => `${keycap(i + 1)} **${p.title}**\n${text(p)}`).join('\n\n')) },
  { name: 'arrow-bold-titles', render: search((ps) => ps.map((p) => `▶ **${p.title}**\n${text(p)}`).join('\n\n')) },
  { name: 'italic-titles', render: search((ps) => ps.map((p) => `_${p.title}_\n${text(p)}`).join('\n\n')) },
  { name: 'bracketed-titles', render: search((ps) => ps.map((p) => `[${p.title}]\n${text(p)}`).join('\n\n')) },
  { name: 'code-titles', render: search((ps) => ps.map((p) => `\`${p.title}\`\n${text(p)}`).join('\n\n')) },
  { name: 'full-width-bracketed-titles', render: search((ps) => ps.map((p) => `【${p.title}】\n${text(p)}`).join('\n\n')) },
  { name: 'full-width-indexed-titles', render: search((ps) => ps.map((p, i) => `【${i + 1}】${p.title}\n${text(p)}`).join('\n\n')) },
  { name: 'result-k-of-n', render: search((ps) => ps.map((p, i) => `Result ${i + 1} of ${ps.length}: ${p.title}\n${text(p)}`).join('\n\n')) },
  { name: 'barred-fields', render: search((ps) => ps.map((p) => `Title: ${p.title} | Source: en.wikipedia.org | Date: 2024-01-01\n${text(p)}`).join('\n\n')) },
  { name: 'box-rules', render: search((ps) => ps.map((p) => `${'═'.repeat(40)}\n${p.title}\n${'═'.repeat(40)}\n${text(p)}`).join('\n')) },
  { name: 'equals-rules', render: search((ps) => ps.map((p) => `${'='.repeat(40)}\n${p.title}\n${'='.repeat(40)}\n${text(p)}`).join('\n')) },
  { name: 'star-rules', render: search((ps) => ps.map((p) => `${'*'.repeat(40)}\n${p.title}\n${'*'.repeat(40)}\n${text(p)}`).join('\n')) },
  { name: 'hash-rules', render: search((ps) => ps.map((p) => `${'#'.repeat(40)}\n${p.title}\n${'#'.repeat(40)}\n${text(p)}`).join('\n')) },
  { name: 'labelled-rules', render: search((ps) => ps.map((p) => `===== ${p.title} =====\n${text(p)}`).join('\n')) },
  { name: 'dashed-labelled-rules', render: search((ps) => ps.map((p) => `----- ${p.title} -----\n${text(p)}`).join('\n')) },
  { name: 'details-summary', render: search((ps) => ps.map((p) => `<details>\n<summary>${p.title}</summary>\n\n${text(p)}\n</details>`).join('\n')), unescape: untagged },
]
