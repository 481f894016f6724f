// An analysis for issue 3's sibling share of the extracted text, not part of `npm run bench`:
// `node bench/chains.mjs`. Term evidence cannot tell a sibling's edit of a shared file from this
// task's own; content continuity might. An agent's edit writes lines (`new_str`, `file_text`) that
// its own later results (the edited snippet, a test run) and edits (`old_str`) read back. This
// links the tool units (a call with its results) of the bench's interleaved threads. A line
// links when exactly one unit wrote it and no unit read it before (new content). It then asks
// how often the linked units all belong to one task.
import { loadJsonl } from './lib.mjs'

const MIN_LINE = 25 // characters: shorter lines are too common to name one author

const records = loadJsonl('swe-openhands.jsonl.gz')
const byRepo = new Map()
for (const r of records) {
  const repo = r.id.split('__')[0]
  if (!byRepo.has(repo)) byRepo.set(repo, [])
  byRepo.get(repo).push(r)
}

const totals = { units: 0, chains: 0, pure: 0, chained: 0, inMixed: 0 }
for (const repo of [...byRepo.keys()].sort()) {
  // The bench's groups: a repository's records sorted by id, in fours.
  const sorted = byRepo.get(repo).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (let i = 0; i + 4 <= sorted.length; i += 4) add(units(sorted.slice(i, i + 4)))
}
console.log(
  `${totals.units} tool units; ${totals.chains} chains of two or more, ${totals.pure} of them one task's (${((100 * totals.pure) / totals.chains).toFixed(1)} %); ` +
    `${totals.chained} units in chains (${((100 * totals.chained) / totals.units).toFixed(1)} %), ${totals.inMixed} of them in chains of more than one task`,
)

/** The tool units of four transcripts: owner, place in its transcript, lines written, text read. */
function units(group) {
  const out = []
  group.forEach((r, owner) => {
    const ms = r.messages
    ms.forEach((m, at) => {
      if (m.role !== 'assistant' || !m.tool_calls?.length) return
      const wrote = []
      const read = []
      for (const c of m.tool_calls) {
        let args
        try {
          args = JSON.parse(c.function?.arguments ?? '')
        } catch {
          continue
        }
        for (const key of ['new_str', 'file_text']) if (typeof args[key] === 'string') wrote.push(...args[key].split('\n'))
        if (typeof args.old_str === 'string') read.push(args.old_str)
      }
      for (let q = at + 1; q < ms.length && ms[q].role === 'tool'; q++) read.push(typeof ms[q].content === 'string' ? ms[q].content : JSON.stringify(ms[q].content))
      out.push({ owner, at, wrote: [...new Set(wrote.map((l) => l.trim()).filter((l) => l.length >= MIN_LINE))], read: read.join('\n') })
    })
  })
  return out
}

/** Links the units of one thread and counts its chains. */
function add(list) {
  totals.units += list.length
  const parent = list.map((_, i) => i)
  const root = (i) => (parent[i] === i ? i : (parent[i] = root(parent[i])))
  const writers = new Map()
  list.forEach((u, i) => u.wrote.forEach((l) => writers.set(l, writers.has(l) ? -1 : i)))
  for (const [line, a] of writers) {
    if (a < 0) continue // written by more than one unit
    // The interleaved thread puts each transcript's n-th message in round n.
    if (list.some((u, j) => j !== a && u.at <= list[a].at && u.read.includes(line))) continue
    list.forEach((u, j) => {
      if (j !== a && u.read.includes(line)) parent[root(j)] = root(a)
    })
  }
  const chains = new Map()
  list.forEach((u, i) => {
    const r = root(i)
    if (!chains.has(r)) chains.set(r, [])
    chains.get(r).push(u.owner)
  })
  for (const owners of chains.values()) {
    if (owners.length < 2) continue
    totals.chains++
    totals.chained += owners.length
    if (new Set(owners).size === 1) totals.pure++
    else totals.inMixed += owners.length
  }
}
