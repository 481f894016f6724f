// Held-out renderings of the HotpotQA paragraphs as nested outlines (a sub-heading or a bold
// lead under each title), written while the outline's names were being built (a87857c6).
const text = (p) => p.sentences.join('').trim()
const sentences = (p) => p.sentences.map((s) => s.trim()).filter(Boolean)

export const FORMS = [
  { name: 'h2-h3-overview', render: (q) => q.paragraphs.map((p) => `## ${p.title}\n\n### Overview\n\n${text(p)}`).join('\n\n') },
  {
    name: 'h2-h3-split',
    render: (q) =>
      q.paragraphs
        .map((p) => {
          const s = sentences(p)
          return `## ${p.title}\n\n### Overview\n\n${s.slice(0, 1).join(' ')}\n\n### Details\n\n${s.slice(1).join(' ') || 'None.'}`
        })
        .join('\n\n'),
  },
  { name: 'h2-bold-nl', render: (q) => q.paragraphs.map((p) => `## ${p.title}\n\n**Summary**\n\n${text(p)}`).join('\n\n') },
  { name: 'bold-title-bold-sum', render: (q) => q.paragraphs.map((p) => `**${p.title}**\n\n**Summary.** ${text(p)}`).join('\n\n') },
]
