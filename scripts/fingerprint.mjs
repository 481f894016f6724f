// A fingerprint of every output over the bench data, for refactors that must change no
// behaviour: `node scripts/fingerprint.mjs` prints one SHA-256 per family of outputs and
// one over all. Equal before and after a change = the change moved code and nothing else.
// Durations are left out (they are the only outputs that differ run to run).
import { createHash } from 'node:crypto'

import {
  countMessageTokens,
  createIsolatedContext,
  extractRelevantContext,
  filterSubagentResult,
  MemoryLedgerStore,
  prepareThread,
  renderPrompt,
  SubtaskLedger,
} from '../dist/index.js'
import { loadJsonl } from '../bench/lib.mjs'

/** Questions and transcripts sampled: enough to reach every code path, quick enough to run often. */
const QUESTIONS = 200
const THREADS = 12

/** Keys whose values are times: they differ run to run whatever the code. */
const TIMES = new Set(['durationMs', 'completedAt', 'recordedAt', 'createdAt', 'at'])
const strip = (value) =>
  JSON.stringify(value, (key, v) => (TIMES.has(key) ? undefined : v))

const families = {}
function add(family, value) {
  const hash = (families[family] ??= createHash('sha256'))
  hash.update(strip(value))
  hash.update('\n')
}

const questions = loadJsonl('hotpotqa.jsonl.gz').slice(0, QUESTIONS)
const sections = (q) => q.paragraphs.map((p) => `## ${p.title}\n\n${p.sentences.join('')}`).join('\n\n')
for (const [i, q] of questions.entries()) {
  const text = sections(q)
  const budget = Math.floor(text.length / 16)
  const sibling = questions[(i + 1) % questions.length].question
  add('text', extractRelevantContext(text, q.question, { maxTokens: budget, audit: true }))
  add('text', extractRelevantContext(text, q.question))
  add('text', extractRelevantContext(text, q.question, { maxTokens: budget, siblingTasks: [sibling], granularity: i % 2 ? 'paragraph' : 'sentence' }))
  const report = q.paragraphs
    .map((p, k) => `${p.sentences.map((s) => s.trimEnd()).join(' ')} [${k + 1}]`)
    .join('\n\n') + '\n\n' + q.paragraphs.map((p, k) => `[${k + 1}]: ${p.title}`).join('\n')
  add('filter', filterSubagentResult(report, q.question, { maxTokens: budget }))
  add('filter', filterSubagentResult(report, q.question))
}

const records = loadJsonl('swe-openhands.jsonl.gz')
const byRepo = new Map()
for (const r of records) {
  const repo = r.id.split('__')[0]
  if (!byRepo.has(repo)) byRepo.set(repo, [])
  byRepo.get(repo).push(r)
}
const groups = [...byRepo.values()].filter((g) => g.length >= 3).map((g) => g.slice(0, 3))
for (let t = 0; t < THREADS; t++) {
  const group = groups[t % groups.length].map((r, k) => records[(records.indexOf(r) + Math.floor(t / groups.length) * 3 + k) % records.length])
  // Interleave the transcripts message by message, each task's first user message quoting its task.
  const thread = []
  const longest = Math.max(...group.map((r) => r.messages.length))
  for (let m = 1; m < longest; m++) for (const r of group) if (r.messages[m]) thread.push(r.messages[m])
  const tasks = group.map((r) => r.task.slice(0, 400))
  const total = countMessageTokens(thread)
  for (const [k, task] of tasks.entries()) {
    const siblingTasks = tasks.filter((_, j) => j !== k)
    add('messages', extractRelevantContext(thread, task, { maxTokens: Math.floor(total / 8), siblingTasks, audit: true }))
    add('messages', extractRelevantContext(thread, task, { maxTokens: Math.floor(total / 20), granularity: 'message' }))
    const config = { taskId: `T.${k}`, task, siblingTasks, maxContextTokens: 2000, context: { instructions: 'Fix it. [INTERNAL] secret' } }
    const isolated = createIsolatedContext(config, thread)
    add('isolate', isolated)
    add('prompt', renderPrompt(isolated.isolatedContext))
    add('isolate', createIsolatedContext(config, prepareThread(thread)))
  }
  const ledger = new SubtaskLedger({ store: new MemoryLedgerStore() })
  for (const [k, r] of group.entries()) {
    const last = String(r.messages.at(-1)?.content ?? '').slice(0, 600)
    await ledger.recordCompletion({ subtaskId: `S.${k}`, description: r.task.slice(0, 200), summary: last || 'done', findings: [r.task.slice(200, 400) || 'none'] })
    await ledger.recordArtifact({ type: 'FINDING', content: r.task.slice(0, 300), relevance: 0.5, subtaskId: `S.${k}` })
  }
  add('ledger', ledger.contextFor(tasks[0], { maxTokens: 500 }))
  add('ledger', ledger.contextFor(tasks[1], { maxTokens: 120 }))
}

let all = createHash('sha256')
for (const [family, hash] of Object.entries(families)) {
  const digest = hash.digest('hex')
  all.update(digest)
  console.log(`${family.padEnd(9)} ${digest.slice(0, 16)}`)
}
console.log(`${'all'.padEnd(9)} ${all.digest('hex').slice(0, 16)}`)
