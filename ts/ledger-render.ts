// How `contextFor` renders what the next subtask should see: a group per kind of item
// under its own heading, each item in its own form.
import type { Artifact, BackpackItem, CompletionSummary } from './ledger-store.js'
import type { NoteSection } from './ledger-notes.js'

/** A summary's heading holds the first line of its task up to this many characters: a
 *  line, not the task statement. */
const MAX_HEADLINE = 160

export const GROUPS = ['### Notes', '### Earlier subtasks', '### Artifacts', '### Backpack'] as const
/** Items of a group are separated by a blank line (sections) or a newline (list items). */
export const ITEM_SEPARATOR = ['\n\n', '\n\n', '\n', '\n'] as const
export const GROUP_SEPARATOR = '\n\n'

const indent = (s: string) => s.replace(/\n/g, '\n  ')

function headline(description: string): string {
  const first = description.trim().split('\n', 1)[0]!.trim()
  return first.length > MAX_HEADLINE ? `${first.slice(0, MAX_HEADLINE - 1).trimEnd()}…` : first
}

export function renderSummary(s: CompletionSummary): string {
  const lines = [`#### ${s.subtaskId}: ${headline(s.description)}`, '', s.summary.trim()]
  for (const [label, list] of [
    ['Findings', s.findings],
    ['Decisions', s.decisions],
    ['Resources', s.resources],
  ] as const) {
    if (list.length > 0) lines.push(`${label}:`, ...list.map((x) => `- ${indent(x.trim())}`))
  }
  return lines.join('\n')
}

export const renderArtifact = (a: Artifact) => `- ${a.type} (${a.subtaskId}): ${indent(a.content.trim())}`
export const renderBackpackItem = (b: BackpackItem) => `- ${indent(b.content.trim())}`
export const renderNoteSection = (n: NoteSection) => (n.section === '' ? n.content : `#### ${n.section}\n\n${n.content}`.trimEnd())
