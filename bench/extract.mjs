// Extraction: `extractRelevantContext` on labeled questions (HotpotQA), on interleaved real agent
// threads (sibling leakage, own files, tool-call pairs) and on million-token threads (speed),
// against plain peers measured in the same run, with the same budgets.
import { BM25 } from 'fast-bm25'
import { countTokens as gptCountTokens } from 'gpt-tokenizer/encoding/o200k_base'

import * as pkg from '../dist/index.js'
import { countMessageTokens, countTokens } from '../dist/index.js'
import { bar, fmt, loadJsonl, measure, median, packageVersion, table } from './lib.mjs'

// The extractor is being written while this file is; a CommonJS re-export the ESM loader cannot see
// by name is still reachable through `default`.
const extract = [pkg.extractRelevantContext, pkg.default?.extractRelevantContext].find((f) => typeof f === 'function')
const extractAsync = [pkg.extractRelevantContextAsync, pkg.default?.extractRelevantContextAsync].find((f) => typeof f === 'function')
const NOT_BUILT = "This package's extractor is not built yet (`extractRelevantContext` is missing from `dist/index.js`): only the peers are measured."

const BM25_NAME = `fast-bm25 ${packageVersion('fast-bm25')}`
const GPT_NAME = `gpt-tokenizer ${packageVersion('gpt-tokenizer')}`

/** A small English stop list for the keyword counter (the seed story's method). */
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both
  but by can could did do does doing down during each few for from further had has have having he her here hers herself
  him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
  other our ours out over own same she should so some such than that the their theirs them then there these they this
  those through to too under until up very was we were what when where which while who whom whose why will with would
  you your yours`.split(/\s+/),
)

/** `parts` picks sections (all by default), e.g. `run(['threads'])` while working on one;
 *  `threads` also measures the threads in one directory, which `one-directory` measures alone. */
export async function run(parts = ['hotpotqa', 'threads', 'speed']) {
  const lines = []
  const say = (s = '') => lines.push(s)
  say('## Extraction (`extractRelevantContext`)')
  say()
  if (!extract) {
    say(`> ${NOT_BUILT}`)
    say()
  }
  const swe = loadJsonl('swe-openhands.jsonl.gz')
  if (parts.includes('hotpotqa')) hotpotqa(say), say()
  if (parts.includes('threads')) threads(say, swe), say()
  if (parts.includes('threads') || parts.includes('one-directory')) threads(say, swe.map(inOneDirectory), ONE_DIRECTORY), say()
  if (parts.includes('speed')) await speed(say, swe)
  return lines.join('\n')
}

// ---------------------------------------------------------------------------------------------
// 1. HotpotQA: supporting-sentence recall at 25 % of the context's tokens.

function hotpotqa(say) {
  const questions = loadJsonl('hotpotqa.jsonl.gz')
  const methods = [
    ...(extract ? [{ name: 'this package', fn: (context, task, budget) => extract(context, task, { maxTokens: budget }).relevantContext }] : []),
    { name: 'keyword counter (seed story)', fn: keywordCounter },
    { name: `BM25 (${BM25_NAME}) + ${GPT_NAME}`, fn: bm25Sentences },
  ]
  const stats = methods.map(() => ({ recall: 0, allRecalled: 0, times: [], tokens: 0, overBudget: 0 }))
  let budgetTokens = 0
  let contextTokens = 0
  for (const q of questions) {
    const context = renderHotpot(q)
    const fullTokens = countTokens(context)
    const budget = Math.floor(fullTokens * 0.25)
    contextTokens += fullTokens
    budgetTokens += budget
    methods.forEach((method, m) => {
      const start = performance.now()
      const extracted = method.fn(context, q.question, budget)
      stats[m].times.push(performance.now() - start)
      const tokens = countTokens(extracted)
      stats[m].tokens += tokens
      if (tokens > budget) stats[m].overBudget++
      const { hits, total } = supportingRecall(q, extracted)
      stats[m].recall += hits / total
      if (hits === total) stats[m].allRecalled++
    })
  }

  const n = questions.length
  say('### HotpotQA: supporting sentences kept at 25 % of the tokens')
  say()
  say(
    `${n} questions of \`hotpotqa.jsonl.gz\` (dev set, distractor setting). Task = the question; context = each paragraph as \`## <title>\` and its sentences (${fmt(contextTokens / n, 0)} o200k tokens on average); budget = floor(25 %) of the context's o200k tokens. A supporting sentence counts as recalled when its trimmed text appears in the extract (whitespace runs compared as one space, for every method alike). Recall is the mean over questions. The peers cut the rendered text into sentences with \`/(?<=[.!?])\\s+/\` (headings are units of their own), keep units that score above 0 by score while they fit, and print them in the original order.`,
  )
  say()
  say(
    table(
      ['method', 'recall', 'all recalled', 'median ms / question', 'extract tokens / budget tokens', 'over budget'],
      methods.map((method, m) => {
        const s = stats[m]
        return [method.name, fmt(s.recall / n, 3), fmt(s.allRecalled / n, 3), fmt(median(s.times), 2), `${s.tokens.toLocaleString('en-US')} / ${budgetTokens.toLocaleString('en-US')}`, s.overBudget]
      }),
    ),
  )
  say()
  if (extract) {
    const ours = stats[0]
    say(`- ${bar(ours.recall / n >= 0.92, 'recall ≥ 0.92')}`)
    say(`- ${bar(ours.allRecalled / n >= 0.83, 'all supporting sentences recalled ≥ 0.83 of questions')}`)
    say(`- ${bar(ours.overBudget === 0, 'no extract over its budget')}`)
  } else {
    say(NOT_BUILT)
  }
}

/** `## <title>`, the sentences as given (they keep their leading spaces), a blank line between paragraphs. */
function renderHotpot(q) {
  return q.paragraphs.map((p) => `## ${p.title}\n${p.sentences.join('')}`).join('\n\n')
}

export const squash = (text) => text.replace(/\s+/g, ' ').trim()

/** How many supporting sentences appear in the extract. Whitespace is squashed so that two adjacent
 *  sentence units a peer joined with a newline still match a sentence the data set holds as one. */
function supportingRecall(q, extracted) {
  const text = squash(extracted)
  let hits = 0
  for (const [title, index] of q.supporting) {
    const sentence = q.paragraphs.find((p) => p.title === title).sentences[index]
    if (text.includes(squash(sentence))) hits++
  }
  return { hits, total: q.supporting.length }
}

/** The peers' units: heading lines whole, other lines cut after `.`, `!` or `?` followed by whitespace.
 *  The data set's own sentence boundaries are not used: a real thread does not come with them. */
function sentenceUnits(text) {
  const units = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    if (line.startsWith('#')) units.push(line)
    else for (const s of line.split(/(?<=[.!?])\s+/)) if (s.trim()) units.push(s)
  }
  return units
}

/** Greedy fill: take units in `order` (best first), skip one that no longer fits, keep going;
 *  print the kept ones in their original order. Each unit is counted with its separator. */
function fillByRank(units, order, count, budget, separator = '\n') {
  const kept = new Set()
  let used = 0
  for (const i of order) {
    const tokens = count(units[i] + separator)
    if (used + tokens <= budget) {
      kept.add(i)
      used += tokens
    }
  }
  return units.filter((_, i) => kept.has(i)).join(separator)
}

const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** The seed story's extractor written plainly: count the task's keywords in every sentence. */
function keywordCounter(context, task, budget) {
  const keywords = new Set(words(task).filter((w) => w.length > 3 && !STOP_WORDS.has(w)))
  const units = sentenceUnits(context)
  const scores = units.map((u) => words(u).filter((w) => keywords.has(w)).length)
  const order = units
    .map((_, i) => i)
    .filter((i) => scores[i] > 0)
    .sort((a, b) => scores[b] - scores[a] || a - b)
  return fillByRank(units, order, countTokens, budget)
}

/** A BM25 library ranks the same sentence units; gpt-tokenizer counts them. */
export function bm25Sentences(context, task, budget) {
  const units = sentenceUnits(context)
  const index = new BM25(units.map((text) => ({ text })))
  // `search` returns the units scoring above 0, best first (ties in original order).
  const order = index.search(task, units.length).map((r) => r.index)
  return fillByRank(units, order, gptCountTokens, budget)
}

// ---------------------------------------------------------------------------------------------
// 2. Real agent threads: four tasks of one repository interleaved, extracted for each task.

const THREAD_BUDGET = 8000
const TASKS_PER_THREAD = 4
const SHARED = -1 // owner of the one system message the four transcripts share
const EDIT_COMMANDS = new Set(['str_replace', 'create', 'insert'])

// `EXTRACT_THREADS=odd` (or `even`) measures only the threads at odd (even) positions, counting
// from 0: ownership methods are developed on one half and checked on the other. The report covers
// all threads unless it is set.
const THREAD_HALF = process.env.EXTRACT_THREADS
if (THREAD_HALF !== undefined && THREAD_HALF !== 'odd' && THREAD_HALF !== 'even') throw new Error(`EXTRACT_THREADS must be odd or even, got ${THREAD_HALF}`)

/** The same transcripts as another agent writes them: every task works in one directory. OpenHands
 *  gives each repository version a workspace of its own (`/workspace/django__django__3.0`), so a
 *  rule that tells tasks apart by their directories could work on the data as given and nowhere
 *  else; here every such path is `/testbed` (as SWE-agent's and SWE-bench's own harnesses have it)
 *  in the task, the messages and the tool-call arguments. */
const ONE_DIRECTORY = {
  heading: 'Sibling isolation on interleaved agent threads, every task in one directory',
  note: 'The threads above with every per-version workspace path (`/workspace/<repo>__<repo>__<version>`) rewritten to `/testbed`, in the tasks, the messages and the tool-call arguments: the layout of an agent whose tasks all work in one checkout. Edited files are counted under their rewritten paths.',
}
const WORKSPACE = /\/workspace\/[A-Za-z0-9_.-]+__[A-Za-z0-9_.-]+__[0-9][A-Za-z0-9_.-]*/g
const oneDirectory = (text) => (typeof text === 'string' ? text.replace(WORKSPACE, '/testbed') : text)
function inOneDirectory(record) {
  const messages = record.messages.map((m) => ({
    ...m,
    content: Array.isArray(m.content) ? m.content.map((p) => ({ ...p, text: oneDirectory(p.text) })) : oneDirectory(m.content),
    ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: oneDirectory(c.function.arguments) } })) } : {}),
  }))
  return { ...record, task: oneDirectory(record.task), messages }
}

function threads(say, records, variant) {
  const { groups: allGroups, pathMismatches, repos } = sameRepoGroups(records)
  const groups = THREAD_HALF ? allGroups.filter((_, i) => i % 2 === (THREAD_HALF === 'odd' ? 1 : 0)) : allGroups
  const built = groups.map(interleave)
  // Per-message token counts carry a per-request priming overhead; measure it once so that a
  // sum of per-unit counts equals the count of the whole list.
  const a = { role: 'user', content: 'a' }
  const priming = countMessageTokens([a]) + countMessageTokens([a]) - countMessageTokens([a, a])

  const rows = []
  const stats = { ours: newThreadStats(), peer: newThreadStats() }
  let sharedPaths = 0
  let ownPathsTotal = 0
  for (const thread of built) {
    const tasks = thread.group.map((r) => r.task)
    // The peer ranks all four tasks against one index per thread; its time per task is a quarter.
    const start = performance.now()
    const peerKept = bm25MinusBestSibling(thread, tasks, priming)
    const peerMs = (performance.now() - start) / TASKS_PER_THREAD
    for (let k = 0; k < TASKS_PER_THREAD; k++) {
      const ownPaths = thread.editedPaths[k]
      const siblingPaths = new Set(thread.editedPaths.filter((_, j) => j !== k).flatMap((s) => [...s]))
      ownPathsTotal += ownPaths.size
      for (const p of ownPaths) if (siblingPaths.has(p)) sharedPaths++

      if (extract) {
        const siblingTasks = tasks.filter((_, j) => j !== k)
        const t0 = performance.now()
        const result = extract(thread.messages, tasks[k], { maxTokens: THREAD_BUDGET, siblingTasks, audit: true })
        const ms = performance.now() - t0
        record(stats.ours, thread, k, result.relevantMessages ?? null, result.relevantContext, ms)
      }
      const kept = peerKept[k]
      record(stats.peer, thread, k, kept, kept.map(messageText).join('\n\n'), peerMs)
    }
  }

  const taskCount = built.length * TASKS_PER_THREAD
  const meanThreadTokens = built.reduce((n, t) => n + countMessageTokens(t.messages), 0) / built.length
  if (variant) {
    say(`### ${variant.heading}`)
    say()
    say(variant.note)
    say()
  } else {
    say('### Sibling isolation on interleaved agent threads')
    say()
    say(
      `${built.length} threads (${taskCount} tasks, ${repos} repositories) from \`swe-openhands.jsonl.gz\`: the records of one repository sorted by id and cut into disjoint groups of ${TASKS_PER_THREAD}; each thread interleaves the four transcripts message by message behind one shared system message (${fmt(meanThreadTokens / 1000, 0)} K o200k tokens per thread on average). Tool-call ids are suffixed with the task's slot (\`toolu_01\` → \`toolu_01_t2\`): every transcript numbers its calls from \`toolu_01\`, so the interleaved ids would otherwise collide. Each task is extracted with the other three tasks' texts as \`siblingTasks\` and a budget of ${THREAD_BUDGET.toLocaleString('en-US')} tokens.`,
    )
    say()
    say(
      '- **sibling share**: o200k tokens (`countMessageTokens([m])` per kept message) of kept messages that came from a sibling task, over all kept tokens; pooled over tasks, then the mean and the worst single task.',
    )
    say(
      "- **sibling share of the text**: the same for `relevantContext`, the text a subagent's prompt carries, pooled: each of its lines (or, where a segment was cut, the piece of a line) is a sibling's when only siblings' messages hold it, counted in o200k tokens; role headers and elision markers are left out.",
    )
    say('- **own files**: of the files a task edited itself (`str_replace_editor` with `str_replace`, `create` or `insert`), the share whose path appears verbatim in what the subagent receives (the extracted text and the kept messages, tool-call arguments included).')
    say('- **tool-pair violations**: a kept tool call without its kept result, or a kept result without its call. Every transcript ends with a call that has no result in the data (the agent\'s final action), so "dangling in input" counts the violations of that kind.')
    say()
  }
  const header = ['method', 'sibling share (pooled)', 'mean per task', 'worst task', 'sibling share of the text', 'own files', 'tool-pair violations (dangling in input)', 'over budget', 'median ms / task']
  const row = (name, s) => [
    name,
    pct(s.siblingTokens / s.keptTokens),
    pct(s.siblingShares.reduce((x, y) => x + y, 0) / s.siblingShares.length),
    pct(Math.max(...s.siblingShares)),
    pct(s.text.sibling / s.text.total),
    fmt(s.ownFiles.reduce((x, y) => x + y, 0) / s.ownFiles.length, 3),
    s.violations === null ? 'n/a (no `relevantMessages`)' : `${s.violations} (${s.danglingInInput})`,
    s.overBudget,
    fmt(median(s.times), 1),
  ]
  if (extract) rows.push(row('this package', stats.ours))
  rows.push(row(`BM25 minus best sibling (${BM25_NAME})`, stats.peer))
  say(table(header, rows))
  say()
  if (extract) {
    const s = stats.ours
    const share = s.siblingTokens / s.keptTokens
    const ownFiles = s.ownFiles.reduce((x, y) => x + y, 0) / s.ownFiles.length
    say(`- ${bar(built.length >= 50, `≥ 50 threads (${built.length})`)}`)
    say(`- ${bar(share <= 0.02, 'sibling share of the kept messages ≤ 2 %')}`)
    say(`- ${bar(s.text.sibling / s.text.total <= 0.02, 'sibling share of the text ≤ 2 %')}`)
    say(`- ${bar(ownFiles >= 0.9, 'own files ≥ 0.9')}`)
    say(`- ${bar(s.violations === 0, 'no tool-pair violations')}`)
    say(`- ${bar(s.overBudget === 0, `no extraction over ${THREAD_BUDGET.toLocaleString('en-US')} tokens`)}`)
    if (s.fallbacks) say(`- ${s.fallbacks} results had no \`relevantMessages\`: their sibling share was attributed by finding whole message texts in \`relevantContext\`.`)
    if (s.text.unattributed) say(`- ${pct(s.text.unattributed / s.text.total)} of the text's tokens are in lines no message holds (cut or sanitized pieces): counted as neither own nor sibling.`)
    if (s.unattributed) say(`- ${s.unattributed} kept messages could not be traced to a task (counted as neither own nor sibling).`)
  } else {
    say(NOT_BUILT)
  }
  say()
  say(
    `Notes on the data: ${sharedPaths} of the ${ownPathsTotal} own edited paths are also edited by a sibling in the same thread (mostly scratch files such as \`/workspace/reproduce_issue.py\`), so for those a hit may come from a sibling's message.${pathMismatches ? ` ${pathMismatches} records have a \`meta.path\` that names another instance than their id.` : ''} The peer keeps the system message, as the extractor does by default, and keeps a tool call and its results as one unit; the peer's kept units score > 0 (task score minus the best sibling score).`,
  )
}

/** Disjoint groups of four records of one repository: sorted by id, chunked, the remainder dropped. */
function sameRepoGroups(records) {
  const byRepo = new Map()
  let pathMismatches = 0
  for (const r of records) {
    // `meta.path` is `…/trajs/<instance id>/<file>.json`; it should name the same instance.
    const instance = /\/trajs\/([^/]+)\//.exec(r.meta?.path ?? '')?.[1]
    if (instance !== r.id) pathMismatches++
    const repo = r.id.split('__')[0]
    if (!byRepo.has(repo)) byRepo.set(repo, [])
    byRepo.get(repo).push(r)
  }
  const groups = []
  for (const repo of [...byRepo.keys()].sort()) {
    const sorted = byRepo.get(repo).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    for (let i = 0; i + TASKS_PER_THREAD <= sorted.length; i += TASKS_PER_THREAD) groups.push(sorted.slice(i, i + TASKS_PER_THREAD))
  }
  return { groups, pathMismatches, repos: new Set(groups.map((g) => g[0].id.split('__')[0])).size }
}

/** One parent thread: a system message, then message 0 of every task, message 1 of every task, …
 *  Messages are shallow copies with slot-suffixed tool-call ids; owners live in side tables. */
function interleave(group) {
  const owner = new Map() // message object -> slot (or SHARED)
  const callOwner = new Map() // tool-call id -> slot
  const resultIds = new Set() // tool-call ids that have a result in the thread
  const transcripts = group.map((r, k) =>
    r.messages
      .filter((m) => m.role !== 'system')
      .map((m) => {
        const copy = { ...m }
        if (m.tool_calls) copy.tool_calls = m.tool_calls.map((c) => ({ ...c, id: `${c.id}_t${k}` }))
        if (m.tool_call_id) copy.tool_call_id = `${m.tool_call_id}_t${k}`
        return copy
      }),
  )
  const messages = []
  const system = group[0].messages.find((m) => m.role === 'system')
  if (system) {
    messages.push(system)
    owner.set(system, SHARED)
  }
  const longest = Math.max(...transcripts.map((t) => t.length))
  for (let i = 0; i < longest; i++) {
    transcripts.forEach((t, k) => {
      const m = t[i]
      if (!m) return
      messages.push(m)
      owner.set(m, k)
      for (const c of m.tool_calls ?? []) callOwner.set(c.id, k)
      if (m.role === 'tool') resultIds.add(m.tool_call_id)
    })
  }
  const editedPaths = group.map((r) => editedFiles(r.messages))
  return { group, messages, owner, callOwner, resultIds, editedPaths }
}

/** Paths a transcript edited through `str_replace_editor`. */
function editedFiles(messages) {
  const paths = new Set()
  for (const m of messages) {
    for (const call of m.tool_calls ?? []) {
      if (call.function?.name !== 'str_replace_editor') continue
      let args
      try {
        args = JSON.parse(call.function.arguments)
      } catch {
        continue // a malformed argument string edits nothing
      }
      if (EDIT_COMMANDS.has(args.command) && typeof args.path === 'string') paths.add(args.path)
    }
  }
  return paths
}

/** Text of a message as a subagent sees it: its content and its tool-call arguments. */
function messageText(m) {
  return [contentText(m), ...(m.tool_calls ?? []).map((c) => c.function?.arguments ?? '')].join('\n')
}

/** The text of a message's content, parts joined by line breaks. */
function contentText(m) {
  return typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text ?? p.content ?? '').join('\n') : ''
}

const newThreadStats = () => ({ siblingTokens: 0, keptTokens: 0, siblingShares: [], ownFiles: [], violations: 0, danglingInInput: 0, overBudget: 0, times: [], fallbacks: 0, unattributed: 0, text: { sibling: 0, total: 0, unattributed: 0 } })

/** Adds one task's extraction to `stats`. `kept` is the kept message list, or null when the result
 *  has none (then whole message texts are looked up in `text`). */
function record(stats, thread, k, kept, text, ms) {
  stats.times.push(ms)
  let sibling = 0
  let total = 0
  if (kept) {
    for (const m of kept) {
      const tokens = countMessageTokens([m])
      const owner = ownerOf(thread, m)
      if (owner === undefined) stats.unattributed++
      else if (owner !== SHARED && owner !== k) sibling += tokens
      total += tokens
    }
    if (countMessageTokens(kept) > THREAD_BUDGET) stats.overBudget++
    const integrity = toolPairViolations(kept, thread.resultIds)
    if (stats.violations !== null) {
      stats.violations += integrity.violations
      stats.danglingInInput += integrity.danglingInInput
    }
  } else {
    stats.fallbacks++
    stats.violations = null
    for (const m of thread.messages) {
      const content = typeof m.content === 'string' ? m.content.trim() : ''
      if (!content || !text.includes(content)) continue
      const tokens = countMessageTokens([m])
      const owner = thread.owner.get(m)
      if (owner !== SHARED && owner !== k) sibling += tokens
      total += tokens
    }
    if (countTokens(text) > THREAD_BUDGET) stats.overBudget++
  }
  stats.siblingTokens += sibling
  stats.keptTokens += total
  stats.siblingShares.push(total ? sibling / total : 0)
  const lines = textOwners(thread, k, text)
  stats.text.sibling += lines.sibling
  stats.text.total += lines.total
  stats.text.unattributed += lines.unattributed

  const own = thread.editedPaths[k]
  if (own.size) {
    const seen = [text, ...(kept ?? []).map(messageText)].join('\n')
    let hits = 0
    for (const p of own) if (seen.includes(p)) hits++
    stats.ownFiles.push(hits / own.size)
  }
}

/** Attributes the extracted text line by line: a line (or, at a cut, a piece of one) is this
 *  task's when a message of its own or the shared system message holds it, a sibling's when only
 *  siblings' messages do. Role headers and elision markers are the extractor's, not the thread's. */
function textOwners(thread, k, text) {
  const index = lineIndex(thread)
  const counts = { sibling: 0, total: 0, unattributed: 0 }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line || line === '[…]' || /^### \S+( \(.*\))?$/.test(line)) continue
    let owners = index.lines.get(line)
    if (!owners) {
      owners = new Set()
      for (const [owner, all] of index.texts) if (all.includes(line)) owners.add(owner)
    }
    const tokens = countTokens(line)
    counts.total += tokens
    if (!owners.size) counts.unattributed += tokens
    else if (!owners.has(k) && !owners.has(SHARED)) counts.sibling += tokens
  }
  return counts
}

/** Per thread, once: every line of every message (as rendered: a tool call as `→ name arguments`)
 *  with the tasks whose messages hold it, and each task's messages as one text. */
function lineIndex(thread) {
  if (thread.lineIndex) return thread.lineIndex
  const lines = new Map()
  const texts = new Map()
  for (const m of thread.messages) {
    const owner = thread.owner.get(m)
    const rendered = [contentText(m), ...(m.tool_calls ?? []).map((c) => `→ ${c.function?.name} ${c.function?.arguments ?? ''}`)].join('\n')
    texts.set(owner, `${texts.get(owner) ?? ''}\n${rendered}`)
    for (const raw of rendered.split('\n')) {
      const line = raw.trim()
      if (!line) continue
      if (!lines.has(line)) lines.set(line, new Set())
      lines.get(line).add(owner)
    }
  }
  thread.lineIndex = { lines, texts }
  return thread.lineIndex
}

/** Which task a kept message came from: the same object, else its tool-call ids, else its text. */
function ownerOf(thread, m) {
  if (thread.owner.has(m)) return thread.owner.get(m)
  if (m.tool_call_id && thread.callOwner.has(m.tool_call_id)) return thread.callOwner.get(m.tool_call_id)
  for (const c of m.tool_calls ?? []) if (thread.callOwner.has(c.id)) return thread.callOwner.get(c.id)
  // A cut copy: find the thread message holding its longest piece (elisions split the pieces).
  const piece = messageText(m)
    .split(/\n\[…\]\n/)
    .map((s) => s.trim())
    .sort((a, b) => b.length - a.length)[0]
  if (!piece) return undefined
  const source = thread.messages.find((x) => x.role === m.role && messageText(x).includes(piece))
  return source ? thread.owner.get(source) : undefined
}

/** Kept calls without a kept result plus kept results without a kept call; the first kind is also
 *  counted apart when the input thread itself has no result for the call. */
function toolPairViolations(kept, resultIdsInInput) {
  const calls = new Set()
  const results = new Set()
  for (const m of kept) {
    for (const c of m.tool_calls ?? []) calls.add(c.id)
    if (m.role === 'tool') results.add(m.tool_call_id)
  }
  let violations = 0
  let danglingInInput = 0
  for (const id of calls) {
    if (results.has(id)) continue
    violations++
    if (!resultIdsInInput.has(id)) danglingInInput++
  }
  for (const id of results) if (!calls.has(id)) violations++
  return { violations, danglingInInput }
}

/** The peer: BM25 of each unit (a message, or a tool call with its results) against the task, minus
 *  its best BM25 against a sibling task; units scoring above 0 kept best first while they fit.
 *  Returns the kept messages for each of the four tasks, in thread order. */
function bm25MinusBestSibling(thread, tasks, priming) {
  const unitOfCall = new Map()
  const units = []
  for (const m of thread.messages) {
    const unit = m.role === 'tool' ? unitOfCall.get(m.tool_call_id) : undefined
    if (unit) {
      unit.push(m)
      continue
    }
    units.push([m])
    for (const c of m.tool_calls ?? []) unitOfCall.set(c.id, units.at(-1))
  }
  const index = new BM25(units.map((u) => ({ text: u.map(messageText).join('\n') || ' ' })))
  const scores = tasks.map((task) => {
    const s = new Float64Array(units.length)
    for (const r of index.search(task, units.length)) s[r.index] = r.score
    return s
  })
  // The budget is counted like the extractor's: o200k message tokens, the priming once per list.
  const cost = units.map((u) => countMessageTokens(u) - priming)
  const system = units.map((u, i) => i).filter((i) => units[i][0].role === 'system')
  return tasks.map((_, k) => {
    // The system message is kept first, as the extractor's `keepSystem` default does.
    const keep = new Set(system.map((i) => units[i]))
    let used = priming + system.reduce((n, i) => n + cost[i], 0)
    const siblings = scores.filter((_, j) => j !== k)
    const ranked = units
      .map((_, i) => ({ i, score: scores[k][i] - Math.max(...siblings.map((s) => s[i])) }))
      .filter((r) => r.score > 0 && !system.includes(r.i))
      .sort((a, b) => b.score - a.score || a.i - b.i)
    for (const { i } of ranked) {
      if (used + cost[i] > THREAD_BUDGET) continue
      keep.add(units[i])
      used += cost[i]
    }
    return units.filter((u) => keep.has(u)).flat()
  })
}

// `BENCH_PCT_DIGITS` prints shares with more digits while comparing small changes.
const pct = (x) => `${fmt(x * 100, Number(process.env.BENCH_PCT_DIGITS ?? 1))} %`

// ---------------------------------------------------------------------------------------------
// 3. Speed on million-token threads, and the event loop while the async form runs.

async function speed(say, records) {
  const { one, four } = speedThreads(records)
  const task = records[0].task
  const oneTokens = countTokens(one)
  const fourTokens = countTokens(four)
  say('### Speed on long threads')
  say()
  say(
    `The transcripts' message contents as one string (a \`### <role>\` line before each message, a blank line between), from the first record on: ${fmt(oneTokens / 1e6, 2)} M o200k tokens (${fmt(one.length / 1e6, 1)} M characters) and a 4× longer one, ${fmt(fourTokens / 1e6, 2)} M tokens. Task = the first record's task, budget ${THREAD_BUDGET.toLocaleString('en-US')} tokens. The peer pipeline splits at blank lines, ranks the paragraphs with ${BM25_NAME}, counts them with ${GPT_NAME} and fills the budget best first. Medians of 5 runs (3 for the peer) after one warm-up.`,
  )
  say()
  const peer = measure(() => bm25Paragraphs(one, task, THREAD_BUDGET), { runs: 3 })
  const rows = []
  if (extract) {
    const small = measure(() => extract(one, task, { maxTokens: THREAD_BUDGET }), { runs: 5 })
    const large = measure(() => extract(four, task, { maxTokens: THREAD_BUDGET }), { runs: 5 })
    rows.push(['this package', fmt(small.ms), fmt(large.ms), fmt(large.ms / small.ms, 2), fmt(peer.ms / small.ms)])
    rows.push([`BM25 (${BM25_NAME}) + ${GPT_NAME}`, fmt(peer.ms), '', '', ''])
    say(table(['method', `ms, ${fmt(oneTokens / 1e6, 1)} M tokens`, `ms, ${fmt(fourTokens / 1e6, 1)} M tokens`, 'ratio 4× / 1×', 'our speedup over the peer'], rows))
    say()
    say(`- ${bar(small.ms <= 250, '≤ 250 ms for 1 M tokens')}`)
    say(`- ${bar(large.ms / small.ms <= 4.5, 'time ratio for 4× the tokens ≤ 4.5')}`)
    say(`- ${bar(peer.ms / small.ms >= 10, '≥ 10× the BM25 + gpt-tokenizer pipeline')}`)
  } else {
    say(table(['method', `ms, ${fmt(oneTokens / 1e6, 1)} M tokens`], [[`BM25 (${BM25_NAME}) + ${GPT_NAME}`, fmt(peer.ms)]]))
    say()
    say(NOT_BUILT)
  }

  say()
  say('### Event loop while `extractRelevantContextAsync` runs')
  say()
  if (!extractAsync) {
    say('Skipped: `extractRelevantContextAsync` is not built yet.')
    return
  }
  // 4 MB of the long thread; do not end on half a surrogate pair.
  let fourMegabytes = four.slice(0, 4_000_000)
  if (/[\uD800-\uDBFF]$/.test(fourMegabytes)) fourMegabytes = fourMegabytes.slice(0, -1)
  const delays = []
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    delays.push(now - last - 1) // how late this 1 ms tick came
    last = now
  }, 1)
  // Several calls one after another, so that the p99 rests on a few hundred ticks.
  for (let i = 0; i < 5; i++) await extractAsync(fourMegabytes, task, { maxTokens: THREAD_BUDGET })
  clearInterval(timer)
  delays.sort((x, y) => x - y)
  const p99 = delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.99))]
  say(`Five calls on 4 MB of the thread, one after another, while a \`setInterval(…, 1)\` timer runs: ${delays.length} ticks, delay beyond 1 ms p50 ${fmt(median(delays), 2)} ms, p99 ${fmt(p99, 2)} ms, max ${fmt(delays.at(-1), 2)} ms.`)
  say()
  say(`- ${bar(p99 < 20, 'p99 timer delay < 20 ms')}`)
}

/** The ~1 M-token thread and the ~4 M-token one, both from the start of the corpus. */
export function speedThreads(records) {
  const pieces = []
  let tokens = 0
  let oneEnd = 0
  outer: for (const r of records) {
    for (const m of r.messages) {
      const piece = `### ${m.role}\n${typeof m.content === 'string' ? m.content : ''}`
      pieces.push(piece)
      tokens += countTokens(piece) + 1 // the blank line between pieces
      if (!oneEnd && tokens >= 1_000_000) oneEnd = pieces.length
      if (tokens >= 4_000_000) break outer
    }
  }
  return { one: pieces.slice(0, oneEnd).join('\n\n'), four: pieces.join('\n\n') }
}

/** The peer pipeline on a long string: paragraphs ranked by BM25, counted by gpt-tokenizer. */
function bm25Paragraphs(text, task, budget) {
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim())
  const index = new BM25(paragraphs.map((p) => ({ text: p })))
  const order = index.search(task, paragraphs.length).map((r) => r.index)
  return fillByRank(paragraphs, order, gptCountTokens, budget, '\n\n')
}
