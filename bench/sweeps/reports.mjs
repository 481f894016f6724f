// Cited research reports for the filter sweep (`FILTER_FORMS`, measured by bench/sweep.mjs): thirty-three
// ways a research subagent writes up the ten HotpotQA paragraphs it looked up, every paragraph
// cited as a source, in citation styles and layouts that bench/forms.mjs does not use.
//
// Each form is { name, note, render(q) -> report, strip(content, q) -> content without markers }.
// Every render is deterministic (what varies between questions is derived from the record), and
// every sentence of the ten paragraphs appears verbatim in strip(render(q)): strip takes out
// exactly the markers its render added — exact marker strings built from `q` where they are
// unambiguous, and marked sentences turned back into plain ones where a marker could also occur
// in the text itself (superscript digits, `(k)`, and three title-based markers the data does
// contain: `("Robert Plant")`, ` — Dynkin's formula`, ` [Shōnen to Inu]`). Checked on all 800
// questions: every sentence of every paragraph is found in strip(render(q)). Forms whose markers sit in their own fields,
// cells or attributes (JSON, YAML, XML) need nothing taken out. Text is never escaped for the
// format (HTML, LaTeX and table cells keep `&`, `|` and so on as they are), as agents write it.

// ---------------------------------------------------------------------------------------------
// Helpers.

/** A paragraph's sentences, trimmed, empty ones left out. */
const sentencesOf = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
/** A paragraph's text: its trimmed sentences joined by one space. */
const textOf = (p) => sentencesOf(p).join(' ')
/** The Wikipedia address of a title. */
const wiki = (title) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replaceAll(' ', '_'))}`
/** The same with parentheses escaped, for the `(…)` of a markdown link. */
const wikiLink = (title) => wiki(title).replaceAll('(', '%28').replaceAll(')', '%29')
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const ACCESSED = '1 May 2025'

/** Inserts `mark` before a sentence's closing punctuation (and closing quotes/brackets). */
function beforePunctuation(sentence, mark) {
  const m = sentence.match(/[.!?]["')\]]*$/)
  return m ? `${sentence.slice(0, m.index)}${mark}${m[0]}` : `${sentence}${mark}`
}

/** A paragraph's text with `mark(k)` put into its last sentence by `place` (default: after it). */
function citeLast(p, mark, place = (s, m) => `${s}${m}`) {
  const ss = sentencesOf(p)
  return [...ss.slice(0, -1), place(ss.at(-1), mark)].join(' ')
}

/** Takes every one of the exact `markers` out of `content`, longest first. */
const drop = (content, markers) => [...new Set(markers)].sort((a, b) => b.length - a.length).reduce((c, m) => c.replaceAll(m, ''), content)

/** Turns every marked sentence (`mark(sentence, paragraphIndex, paragraph, sentenceIndex, sentences)`) back
 *  into the plain one, whitespace matched loosely; for markers that the text itself may contain.
 *  Longest marked sentences first, so that neither a shorter sentence inside a longer one (`.`)
 *  nor a shorter marker (`¹` of `¹⁰`) takes a marker that belongs to another. */
function unmark(content, q, mark) {
  const pairs = q.paragraphs.flatMap((p, i) => sentencesOf(p).map((s, j, ss) => [mark(s, i, p, j, ss), s])).filter(([m, s]) => m !== s)
  pairs.sort((a, b) => b[0].length - a[0].length)
  return pairs.reduce((out, [marked, s]) => out.replace(new RegExp(escapeRegExp(marked).replace(/\s+/g, '\\s+'), 'g'), () => s), content)
}

const titles = (q) => q.paragraphs.map((p) => p.title)
const numbers = (q) => q.paragraphs.map((_, i) => i + 1)
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹'
const superscript = (k) => [...String(k)].map((d) => SUPERSCRIPT[d]).join('')
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X']
const LETTERS = 'abcdefghij'
const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
/** How many sources, in words ("ten"). */
const count = (q) => WORDS[q.paragraphs.length] ?? String(q.paragraphs.length)
/** A small stable hash of the record's id, for choices that vary between questions. */
const hash = (q) => [...String(q.id ?? q.question)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
/** Alphabetical order of the paragraphs' indices by title (reference lists that sort). */
const byTitle = (q) => q.paragraphs.map((_, i) => i).sort((a, b) => q.paragraphs[a].title.localeCompare(q.paragraphs[b].title, 'en'))

/** Paragraphs on nothing the question asks, written for the off-topic report. */
const OFF_TOPIC = [
  { title: 'Sourdough', text: 'Sourdough bread is leavened by a starter of wild yeasts and lactic acid bacteria rather than by baker\'s yeast. The acids the bacteria produce give the bread its sour taste and help it keep longer.' },
  { title: 'Tide', text: 'Tides are the rise and fall of sea levels caused by the gravitational pull of the Moon and the Sun together with the rotation of the Earth. Most coasts see two high tides and two low tides a day.' },
  { title: 'Bicycle', text: 'A bicycle is a pedal-driven vehicle with two wheels attached to a frame, one behind the other. Bicycles were introduced in Europe in the 19th century and are now the main means of transport in many regions.' },
  { title: 'Honey bee', text: 'Honey bees live in colonies with a single queen, many thousands of workers and, in season, drones. Workers communicate the direction and distance of food with a dance on the comb.' },
]

// ---------------------------------------------------------------------------------------------
// Renderers, one per form (a few share one with a switch).

/** APA 7: one `(Title, n.d.)` per paragraph before its last sentence's punctuation; references in
 *  alphabetical order. */
const apa = (q) =>
  `# Research summary\n\nBelow is a summary of what the consulted sources report on the topics relevant to the assignment.\n\n${q.paragraphs
    .map((p) => citeLast(p, ` (${p.title}, n.d.)`, beforePunctuation))
    .join('\n\n')}\n\n## References\n\n${byTitle(q)
    .map((i) => `${q.paragraphs[i].title}. (n.d.). In *Wikipedia*. Retrieved ${ACCESSED}, from ${wiki(q.paragraphs[i].title)}`)
    .join('\n\n')}\n`

/** MLA 9: `("Title")` in every sentence, under `### Title` headings; Works Cited. The text may
 *  quote a title as MLA cites it (`("Robert Plant")`), so strip unmarks sentences. */
const mlaMark = (s, i, p) => beforePunctuation(s, ` ("${p.title}")`)
const mla = (q) =>
  `## Findings\n\n${q.paragraphs
    .map((p, i) => `### ${p.title}\n\n${sentencesOf(p).map((s) => mlaMark(s, i, p)).join(' ')}`)
    .join('\n\n')}\n\n## Works Cited\n\n${byTitle(q)
    .map((i) => `"${q.paragraphs[i].title}." *Wikipedia*, Wikimedia Foundation, ${wiki(q.paragraphs[i].title)}. Accessed ${ACCESSED}.`)
    .join('\n')}\n`

/** Chicago, reference work: `(Wikipedia, s.v. "Title")` closing each paragraph; bibliography. */
const chicago = (q) =>
  `**Background research**\n\n${q.paragraphs
    .map((p) => citeLast(p, ` (Wikipedia, s.v. “${p.title}”)`, beforePunctuation))
    .join('\n\n')}\n\n**Bibliography**\n\n${byTitle(q)
    .map((i) => `Wikipedia. s.v. “${q.paragraphs[i].title}.” Accessed May 1, 2025. ${wiki(q.paragraphs[i].title)}.`)
    .join('\n')}\n`

/** Harvard: `(Wikipedia contributors, n.d.a)` in every sentence, the letter telling the sources
 *  apart; the reference list maps the letters to titles. */
const harvard = (q) =>
  `Summary of sources\n\n${q.paragraphs
    .map((p, i) => sentencesOf(p).map((s) => beforePunctuation(s, ` (Wikipedia contributors, n.d.${LETTERS[i]})`)).join(' '))
    .join('\n\n')}\n\nReference list\n\n${q.paragraphs
    .map((p, i) => `Wikipedia contributors (n.d.${LETTERS[i]}) *${p.title}*. Available at: ${wiki(p.title)} (Accessed: ${ACCESSED}).`)
    .join('\n')}\n`

/** IEEE: `[k]` in every sentence, numbered sections with lettered subsections, `[k] "Title,"` references. */
const ieee = (q) =>
  `# Technical note: retrieved facts\n\n## I. Introduction\n\nThis note collects the facts retrieved for the assigned question from ${count(q)} encyclopedia articles.\n\n## II. Findings\n\n${q.paragraphs
    .map((p, i) => `### ${LETTERS[i].toUpperCase()}. ${p.title}\n\n${sentencesOf(p).map((s) => beforePunctuation(s, ` [${i + 1}]`)).join(' ')}`)
    .join('\n\n')}\n\n## III. Conclusion\n\nThe findings above are reported as retrieved; no further synthesis was attempted.\n\n## References\n\n${q.paragraphs
    .map((p, i) => `[${i + 1}] "${p.title}," *Wikipedia*. [Online]. Available: ${wiki(p.title)}`)
    .join('\n')}\n`

/** Vancouver: `(k)` in every sentence, bold topic lines; since `(1)` may be text, strip unmarks sentences. */
const vancouverMark = (s, i) => beforePunctuation(s, ` (${i + 1})`)
const vancouver = (q) =>
  `Literature notes\n\n${q.paragraphs
    .map((p, i) => `**${p.title}**\n${sentencesOf(p).map((s) => vancouverMark(s, i)).join(' ')}`)
    .join('\n\n')}\n\nReferences\n\n${q.paragraphs
    .map((p, i) => `${i + 1}. ${p.title} [Internet]. Wikipedia; [cited 2025 May 1]. Available from: ${wiki(p.title)}`)
    .join('\n')}\n`

/** Superscript numbers after every sentence's punctuation; notes `¹ Title, url`. */
const superMark = (s, i) => `${s}${superscript(i + 1)}`
const superscriptReport = (q) =>
  `Research notes\n\n${q.paragraphs.map((p, i) => sentencesOf(p).map((s) => superMark(s, i)).join(' ')).join('\n\n')}\n\nNotes\n${q.paragraphs
    .map((p, i) => `${superscript(i + 1)} ${p.title}, ${wiki(p.title)}`)
    .join('\n')}\n`

/** Perplexity: `[k]` run on after the punctuation, a summing-up sentence stacking `[k][k+1]`; a
 *  bold lead line per topic; `Sources` with `[k] Title - Wikipedia url`. */
const perplexity = (q) => {
  const n = q.paragraphs.length
  const body = q.paragraphs.map((p, i) => {
    const ss = sentencesOf(p)
    const cited = ss.map((s, j) => `${s}[${i + 1}]${j === ss.length - 1 && n > 1 ? `[${((i + 1) % n) + 1}]` : ''}`)
    return `**${p.title}**\n${cited.join(' ')}`
  })
  return `Here is what the sources say about the topics involved.\n\n${body.join('\n\n')}\n\nSources\n${q.paragraphs
    .map((p, i) => `[${i + 1}] ${p.title} - Wikipedia ${wiki(p.title)}`)
    .join('\n')}\n`
}

/** Wikitext: `== Title ==` sections, a named `<ref>` with `{{cite web}}` after a paragraph's first
 *  sentence and `<ref name=… />` reused after its last; `{{reflist}}`. */
const wikiRef = (p, i) => `<ref name="src${i + 1}">{{cite web |url=${wiki(p.title)} |title=${p.title} |website=Wikipedia |access-date=${ACCESSED}}}</ref>`
const wikiReuse = (i) => `<ref name="src${i + 1}" />`
const wikitext = (q) =>
  `'''Research notes'''\n\n${q.paragraphs
    .map((p, i) => {
      const ss = sentencesOf(p)
      const cited = ss.map((s, j) => (j === 0 ? `${s}${wikiRef(p, i)}` : j === ss.length - 1 ? `${s}${wikiReuse(i)}` : s))
      return `== ${p.title} ==\n${cited.join(' ')}`
    })
    .join('\n\n')}\n\n== References ==\n{{reflist}}\n`

/** `[source: Title]` after every sentence, plain paragraphs under a summary line. */
const sourceTag = (q) => `Summary of findings:\n\n${q.paragraphs.map((p) => sentencesOf(p).map((s) => `${s} [source: ${p.title}]`).join(' ')).join('\n\n')}\n`

/** A numbered list of paragraphs, each closed by `(see Title)` before its last punctuation. */
const see = (q) => `Findings, one item per source:\n\n${q.paragraphs.map((p, i) => `${i + 1}. ${citeLast(p, ` (see ${p.title})`, beforePunctuation)}`).join('\n')}\n`

/** One bullet per sentence ending `— Title`, a blank line between sources, under `## Key points`.
 *  The text may hold ` — <a title>` itself, so strip unmarks sentences. */
const dashMark = (s, i, p) => `${s} — ${p.title}`
const dashBullets = (q) => `## Key points\n\n${q.paragraphs.map((p, i) => sentencesOf(p).map((s) => `- ${dashMark(s, i, p)}`).join('\n')).join('\n\n')}\n`

/** Synthesis paragraphs, each from two sources, followed by a `Sources: 1, 2` line; a `(k) Title, url` list. */
const pairs = (q) => {
  const out = []
  for (let i = 0; i < q.paragraphs.length; i += 2) out.push(q.paragraphs.slice(i, i + 2).map((p, j) => ({ p, k: i + j + 1 })))
  return out
}
const sourcesLine = (pair) => `Sources: ${pair.map((x) => x.k).join(', ')}`
const sourcesLines = (q) =>
  `# Research summary\n\n${pairs(q)
    .map((pair) => `${pair.map((x) => textOf(x.p)).join(' ')}\n${sourcesLine(pair)}`)
    .join('\n\n')}\n\nSource list\n${q.paragraphs.map((p, i) => `(${i + 1}) ${p.title}, ${wiki(p.title)}`).join('\n')}\n`

/** Each paragraph followed by a `Source: <url>` line. */
const sourceUrls = (q) => `Findings (each paragraph is followed by the page it comes from):\n\n${q.paragraphs.map((p) => `${textOf(p)}\nSource: ${wiki(p.title)}`).join('\n\n')}\n`

/** A table of findings, one row per sentence, the source a link in its own column. */
const tableSentences = (q) => {
  let n = 0
  const rows = q.paragraphs.flatMap((p) => sentencesOf(p).map((s) => `| ${++n} | ${s} | [${p.title}](${wikiLink(p.title)}) |`))
  return `I've organised the findings as a table; each row names the page it was taken from.\n\n| # | Finding | Source |\n|---|---|---|\n${rows.join('\n')}\n`
}

/** A table with a row per source (topic, key facts, `[k]`), a `- [k] Title (url)` list below. */
const tableParagraphs = (q) =>
  `### Findings by topic\n\n| Topic | Key facts | Ref. |\n|---|---|---|\n${q.paragraphs
    .map((p, i) => `| ${p.title} | ${textOf(p)} | [${i + 1}] |`)
    .join('\n')}\n\n**References**\n${q.paragraphs.map((p, i) => `- [${i + 1}] ${p.title} (${wiki(p.title)})`).join('\n')}\n`

/** A JSON report `{ summary, findings: [{ claim, source: { title, url } }] }`, a claim per sentence. */
const jsonReport = (q) =>
  JSON.stringify(
    {
      summary: `Facts gathered from ${count(q)} encyclopedia articles; every claim names the article it comes from.`,
      findings: q.paragraphs.flatMap((p) => sentencesOf(p).map((claim) => ({ claim, source: { title: p.title, url: wiki(p.title) } }))),
    },
    null,
    2,
  )

/** JSON Lines in a fence: `{"claim", "source", "url"}`, a claim per paragraph. */
const jsonLines = (q) =>
  `Findings as JSON Lines, one object per source:\n\n\`\`\`jsonl\n${q.paragraphs
    .map((p) => JSON.stringify({ claim: textOf(p), source: p.title, url: wiki(p.title) }))
    .join('\n')}\n\`\`\`\n`

/** A YAML report: per source its title, url and a list of double-quoted claims. */
const yamlReport = (q) =>
  `report:\n  status: complete\n  findings:\n${q.paragraphs
    .map((p) => `    - source: ${JSON.stringify(p.title)}\n      url: ${wiki(p.title)}\n      claims:\n${sentencesOf(p).map((s) => `        - ${JSON.stringify(s)}`).join('\n')}`)
    .join('\n')}\n`

/** HTML: `<h3>` per source, `<sup><a href="#ref-k">[k]</a></sup>` after every sentence, an `<ol>` of references. */
const htmlMark = (i) => `<sup><a href="#ref-${i + 1}">[${i + 1}]</a></sup>`
const html = (q) =>
  `<article>\n<h2>Findings</h2>\n${q.paragraphs
    .map((p, i) => `<h3>${p.title}</h3>\n<p>${sentencesOf(p).map((s) => `${s}${htmlMark(i)}`).join(' ')}</p>`)
    .join('\n')}\n<h2>References</h2>\n<ol>\n${q.paragraphs
    .map((p, i) => `<li id="ref-${i + 1}"><a href="${wiki(p.title)}">${p.title}</a></li>`)
    .join('\n')}\n</ol>\n</article>\n`

/** An email: greeting, paragraphs closed by `(via Title)`, an offer and a sign-off. */
const email = (q) =>
  `Subject: Research findings\n\nHi team,\n\nHere is what I found after going through the sources. I've kept the wording of the sources where I could.\n\n${q.paragraphs
    .map((p) => `${textOf(p)} (via ${p.title})`)
    .join('\n\n')}\n\nLet me know if you'd like me to dig into any of these further.\n\nBest,\nResearch Agent\n`

/** An executive summary naming the sources (no markers), then details under `### Title` with
 *  `[Sk]` after every sentence, and a source index. */
const execSummary = (q) =>
  `# Report\n\n## Executive summary\n\nI consulted ${count(q)} encyclopedia articles: ${titles(q).join('; ')}. The details below give the facts from each; the identifiers in brackets refer to the source index at the end.\n\n## Details\n\n${q.paragraphs
    .map((p, i) => `### ${p.title}\n\n${sentencesOf(p).map((s) => `${s} [S${i + 1}]`).join(' ')}`)
    .join('\n\n')}\n\n## Source index\n\n${q.paragraphs.map((p, i) => `- S${i + 1} — ${p.title} — ${wiki(p.title)}`).join('\n')}\n`

/** Numbered claims (one sentence each, numbered through the report) ending `(Source k)`. */
const numberedClaims = (q) => {
  let n = 0
  return `Claims extracted from the sources:\n\n${q.paragraphs
    .flatMap((p, i) => sentencesOf(p).map((s) => `${++n}. ${s} (Source ${i + 1})`))
    .join('\n')}\n\nSources\n${q.paragraphs.map((p, i) => `Source ${i + 1}: ${p.title} <${wiki(p.title)}>`).join('\n')}\n`
}

/** Q&A: a bold question per source, the answer its paragraph closed by `(ref. k)`; references. */
const qa = (q) =>
  `## Q&A\n\n${q.paragraphs
    .map((p, i) => `**Q${i + 1}. What do the sources say about ${p.title}?**\nA: ${textOf(p)} (ref. ${i + 1})`)
    .join('\n\n')}\n\n## References\n${q.paragraphs.map((p, i) => `ref. ${i + 1}: ${p.title}, ${wiki(p.title)}`).join('\n')}\n`

/** Nested bullets: a bold title bullet, a sub-bullet per sentence, then a `Source:` sub-bullet link. */
const nestedSource = (p) => `  - Source: [${p.title}](${wikiLink(p.title)})`
const nestedBullets = (q) =>
  `Notes by topic:\n\n${q.paragraphs.map((p) => `- **${p.title}**\n${sentencesOf(p).map((s) => `  - ${s}`).join('\n')}\n${nestedSource(p)}`).join('\n')}\n`

/** Heading levels that vary (`##`, `###`, `####`), an italic source line under each heading. */
const mixedSource = (p) => `*Source: [${p.title}](${wikiLink(p.title)})*`
const mixedHeadings = (q) =>
  `# Research report\n\n${q.paragraphs
    .map((p, i) => `${'#'.repeat(2 + (i % 3))} ${p.title}\n\n${mixedSource(p)}\n\n${textOf(p)}`)
    .join('\n\n')}\n`

/** A preamble restating the task, paragraphs closed by `[Title]`, a conclusion naming no source.
 *  The text may hold ` [<a title>]` itself, so strip unmarks the last sentences. */
const bracketMark = (s, i, p, j, ss) => (j === ss.length - 1 ? `${s} [${p.title}]` : s)
const preambleConclusion = (q) =>
  `## Task\n\n${q.question}\n\n## Approach\n\nI looked up each entity the question mentions and a few related ones, and read the corresponding encyclopedia articles. The relevant passages are reproduced below with the article each comes from in brackets.\n\n## Findings\n\n${q.paragraphs
    .map((p, i) => citeLast(p, ` [${p.title}]`))
    .join('\n\n')}\n\n## Conclusion\n\nThe passages above contain the facts needed to answer the question; where the articles overlap they agree with one another. No contradictions were found between them.\n`

/** Notes closed by `(cf. Title)` with one or two off-topic paragraphs among them, cited the same way. */
const offTopicPicks = (q) => {
  const h = hash(q)
  const count = 1 + (h % 2)
  return Array.from({ length: count }, (_, j) => ({ para: OFF_TOPIC[(h + j) % OFF_TOPIC.length], after: (h >> (3 + j * 4)) % q.paragraphs.length }))
}
const offTopic = (q) => {
  const picks = offTopicPicks(q)
  const blocks = []
  q.paragraphs.forEach((p, i) => {
    blocks.push(`${textOf(p)} (cf. ${p.title})`)
    for (const x of picks) if (x.after === i) blocks.push(`${x.para.text} (cf. ${x.para.title})`)
  })
  return `## Notes\n\n${blocks.join('\n\n')}\n`
}

/** Claude-style citations: every sentence wrapped in `<cite index="k-j">…</cite>`, a line of prose first. */
const citeTags = (q) =>
  `Based on the search results, here is what I found.\n\n${q.paragraphs
    .map((p, i) => sentencesOf(p).map((s, j) => `<cite index="${i + 1}-${j + 1}">${s}</cite>`).join(' '))
    .join('\n\n')}\n`

/** ChatGPT-style reference links `([en.wikipedia.org][k])` after a paragraph's last sentence (and
 *  after its first when it has four or more); definitions `[k]: url "Title"`. */
const refLinkMark = (i) => ` ([en.wikipedia.org][${i + 1}])`
const refLinks = (q) =>
  `Here's a rundown of what I found:\n\n${q.paragraphs
    .map((p, i) => {
      const ss = sentencesOf(p)
      return ss.map((s, j) => (j === ss.length - 1 || (j === 0 && ss.length >= 4) ? `${s}${refLinkMark(i)}` : s)).join(' ')
    })
    .join('\n\n')}\n\n${q.paragraphs.map((p, i) => `[${i + 1}]: ${wiki(p.title)} "${p.title}"`).join('\n')}\n`

/** LaTeX: `\subsection*{Title}` per source, `~\cite{srck}` before a paragraph's last punctuation, a bibliography. */
const latexMark = (i) => `~\\cite{src${i + 1}}`
const latex = (q) =>
  `\\section*{Findings}\n\n${q.paragraphs
    .map((p, i) => `\\subsection*{${p.title}}\n${citeLast(p, latexMark(i), beforePunctuation)}`)
    .join('\n\n')}\n\n\\begin{thebibliography}{10}\n${q.paragraphs
    .map((p, i) => `\\bibitem{src${i + 1}} ${p.title}. Wikipedia. \\url{${wiki(p.title)}}`)
    .join('\n')}\n\\end{thebibliography}\n`

/** Blockquoted excerpts, each with an attribution line `> — *Title*`. */
const quoteAttribution = (p) => `\n> — *${p.title}*`
const blockquotes = (q) => `Relevant excerpts, quoted from each page:\n\n${q.paragraphs.map((p) => `> ${textOf(p)}${quoteAttribution(p)}`).join('\n\n')}\n`

/** XML: `<finding source="Title" href="url">` around a paragraph, in a `<report>` with a summary. */
const xmlReport = (q) =>
  `<report>\n  <summary>${count(q)[0].toUpperCase()}${count(q).slice(1)} sources consulted; each finding names its source.</summary>\n${q.paragraphs
    .map((p, i) => `  <finding id="${i + 1}" source="${p.title}" href="${wiki(p.title)}">${textOf(p)}</finding>`)
    .join('\n')}\n</report>\n`

// ---------------------------------------------------------------------------------------------
// The forms.

const nothing = (content) => content

export const FILTER_FORMS = [
  { name: 'apa', note: 'APA `(Title, n.d.)` once per paragraph, before the last punctuation; alphabetical `References`', render: apa, strip: (c, q) => drop(c, titles(q).map((t) => ` (${t}, n.d.)`)) },
  { name: 'mla', note: 'MLA `("Title")` in every sentence, under `### Title` headings; `Works Cited`', render: mla, strip: (c, q) => unmark(c, q, mlaMark) },
  { name: 'chicago', note: 'Chicago `(Wikipedia, s.v. “Title”)` closing each paragraph; `Bibliography` under bold labels', render: chicago, strip: (c, q) => drop(c, titles(q).map((t) => ` (Wikipedia, s.v. “${t}”)`)) },
  { name: 'harvard', note: 'Harvard `(Wikipedia contributors, n.d.a)` in every sentence, letters a–j for the sources; reference list', render: harvard, strip: (c, q) => drop(c, q.paragraphs.map((_, i) => ` (Wikipedia contributors, n.d.${LETTERS[i]})`)) },
  { name: 'ieee', note: 'IEEE `[k]` in every sentence, numbered sections (I. Introduction … III. Conclusion), `[k] "Title," … Available: url`', render: ieee, strip: (c, q) => drop(c, numbers(q).map((k) => ` [${k}]`)) },
  { name: 'vancouver', note: 'Vancouver `(k)` in every sentence, bold topic lines, `k. Title [Internet]` references', render: vancouver, strip: (c, q) => unmark(c, q, vancouverMark) },
  { name: 'superscript', note: 'superscript numbers `¹ ² … ¹⁰` after every sentence; `Notes` `¹ Title, url`', render: superscriptReport, strip: (c, q) => unmark(c, q, superMark) },
  { name: 'perplexity', note: 'Perplexity: `[k]` run on after every sentence, `[k][k+1]` stacked on a paragraph\'s last; bold lead lines; `Sources`', render: perplexity, strip: (c, q) => c.replace(/(?<=\S)\[(\d+)\]/g, (m, k) => (k >= 1 && k <= q.paragraphs.length ? '' : m)) },
  { name: 'wikitext', note: 'wikitext: `== Title ==`, `<ref name="srck">{{cite web …}}</ref>` after the first sentence, `<ref name="srck" />` after the last, `{{reflist}}`', render: wikitext, strip: (c, q) => drop(c, q.paragraphs.flatMap((p, i) => [wikiRef(p, i), wikiReuse(i)])) },
  { name: 'source-tag', note: '`[source: Title]` after every sentence, plain paragraphs, no list', render: sourceTag, strip: (c, q) => drop(c, titles(q).map((t) => ` [source: ${t}]`)) },
  { name: 'see', note: 'numbered list, one item per paragraph, closed by `(see Title)` before the punctuation', render: see, strip: (c, q) => drop(c, titles(q).map((t) => ` (see ${t})`)) },
  { name: 'dash-bullets', note: 'a bullet per sentence suffixed `— Title`, blank lines between sources, under `## Key points`', render: dashBullets, strip: (c, q) => unmark(c, q, dashMark) },
  { name: 'sources-lines', note: 'synthesis paragraphs of two sources each, then a `Sources: 1, 2` line; `(k) Title, url` list', render: sourcesLines, strip: (c, q) => drop(c, pairs(q).map(sourcesLine)) },
  { name: 'source-urls', note: 'each paragraph followed by a `Source: <url>` line, no titles', render: sourceUrls, strip: (c, q) => drop(c, titles(q).map((t) => `Source: ${wiki(t)}`)) },
  { name: 'table-sentences', note: 'markdown table `| # | Finding | Source |`, a row per sentence, the source a link', render: tableSentences, strip: (c, q) => drop(c, titles(q).map((t) => `[${t}](${wikiLink(t)})`)) },
  { name: 'table-paragraphs', note: 'markdown table `| Topic | Key facts | Ref. |`, a row per source, `- [k] Title (url)` below', render: tableParagraphs, strip: (c, q) => drop(c, numbers(q).map((k) => ` [${k}] |`)) },
  { name: 'json', note: 'JSON `{ summary, findings: [{ claim, source: { title, url } }] }`, a claim per sentence (markers in their own fields)', render: jsonReport, strip: nothing },
  { name: 'jsonl', note: 'a ```jsonl fence, one `{"claim", "source", "url"}` per paragraph, a line of prose above', render: jsonLines, strip: nothing },
  { name: 'yaml', note: 'YAML `report: findings: - source, url, claims: ["…"]`, a quoted claim per sentence', render: yamlReport, strip: nothing },
  { name: 'html', note: 'HTML `<h3>Title</h3><p>…<sup><a href="#ref-k">[k]</a></sup>…</p>`, an `<ol>` of references', render: html, strip: (c, q) => drop(c, q.paragraphs.map((_, i) => htmlMark(i))) },
  { name: 'email', note: 'email: subject, greeting, paragraphs closed by `(via Title)`, an offer and a sign-off', render: email, strip: (c, q) => drop(c, titles(q).map((t) => ` (via ${t})`)) },
  { name: 'exec-summary', note: 'executive summary listing the titles (no markers), details under `### Title` with `[Sk]` after every sentence, a source index', render: execSummary, strip: (c, q) => drop(c, numbers(q).map((k) => ` [S${k}]`)) },
  { name: 'numbered-claims', note: 'claims numbered through the report, one sentence each, ending `(Source k)`; `Source k: Title <url>`', render: numberedClaims, strip: (c, q) => drop(c, numbers(q).map((k) => ` (Source ${k})`)) },
  { name: 'qa', note: 'Q&A: `**Qk. What do the sources say about Title?**` then `A: <paragraph> (ref. k)`; references', render: qa, strip: (c, q) => drop(c, numbers(q).map((k) => ` (ref. ${k})`)) },
  { name: 'nested-bullets', note: 'a bold title bullet, a sub-bullet per sentence, a `- Source: [Title](url)` sub-bullet last', render: nestedBullets, strip: (c, q) => drop(c, q.paragraphs.map(nestedSource)) },
  { name: 'mixed-headings', note: 'headings at levels 2, 3, 4 in turn, an italic `*Source: [Title](url)*` line under each', render: mixedHeadings, strip: (c, q) => drop(c, q.paragraphs.map(mixedSource)) },
  { name: 'preamble-conclusion', note: 'Task (the question) and Approach sections, paragraphs closed by `[Title]`, a conclusion naming no source', render: preambleConclusion, strip: (c, q) => unmark(c, q, bracketMark) },
  { name: 'off-topic', note: 'notes closed by `(cf. Title)` with one or two off-topic paragraphs (bread, tides, …) among them, cited alike', render: offTopic, strip: (c, q) => drop(c, [...titles(q), ...OFF_TOPIC.map((x) => x.title)].map((t) => ` (cf. ${t})`)) },
  { name: 'cite-tags', note: 'Claude-style `<cite index="k-j">sentence</cite>` around every sentence, a line of prose first', render: citeTags, strip: (c) => c.replace(/<cite index="\d+-\d+">|<\/cite>/g, '') },
  { name: 'ref-links', note: 'ChatGPT-style `([en.wikipedia.org][k])` after a paragraph\'s last (and long ones\' first) sentence; `[k]: url "Title"`', render: refLinks, strip: (c, q) => drop(c, q.paragraphs.map((_, i) => refLinkMark(i))) },
  { name: 'latex', note: 'LaTeX `\\subsection*{Title}`, `~\\cite{srck}` before a paragraph\'s last punctuation, `thebibliography`', render: latex, strip: (c, q) => drop(c, q.paragraphs.map((_, i) => latexMark(i))) },
  { name: 'blockquotes', note: 'each paragraph a `> ` blockquote with an attribution line `> — *Title*`', render: blockquotes, strip: (c, q) => drop(c, q.paragraphs.map(quoteAttribution)) },
  { name: 'xml', note: 'XML `<report>`, `<finding id source="Title" href>` around each paragraph (markers in attributes)', render: xmlReport, strip: nothing },
]
