// Reports dressed as chat models write them: pictographs before each section's heading
// (`### 📌 Title`), before a bold lead (`🔹 **Title:** …`), as bullets (`- 📄 **Title** — …`),
// a `✅` before each finding's line, a bold title with its number (`**1. Title**`), italic
// leads (`*Title:* …`); and their undressed twins. Written in session 36 as
// probes (each dressed form lost .10 to .17 against its twin). Session 37 added reports
// written as HTML, bold titles in markup (`<p><b>Title.</b> …</p>` on one line, `<li><strong>
// Title</strong>: …</li>`, `<b>Title</b><br>…`), which lost .25 to .50 against the
// markdown twin. Measured by bench/sweep.mjs.
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)
const text = (p) => sentences(p).join(' ')
const nothing = (content) => content

export const FILTER_FORMS = [
  { name: 'headings', render: (q) => `# Report\n\n${q.paragraphs.map((p) => `### ${p.title}\n${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'pictograph-headings', render: (q) => `# 📊 Report\n\n${q.paragraphs.map((p) => `### 📌 ${p.title}\n${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'bold-leads', render: (q) => `# Report\n\n${q.paragraphs.map((p) => `**${p.title}:** ${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'pictograph-bold-leads', render: (q) => `# Report\n\n${q.paragraphs.map((p) => `🔹 **${p.title}:** ${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'numbered-bold-titles', render: (q) => `# Report\n\n${q.paragraphs.map((p, i) => `**${i + 1}. ${p.title}**\n${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'italic-leads', render: (q) => `# Report\n\n${q.paragraphs.map((p) => `*${p.title}:* ${text(p)}`).join('\n\n')}\n`, strip: nothing },
  { name: 'pictograph-bullets', render: (q) => `## ✅ Key findings\n\n${q.paragraphs.map((p) => `- 📄 **${p.title}** — ${text(p)}`).join('\n')}\n`, strip: nothing },
  { name: 'dash-lines', render: (q) => `## Findings\n\n${q.paragraphs.map((p) => `### ${p.title}\n${sentences(p).map((s) => `- ${s}`).join('\n')}`).join('\n\n')}\n`, strip: nothing },
  { name: 'html-bold-paragraphs', render: (q) => `<h1>Report</h1>${q.paragraphs.map((p) => `<p><b>${p.title}.</b> ${text(p)}</p>`).join('')}\n`, strip: nothing },
  { name: 'html-list-strong', render: (q) => `<h1>Report</h1><ul>${q.paragraphs.map((p) => `<li><strong>${p.title}</strong>: ${text(p)}</li>`).join('')}</ul>\n`, strip: nothing },
  { name: 'html-bold-breaks', render: (q) => `${q.paragraphs.map((p) => `<b>${p.title}</b><br>${text(p)}<br><br>`).join('\n')}\n`, strip: nothing },
  { name: 'check-lines', render: (q) => `## Findings\n\n${q.paragraphs.map((p) => `### ${p.title}\n${sentences(p).map((s) => `✅ ${s}`).join('\n')}`).join('\n\n')}\n`, strip: nothing },
]
