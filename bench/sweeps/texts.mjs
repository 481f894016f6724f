// Text renderings of a HotpotQA record (ten paragraphs, sometimes the question) in the shapes real
// tools, formats and agents print. Measured by bench/sweep.mjs.
// Each form: { name, render(q) -> string, unescape?(text) -> text with the format's escaping undone }.
import { inspect } from 'node:util'

// ---------- shared helpers ----------
const text = (p) => p.sentences.join('').trim()
const sents = (p) => p.sentences.map((s) => s.trim())
const slug = (t) => t.replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '')
const url = (t) => `https://en.wikipedia.org/wiki/${t.replaceAll(' ', '_')}`
const pad = (n, w = 2) => String(n).padStart(w, '0')
const blocks = (q, fn, sep = '\n\n') => q.paragraphs.map(fn).join(sep)

// Greedy word wrap at spaces only (no hyphenation; an over-long word stays whole on its own line).
function wrap(s, width, indent = '') {
  const lines = []
  let line = ''
  for (const w of s.split(/ +/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + w.length > width) { lines.push(indent + line); line = w }
    else line = line ? `${line} ${w}` : w
  }
  if (line) lines.push(indent + line)
  return lines.join('\n')
}

// Clock: deterministic timestamps, `sec` seconds after 2024-03-01 10:00:00 UTC.
const BASE = Date.UTC(2024, 2, 1, 10, 0, 0)
const iso = (sec) => new Date(BASE + sec * 1000).toISOString()
const hhmm = (sec) => iso(sec).slice(11, 16)
const cueTime = (ms, sep) => `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`

// Escapes and their inverses.
const xmlEsc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const attrEsc = (s) => xmlEsc(s).replace(/"/g, '&quot;')
const xmlUnesc = (s) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e])
const jsonUnesc = (s) => s.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, e) =>
  e[0] === 'u' ? String.fromCharCode(parseInt(e.slice(1), 16)) : ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })[e] ?? e)
// Backslash escapes of Python / JS string literals (\xNN, \uNNNN, \UNNNNNNNN, \u{...}, \', \\, \n ...).
const backslashUnesc = (s) => s.replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e) => {
  if (/^[xuU]/.test(e) && e.length > 1) return String.fromCodePoint(parseInt(e.replace(/^[xuU]\{?|\}$/g, ''), 16))
  return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' })[e] ?? e
})
const LATEX = { '\\': '\\textbackslash{}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}' }
const latexEsc = (s) => s.replace(/[\\&%$#_{}~^]/g, (c) => LATEX[c] ?? `\\${c}`)
const latexUnesc = (s) => s.replace(/\\textbackslash\{\}|\\textasciitilde\{\}|\\textasciicircum\{\}|\\([&%$#_{}])/g,
  (m, c) => c ?? { '\\textbackslash{}': '\\', '\\textasciitilde{}': '~', '\\textasciicircum{}': '^' }[m])
const csvField = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
const tomlStr = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
// YAML scalar as js-yaml dumps it: plain when safe, else single-quoted with '' doubling.
const yamlScalar = (s) => (/^[\p{L}\p{N}(][^:#\[\]{},"'&*!|>%@`]*$/u.test(s) && !/\s$/.test(s) && !/^(true|false|null|yes|no|on|off|~|[\d.]+)$/i.test(s) ? s : `'${s.replace(/'/g, "''")}'`)
// Python repr() of str, list and dict (quote choice and escapes as CPython prints them).
function pyRepr(v) {
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`
  if (typeof v === 'number') return String(v)
  const qc = v.includes("'") && !v.includes('"') ? '"' : "'"
  return qc + [...v].map((c) => {
    if (c === '\\' || c === qc) return `\\${c}`
    if (c === '\n') return '\\n'
    if (c === '\t') return '\\t'
    if (c !== ' ' && /[\p{C}\p{Z}]/u.test(c)) {
      const cp = c.codePointAt(0)
      return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`
    }
    return c
  }).join('') + qc
}

// ---------- markup documents ----------
function rst(q) {
  const title = 'Reference passages'
  return `${'='.repeat(title.length)}\n${title}\n${'='.repeat(title.length)}\n\n` +
    blocks(q, (p) => `${p.title}\n${'='.repeat([...p.title].length)}\n\n${text(p)}`)
}
const asciidoc = (q) => `= Reference passages\n:toc:\n\n` + blocks(q, (p) => `== ${p.title}\n\n${text(p)}`)
const org = (q) => `#+TITLE: Reference passages\n#+STARTUP: showall\n\n` +
  blocks(q, (p) => `* ${p.title}\n:PROPERTIES:\n:SOURCE: ${url(p.title)}\n:END:\n${text(p)}`, '\n\n')
const mediawiki = (q) => blocks(q, (p) => `== ${p.title} ==\n${text(p)}`)
const latex = (q) => `\\documentclass{article}\n\\begin{document}\n\n` +
  blocks(q, (p) => `\\section{${latexEsc(p.title)}}\n${latexEsc(text(p))}`) + `\n\n\\end{document}\n`
const mdH3Bold = (q) => `# Research notes\n\n` + blocks(q, (p, i) => `### ${i + 1}. ${p.title}\n\n**Summary.** ${text(p)}`)
const mdDeflist = (q) => blocks(q, (p) => `${p.title}\n:   ${text(p)}`)
const numbered = (q) => `1 Retrieved passages\n\n` + blocks(q, (p, i) => `1.${i + 1} ${p.title}\n${text(p)}`)
const allcaps = (q) => blocks(q, (p) => `${p.title.toUpperCase()}\n\n${text(p)}`)
const colonTitles = (q) => blocks(q, (p) => `${p.title}:\n${text(p)}`)
const titleSource = (q) => blocks(q, (p) => `${p.title} (Wikipedia)\n${text(p)}`)

// ---------- data serialisations ----------
const yamlLiteral = (q) => blocks(q, (p) => `- title: ${yamlScalar(p.title)}\n  source: wikipedia\n  content: |\n    ${text(p)}`, '\n')
const yamlFolded = (q) => `docs:\n` + blocks(q, (p) => `  - title: ${yamlScalar(p.title)}\n    content: >\n${wrap(text(p), 80, '      ')}`, '\n')
const toml = (q) => `# retrieved passages\n\n` + blocks(q, (p, i) => `[[docs]]\nid = ${i + 1}\ntitle = ${tomlStr(p.title)}\ntext = ${tomlStr(text(p))}`)
const ini = (q) => blocks(q, (p) => `[${p.title}]\nsource = wikipedia\ntext = ${sents(p).filter(Boolean).join('\n\t')}`) + '\n'
const jsonl = (q) => q.paragraphs.map((p) => JSON.stringify({ title: p.title, text: text(p) })).join('\n')
const csv = (q) => `title,text\n` + q.paragraphs.map((p) => `${csvField(p.title)},${csvField(text(p))}`).join('\n')
const pyReprList = (q) => pyRepr(q.paragraphs.map((p) => ({ title: p.title, sentences: p.sentences })))
const jsInspect = (q) => inspect(q.paragraphs.map((p) => ({ title: p.title, text: text(p) })),
  { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: 80 })
function jupyter(q) {
  const cells = [{ cell_type: 'markdown', metadata: {}, source: [`## ${q.question}`] }]
  q.paragraphs.forEach((p, i) => cells.push({
    cell_type: 'code', execution_count: i + 1, metadata: {}, source: [`print(wiki.summary(${JSON.stringify(p.title)}))`],
    outputs: [{ name: 'stdout', output_type: 'stream', text: [`${text(p)}\n`] }],
  }))
  const nb = { cells, metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } }, nbformat: 4, nbformat_minor: 5 }
  return JSON.stringify(nb, null, 1)
}

// ---------- web ----------
const rss = (q) => `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n<channel>\n<title>Reference passages</title>\n<link>https://en.wikipedia.org/</link>\n` +
  blocks(q, (p, i) => `<item>\n<title><![CDATA[${p.title}]]></title>\n<link>${url(p.title)}</link>\n<guid isPermaLink="false">doc-${i + 1}</guid>\n<description><![CDATA[${text(p)}]]></description>\n</item>`, '\n') +
  `\n</channel>\n</rss>\n`
const atom = (q) => `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n  <title>Reference passages</title>\n  <updated>${iso(0)}</updated>\n` +
  blocks(q, (p, i) => `  <entry>\n    <title>${xmlEsc(p.title)}</title>\n    <link href="${attrEsc(url(p.title))}"/>\n    <id>urn:doc:${i + 1}</id>\n    <updated>${iso(i * 60)}</updated>\n    <summary type="text">${xmlEsc(text(p))}</summary>\n  </entry>`, '\n') +
  `\n</feed>\n`
const htmlArticle = (q) => `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${xmlEsc(q.question)}</title></head>\n<body>\n<main>\n` +
  blocks(q, (p) => `<article>\n  <h3>${xmlEsc(p.title)}</h3>\n  <p>${xmlEsc(text(p))}</p>\n</article>`, '\n') + `\n</main>\n</body>\n</html>\n`
const htmlDl = (q) => `<dl>\n` + blocks(q, (p) => `  <dt>${xmlEsc(p.title)}</dt>\n  <dd>${xmlEsc(text(p))}</dd>`, '\n') + `\n</dl>\n`
// Markup as pages and tools hand it over: minified on one line, or with breaks and bold for titles.
const htmlMinResults = (q) => `<div id="results">` +
  blocks(q, (p) => `<div class="result"><a href="${attrEsc(url(p.title))}">${xmlEsc(p.title)}</a><p>${xmlEsc(text(p))}</p></div>`, '') + `</div>`
const htmlBoldBreaks = (q) => blocks(q, (p) => `<b>${xmlEsc(p.title)}</b><br>${xmlEsc(text(p))}<br><br>`, '\n')
const htmlListStrong = (q) => `<ul>\n` + blocks(q, (p) => `  <li><strong>${xmlEsc(p.title)}</strong>: ${xmlEsc(text(p))}</li>`, '\n') + `\n</ul>\n`
const htmlBoldParagraphs = (q) => blocks(q, (p) => `<p><b>${xmlEsc(p.title)}</b></p><p>${xmlEsc(text(p))}</p>`, '')
// A document of several paragraphs under its heading, as articles are written (every
// paragraph of the data is one: here its first sentence, then the rest). Written in
// session 37, where it stood at .816 / .804 against .950 / .921 for the same documents as one
// paragraph (md-h3-bold): later paragraphs lose their document's standing.
const headedParagraphs = (q) => blocks(q, (p) => `## ${p.title}\n\n${sents(p)[0]}\n\n${sents(p).slice(1).join(' ')}`.trimEnd())
const serp = (q) => `Search results for "${q.question}"\nAbout ${q.paragraphs.length} results\n\n` +
  blocks(q, (p, i) => `${i + 1}. ${p.title} - Wikipedia\n   ${url(p.title)}\n   ${text(p)}`)

// ---------- tool output ----------
const grep = (q) => q.paragraphs.flatMap((p) => sents(p).map((s, i) => `wiki/${slug(p.title)}.txt:${i + 1}:${s}`)).join('\n')
function logLines(q) {
  let t = 0
  return q.paragraphs.flatMap((p, j) => [
    `${iso(t++)} INFO  fetcher: GET ${url(p.title)} -> 200 (doc ${j + 1}/${q.paragraphs.length}, title="${p.title}")`,
    ...sents(p).map((s, i) => `${iso(t++)} DEBUG fetcher: [${slug(p.title)}#${i}] ${s}`),
  ]).join('\n')
}
function manPage(q) {
  const head = 'HOTPOT(7)'
  const mid = 'Miscellaneous Information Manual'
  const gap = 80 - 2 * head.length - mid.length
  return `${head}${' '.repeat(Math.floor(gap / 2))}${mid}${' '.repeat(Math.ceil(gap / 2))}${head}\n\nNAME\n       hotpot - reference passages\n\nDESCRIPTION\n` +
    blocks(q, (p) => `   ${p.title}\n${wrap(text(p), 80, '       ')}`) + `\n\n${' '.repeat(35)}2024-03-01${' '.repeat(26)}${head}\n`
}
const docstrings = (q) => `"""Reference passages."""\n\n\n` +
  blocks(q, (p) => `def ${pyName(p.title)}():\n    """${p.title}.\n\n${wrap(text(p).replaceAll('"""', '\\"\\"\\"'), 79, '    ')}\n    """`, '\n\n\n') + '\n'
const pyName = (t) => { const n = slug(t).toLowerCase() || 'doc'; return /^\d/.test(n) ? `p_${n}` : n }
const wrap72 = (q) => blocks(q, (p) => `${p.title}\n\n${wrap(text(p), 72)}`)

// ---------- messages and transcripts ----------
function emailDigest(q) {
  const who = (i) => ['Alice Smith <alice@example.org>', 'Bob Jones <bob@example.org>', 'Carol White <carol@example.org>'][i % 3]
  const topics = q.paragraphs.map((p, i) => `   ${i + 1}. ${p.title} (${who(i).split(' <')[0]})`).join('\n')
  const msgs = blocks(q, (p, i) => [
    `Message: ${i + 1}`,
    `Date: Fri, 1 Mar 2024 ${hhmm(i * 300)}:00 +0000`,
    `From: ${who(i)}`,
    `To: research-l@lists.example.org`,
    `Subject: [Research-l] ${p.title}`,
    `Message-ID: <${slug(p.title).toLowerCase()}.${i + 1}@example.org>`,
    `Content-Type: text/plain; charset="utf-8"`,
    ``,
    wrap(text(p), 72),
    ``,
    `------------------------------`,
  ].join('\n'))
  return `Send Research-l mailing list submissions to\n\tresearch-l@lists.example.org\n\nToday's Topics:\n\n${topics}\n\n` +
    `----------------------------------------------------------------------\n\n${msgs}\n\nEnd of Research-l Digest, Vol 12, Issue 3\n******************************************\n`
}
const chat = (q) => [`[10:00] alice: ${q.question}`,
  ...q.paragraphs.flatMap((p, i) => [`[${hhmm(60 + i * 120)}] alice: what do we have on ${p.title}?`, `[${hhmm(120 + i * 120)}] bob: ${text(p)}`])].join('\n')
function slack(q) {
  const msgs = [{ type: 'message', user: 'U024BE7LH', text: q.question, ts: `${BASE / 1000}.000100` },
    ...q.paragraphs.map((p, i) => ({ client_msg_id: `msg-${i + 1}`, type: 'message', user: 'U0G9QF9C6', text: `*${xmlEsc(p.title)}*\n${xmlEsc(text(p))}`, ts: `${BASE / 1000 + 60 * (i + 1)}.000200` }))]
  return JSON.stringify(msgs, null, 4)
}
const discord = (q) => `==============================================================\nGuild: Research\nChannel: reading-group\n==============================================================\n\n` +
  `[3/1/2024 10:00 AM] alice\n${q.question}\n\n` +
  blocks(q, (p, i) => { const m = 1 + i; return `[3/1/2024 10:${pad(m)} AM] bob\n**${p.title}**\n${text(p)}` }) +
  `\n\n==============================================================\nExported ${q.paragraphs.length + 1} message(s)\n==============================================================\n`
// Cues: one sentence each (never split), timing from sentence length; a title block per paragraph.
function cueList(q) {
  let t = 0
  return q.paragraphs.flatMap((p) => {
    const title = { title: p.title, a: t, b: (t += 2000) }
    return [title, ...sents(p).filter(Boolean).map((s) => ({ text: s, a: t, b: (t += 1000 + 40 * s.length) }))]
  })
}
function webvtt(q) {
  let n = 0
  return 'WEBVTT\nKind: captions\nLanguage: en\n\n' + cueList(q).map((c) => (c.title !== undefined ? `NOTE ${c.title}`
    : `${++n}\n${cueTime(c.a, '.')} --> ${cueTime(c.b, '.')}\n${xmlEsc(c.text)}`)).join('\n\n') + '\n'
}
const srt = (q) => cueList(q).map((c, i) => `${i + 1}\n${cueTime(c.a, ',')} --> ${cueTime(c.b, ',')}\n${c.title !== undefined ? `[${c.title}]` : wrap(c.text, 42)}`).join('\n\n') + '\n'

// ---------- separators and plain prose ----------
const hrDashes = (q) => blocks(q, (p) => text(p), '\n\n---\n\n')
const asterism = (q) => blocks(q, (p) => `${p.title}\n\n${text(p)}`, '\n\n* * *\n\n')
const formFeeds = (q) => blocks(q, (p, i) => `${p.title}${' '.repeat(Math.max(1, 72 - p.title.length - 7))}Page ${i + 1}\n\n${wrap(text(p), 72)}\n`, '\f')
const promptLines = (q) => `Question: ${q.question}\nContext:\n` + q.paragraphs.map((p, i) => `[${i + 1}] ${p.title}: ${text(p)}`).join('\n')

export const FORMS = [
  { name: 'rst-sections', render: rst },
  { name: 'asciidoc', render: asciidoc },
  { name: 'org-mode', render: org },
  { name: 'mediawiki', render: mediawiki },
  { name: 'latex', render: latex, unescape: latexUnesc },
  { name: 'md-h3-bold', render: mdH3Bold },
  { name: 'md-deflist', render: mdDeflist },
  { name: 'numbered-headings', render: numbered },
  { name: 'allcaps-titles', render: allcaps },
  { name: 'colon-titles', render: colonTitles },
  { name: 'title-source-lines', render: titleSource },
  { name: 'yaml-literal', render: yamlLiteral },
  { name: 'yaml-folded', render: yamlFolded },
  { name: 'toml-docs', render: toml, unescape: backslashUnesc },
  { name: 'ini-sections', render: ini },
  { name: 'jsonl', render: jsonl, unescape: jsonUnesc },
  { name: 'csv', render: csv, unescape: (s) => s.replace(/""/g, '"') },
  { name: 'python-repr', render: pyReprList, unescape: backslashUnesc },
  { name: 'js-inspect', render: jsInspect, unescape: backslashUnesc },
  { name: 'jupyter-ipynb', render: jupyter, unescape: jsonUnesc },
  { name: 'rss-cdata', render: rss },
  { name: 'atom-feed', render: atom, unescape: xmlUnesc },
  { name: 'html-article-h3', render: htmlArticle, unescape: xmlUnesc },
  { name: 'html-dl', render: htmlDl, unescape: xmlUnesc },
  { name: 'html-min-results', render: htmlMinResults, unescape: xmlUnesc },
  { name: 'html-bold-breaks', render: htmlBoldBreaks, unescape: xmlUnesc },
  { name: 'html-list-strong', render: htmlListStrong, unescape: xmlUnesc },
  { name: 'html-bold-paragraphs', render: htmlBoldParagraphs, unescape: xmlUnesc },
  { name: 'headed-two-paragraphs', render: headedParagraphs },
  { name: 'serp-text', render: serp },
  { name: 'grep-output', render: grep },
  { name: 'log-lines', render: logLines },
  { name: 'man-page', render: manPage },
  { name: 'python-docstrings', render: docstrings },
  { name: 'wrap72', render: wrap72 },
  { name: 'email-digest', render: emailDigest },
  { name: 'chat-transcript', render: chat },
  { name: 'slack-export', render: slack, unescape: (s) => xmlUnesc(jsonUnesc(s)) },
  { name: 'discord-export', render: discord },
  { name: 'webvtt', render: webvtt, unescape: xmlUnesc },
  { name: 'srt', render: srt },
  { name: 'hr-dashes', render: hrDashes },
  { name: 'asterism', render: asterism },
  { name: 'form-feeds', render: formFeeds },
  { name: 'prompt-lines', render: promptLines },
]
