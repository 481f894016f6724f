// Issue 5: filterSubagentResult on HotpotQA used in reverse (the result is a cited
// report of all ten paragraphs, the task the question), and its speed on a long result.
import { countTokens, filterSubagentResult } from '../dist/index.js'
import { bm25Sentences, squash } from './extract.mjs'
import { bar, fmt, loadJsonl, measure, median, table } from './lib.mjs'

/** A sentence with its citation before the closing punctuation: `… [3].` */
const cite = (sentence, k) => {
  const s = sentence.trimEnd()
  const m = s.match(/[.!?]["')\]]*$/)
  return m ? `${s.slice(0, m.index)} [${k}]${m[0]}` : `${s} [${k}]`
}

/** The ten paragraphs as one report: every sentence cites its paragraph's source, defined at the end. */
export function report(q) {
  const body = q.paragraphs.map((p, i) => p.sentences.filter((s) => s.trim()).map((s) => cite(s, i + 1)).join(' '))
  const sources = q.paragraphs.map((p, i) => `[${i + 1}]: ${p.title} — https://en.wikipedia.org/wiki/${encodeURIComponent(p.title.replaceAll(' ', '_'))}`)
  return `# Research notes\n\n${body.join('\n\n')}\n\n## Sources\n\n${sources.join('\n')}\n`
}

/** Kept markers and whether each has its definition; definitions without a kept marker. */
function citationIntegrity(content) {
  const defined = new Set([...content.matchAll(/^\[(\d+)\]:/gm)].map((m) => m[1]))
  const used = new Set([...content.matchAll(/\[(\d+)\](?!:)/g)].map((m) => m[1]))
  const withDefinition = [...used].filter((l) => defined.has(l)).length
  const orphans = [...defined].filter((l) => !used.has(l)).length
  return { markers: used.size, withDefinition, orphans }
}

function recall(q, content) {
  const text = squash(content.replace(/ \[\d+\]/g, ''))
  let hits = 0
  for (const [title, index] of q.supporting) {
    const sentence = q.paragraphs.find((p) => p.title === title).sentences[index]
    if (text.includes(squash(sentence))) hits++
  }
  return hits / q.supporting.length
}

function hotpotqa(say) {
  const questions = loadJsonl('hotpotqa.jsonl.gz')
  const methods = [
    { name: 'this package', fn: (text, task, budget) => filterSubagentResult(text, task, { maxTokens: budget }).content },
    { name: 'BM25 sentences + gpt-tokenizer (as in the extraction benchmark)', fn: bm25Sentences },
  ]
  const stats = methods.map(() => ({ recall: 0, all: 0, markers: 0, withDefinition: 0, orphans: 0, over: 0, times: [] }))
  let reportTokens = 0
  for (const q of questions) {
    const text = report(q)
    const full = countTokens(text)
    reportTokens += full
    const budget = Math.floor(full * 0.25)
    methods.forEach((m, i) => {
      const started = performance.now()
      const content = m.fn(text, q.question, budget)
      stats[i].times.push(performance.now() - started)
      const r = recall(q, content)
      stats[i].recall += r
      if (r === 1) stats[i].all++
      if (countTokens(content) > budget) stats[i].over++
      const c = citationIntegrity(content)
      stats[i].markers += c.markers
      stats[i].withDefinition += c.withDefinition
      stats[i].orphans += c.orphans
    })
  }
  const n = questions.length
  say('### HotpotQA in reverse: a cited report filtered to 25 %')
  say()
  say(
    `${n} questions. The "subagent result" is a report of all ten paragraphs: every sentence cites its paragraph as \`[k]\` before its closing punctuation, and a \`## Sources\` list at the end defines \`[k]: <title> — <url>\` (${fmt(reportTokens / n, 0)} o200k tokens on average). Task = the question; budget = floor(25 %) of the report's tokens. Recall counts supporting sentences found in the result with the markers taken out. Citation integrity counts, over all ${n} results, the distinct markers kept in the text, how many of them kept their definition, and definitions kept without any marker.`,
  )
  say()
  say(
    table(
      ['method', 'recall', 'all recalled', 'markers kept', 'with definition', 'orphan definitions', 'over budget', 'median ms'],
      methods.map((m, i) => {
        const s = stats[i]
        return [m.name, fmt(s.recall / n, 3), fmt(s.all / n, 3), s.markers, `${s.withDefinition} (${fmt((100 * s.withDefinition) / Math.max(1, s.markers), 1)} %)`, s.orphans, s.over, fmt(median(s.times), 2)]
      }),
    ),
  )
  say()
  const ours = stats[0]
  say(`- ${bar(ours.recall / n >= 0.92, 'supporting-sentence recall ≥ 0.92')}`)
  say(`- ${bar(ours.withDefinition === ours.markers && ours.orphans === 0 && ours.over === 0, 'every kept marker keeps its definition, no orphan definition, never over budget')}`)
}

function speed(say) {
  const records = loadJsonl('swe-openhands.jsonl.gz')
  const pieces = []
  let tokens = 0
  outer: for (const r of records) {
    for (const m of r.messages) {
      if (m.role !== 'assistant' || typeof m.content !== 'string' || !m.content.trim()) continue
      pieces.push(m.content)
      tokens += countTokens(m.content)
      if (tokens >= 100_000) break outer
    }
  }
  const result = pieces.join('\n\n')
  const task = records[0].task
  const budget = 2_000
  const time = measure(() => filterSubagentResult(result, task, { maxTokens: budget }), { runs: 9 })
  say('### Speed on a long result')
  say()
  say(`The assistant messages of the transcripts joined as one result: ${countTokens(result).toLocaleString('en-US')} o200k tokens (${fmt(result.length / 1e6, 2)} M characters); task = the first transcript's task; budget ${budget.toLocaleString('en-US')} tokens. Median of 9 runs after one warm-up.`)
  say()
  say(table(['call', 'ms'], [['filterSubagentResult', fmt(time.ms)]]))
  say()
  say(`- ${bar(time.ms <= 40, '≤ 40 ms for a 100,000-token result')}`)
}

export async function run(parts = ['hotpotqa', 'speed']) {
  const lines = []
  const say = (s = '') => lines.push(s)
  say('## filterSubagentResult')
  say()
  if (parts.includes('hotpotqa')) hotpotqa(say), say()
  if (parts.includes('speed')) speed(say)
  return lines.join('\n')
}
