// Issue 4's speed bars: isolating a config with a 1 M-token thread, and sanitizing 10 MB.
import { countTokens, createIsolatedContext, sanitize } from '../dist/index.js'
import { speedThreads } from './extract.mjs'
import { bar, fmt, loadJsonl, measure, table } from './lib.mjs'

const BUDGET = 8_000

/**
 * A plain JavaScript sanitizer as a user would write it: regular expressions for the
 * default markers, literal spellings only (no disguises), bracket markers to the end
 * of the paragraph.
 */
function regexSanitize(text) {
  let removed = 0
  const count = () => (removed++, '')
  const out = text
    .replace(/<(internal|system-reminder|thinking|scratchpad)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, count)
    .replace(/\[(INTERNAL|PRIVATE|CONFIDENTIAL)\][\s\S]*?\[\/\1\]/gi, count)
    .replace(/\[(INTERNAL|PRIVATE|CONFIDENTIAL)\][^\n]*(?:\n(?!\s*\n)[^\n]*)*/gi, count)
  return { text: out, removed }
}

/** About 10 MB of transcript text with a marked note or block every ~4 KB. */
function markedText(records) {
  const pieces = []
  let size = 0
  let i = 0
  outer: for (const r of records) {
    for (const m of r.messages) {
      if (typeof m.content !== 'string') continue
      pieces.push(m.content)
      if (++i % 3 === 0) pieces.push(i % 2 ? '[INTERNAL] reviewer note: retry later.' : '<thinking>check the tests first</thinking>')
      size += m.content.length
      if (size >= 10_000_000) break outer
    }
  }
  return pieces.join('\n\n').slice(0, 10_000_000)
}

export async function run() {
  const lines = []
  const say = (s = '') => lines.push(s)
  const records = loadJsonl('swe-openhands.jsonl.gz')
  say('## createIsolatedContext and sanitize')
  say()

  const { one } = speedThreads(records)
  const tokens = countTokens(one)
  const config = {
    taskId: 'T.1',
    task: records[0].task,
    maxContextTokens: BUDGET,
    constraints: ['Keep the public API unchanged'],
    files: { 'README.md': records[0].task },
  }
  const withSiblings = { ...config, siblingTasks: records.slice(1, 4).map((r) => r.task) }
  const plain = measure(() => createIsolatedContext(config, one), { runs: 5 })
  const siblings = measure(() => createIsolatedContext(withSiblings, one), { runs: 5 })
  say('### Isolating a config with a long thread')
  say()
  say(
    `The config: the first transcript's task, a ${BUDGET.toLocaleString('en-US')}-token \`maxContextTokens\`, one file and one constraint, and in the second row also the next three transcripts' tasks as \`siblingTasks\`; the thread: the transcripts' messages as one string (as in the extraction benchmark), ${fmt(tokens / 1e6, 2)} M o200k tokens (${fmt(one.length / 1e6, 1)} M characters). Sanitizing, extraction, and counting every field are all in the time. Medians of 5 runs after one warm-up.`,
  )
  say()
  say(
    table(
      ['call', 'ms'],
      [
        ['createIsolatedContext(config, thread)', fmt(plain.ms)],
        ['the same with 3 `siblingTasks`', fmt(siblings.ms)],
      ],
    ),
  )
  say()
  say(`- ${bar(plain.ms <= 300, '≤ 300 ms for a 1 M-token thread')} (with 3 siblings: ${bar(siblings.ms <= 300, '≤ 300 ms')})`)
  say()

  const text = markedText(records)
  const bytes = Buffer.byteLength(text)
  const ours = measure(() => sanitize(text), { runs: 7 })
  const peer = measure(() => regexSanitize(text), { runs: 5 })
  const mbs = (ms) => bytes / 1e6 / (ms / 1000)
  say('### Sanitizing 10 MB')
  say()
  say(
    `${fmt(bytes / 1e6, 1)} MB of transcript text with a marked note or block after every third message (${sanitize(text).removed.toLocaleString('en-US')} markers). The peer is three regular expressions for the default markers in their literal spelling only: it catches none of the disguises this package reads through, so it does less work. Medians of 7 runs (5 for the peer) after one warm-up.`,
  )
  say()
  say(
    table(
      ['method', 'ms', 'MB/s'],
      [
        ['this package, `sanitize`', fmt(ours.ms), fmt(mbs(ours.ms))],
        ['regular expressions (literal markers only)', fmt(peer.ms), fmt(mbs(peer.ms))],
      ],
    ),
  )
  say()
  say(`- ${bar(mbs(ours.ms) >= 200, 'sanitizing ≥ 200 MB/s')}`)
  return lines.join('\n')
}
