// Reports whose sources are listed or linked as LLMs write them: a list that no marker cites
// (markdown links, numbered lines, APA references), markers over a list of markdown links,
// links that name their site. Written in session 35 as probes of forms the bench did not
// have (each of them lost .05 to .16 against a report with no list at all). Measured by
// bench/sweep.mjs; `strip` takes each form's markers out of the text before recall is read.
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
const text = (p) => sentences(p).join(' ')
/** The Wikipedia address of a title, parentheses escaped as a markdown link needs them. */
const wiki = (t) => `https://en.wikipedia.org/wiki/${encodeURIComponent(t.replaceAll(' ', '_')).replaceAll('(', '%28').replaceAll(')', '%29')}`
const link = (t) => `[${t}](${wiki(t)})`
const body = (q) => q.paragraphs.map(text).join('\n\n')
const drop = (content, markers) => [...new Set(markers)].sort((a, b) => b.length - a.length).reduce((c, m) => c.replaceAll(m, ''), content)
const nothing = (content) => content
const apaReference = (t) => `${t}. (n.d.). In *Wikipedia*. Retrieved 1 May 2025, from ${wiki(t)}`
const apaNote = (p, s) => s.replace(/([.!?]["')\]]*)$/, ` (${p.title}, n.d.)$1`)
const siteLink = (p) => ` ([Wikipedia](${wiki(p.title)}))`

export const FILTER_FORMS = [
  { name: 'no-list', note: 'paragraphs only, no sources', render: (q) => `# Research summary\n\n${body(q)}\n`, strip: nothing },
  { name: 'unmarked-links', note: 'paragraphs, then `## Sources` listing `- [Title](url)`, no marker', render: (q) => `# Research summary\n\n${body(q)}\n\n## Sources\n\n${q.paragraphs.map((p) => `- ${link(p.title)}`).join('\n')}\n`, strip: nothing },
  { name: 'unmarked-numbered', note: 'paragraphs, then `Sources:` listing `k. Title (url)`, no marker', render: (q) => `# Research summary\n\n${body(q)}\n\nSources:\n${q.paragraphs.map((p, i) => `${i + 1}. ${p.title} (${wiki(p.title)})`).join('\n')}\n`, strip: nothing },
  { name: 'unmarked-apa', note: 'paragraphs, then APA references, no note', render: (q) => `# Research summary\n\n${body(q)}\n\n## References\n\n${q.paragraphs.map((p) => apaReference(p.title)).join('\n\n')}\n`, strip: nothing },
  { name: 'apa-every-sentence', note: 'APA `(Title, n.d.)` before every sentence\'s full stop, references', render: (q) => `# Research summary\n\n${q.paragraphs.map((p) => sentences(p).map((s) => apaNote(p, s)).join(' ')).join('\n\n')}\n\n## References\n\n${q.paragraphs.map((p) => apaReference(p.title)).join('\n\n')}\n`, strip: (c, q) => drop(c, q.paragraphs.map((p) => ` (${p.title}, n.d.)`)) },
  { name: 'markers-over-links', note: '` [k]` closing each paragraph, `**Sources**` listing `k. [Title](url)`', render: (q) => `# Findings\n\n${q.paragraphs.map((p, i) => `${text(p)} [${i + 1}]`).join('\n\n')}\n\n**Sources**\n${q.paragraphs.map((p, i) => `${i + 1}. ${link(p.title)}`).join('\n')}\n`, strip: (c, q) => drop(c, q.paragraphs.map((_, i) => ` [${i + 1}]`)) },
  { name: 'site-links', note: '`([Wikipedia](url))` closing each paragraph', render: (q) => `# Findings\n\n${q.paragraphs.map((p) => `${text(p)}${siteLink(p)}`).join('\n\n')}\n`, strip: (c, q) => drop(c, q.paragraphs.map(siteLink)) },
]
