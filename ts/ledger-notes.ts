// The ledger's notes as markdown: `## Section` headings (outside code fences) start
// sections; text before the first heading, other than the `# Notes` title, is kept as an
// untitled lead. Parsing what `render` wrote gives the same sections back.

export interface NoteSection {
  /** The heading text; `''` for the untitled text before the first heading. */
  readonly section: string
  readonly content: string
}

const TITLE = '# Notes'

/** The sections of a notes file, in file order. */
export function parseNotes(markdown: string): NoteSection[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  const sections: { section: string; lines: string[] }[] = [{ section: '', lines: [] }]
  let fence: string | undefined
  for (const line of lines) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (f) {
      const marker = f[1]!
      if (fence === undefined) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
    }
    const heading = fence === undefined && !f ? /^ {0,3}## +(.*?)(?: +#+)? *$/.exec(line) : null
    if (heading) sections.push({ section: heading[1]!.trim(), lines: [] })
    else sections[sections.length - 1]!.lines.push(line)
  }
  const lead = sections[0]!
  // The file's own title is not content.
  const titleAt = lead.lines.findIndex((l) => l.trim() !== '')
  if (titleAt >= 0 && lead.lines[titleAt]!.trim() === TITLE) lead.lines.splice(titleAt, 1)
  return sections
    .map((s) => ({ section: s.section, content: trimLines(s.lines.join('\n')) }))
    .filter((s, i) => i > 0 || s.content !== '')
}

/** The markdown of `sections`: the `# Notes` title, the untitled lead, then each section. */
export function renderNotes(sections: readonly NoteSection[]): string {
  if (sections.length === 0) return ''
  const parts = [TITLE]
  for (const s of sections) {
    if (s.section !== '') parts.push(`## ${s.section}`)
    if (s.content !== '') parts.push(s.content)
  }
  return `${parts.join('\n\n')}\n`
}

/** Without blank lines at the start and trailing whitespace at the end. */
export function trimLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd()
}

/** Whether `content` has a line that would read back as a `## ` heading (outside code fences). */
export function hasSectionHeading(content: string): boolean {
  return parseNotes(`## x\n\n${content}`).length > 1
}
