// Held-out sweeps for issue 18: renderings the bench's forms are not (bench/sweeps/: text
// layouts, agent frameworks' threads, report styles, nested outlines), written by helpers from
// the tools' and frameworks' own shapes, to check that relevance holds beyond the bench's
// layouts; and probes written later the same way (`results`: a search result's layouts,
// `lists`: reports' lists and links of sources; `dressed`, `dressed-reports`: titles and
// bullets dressed in pictographs; `pages`: pages fetched one by one, as readers print them).
// Not part of `npm run bench`; numbers only, per rendering, on one half of the
// questions (odd indices develop, even ones check, as in bench/forms.mjs).
//
//   node bench/sweep.mjs texts|agents|reports|nested|results|lists|dressed|dressed-reports|pages [--half odd|even|all] [--only NAME,…] [--limit N]
//
// Per rendering: supporting-sentence recall at a quarter of the context's tokens, the share of
// questions with all recalled, extractions over budget, and `reachable` (the recall of the
// whole rendering: 1.000 when every supporting sentence is there to be found).
import { countMessageTokens, countTokens, extractRelevantContext, filterSubagentResult } from '../dist/index.js'
import { squash } from './extract.mjs'
import { questions } from './forms.mjs'

/** Share of the full context's (or report's) o200k tokens given as the budget, as in forms.mjs. */
const BUDGET_SHARE = 0.25

function recall(q, text) {
  const haystack = squash(text.replaceAll('\\"', '"'))
  const found = q.supporting.filter(([title, i]) => haystack.includes(squash(q.paragraphs.find((p) => p.title === title).sentences[i])))
  return found.length / q.supporting.length
}

/** Every string in a thread, for `reachable`. */
const leaves = (x) => (typeof x === 'string' ? [x] : x && typeof x === 'object' ? Object.values(x).flatMap(leaves) : [])

function measure(form, kind, qs) {
  let sum = 0
  let all = 0
  let over = 0
  let reachable = 0
  for (const q of qs) {
    const context = form.render(q)
    const isThread = Array.isArray(context)
    const budget = Math.floor((isThread ? countMessageTokens(context) : countTokens(context)) * BUDGET_SHARE)
    let r
    if (kind === 'extract') {
      const kept = extractRelevantContext(context, q.question, { maxTokens: budget }).relevantContext
      const unescape = form.unescape ?? ((t) => t)
      r = recall(q, unescape(kept))
      reachable += recall(q, unescape(isThread ? leaves(context).join('\n') : context))
      if (countTokens(kept) > budget) over++
    } else {
      const kept = filterSubagentResult(context, q.question, { maxTokens: budget }).content
      r = recall(q, form.strip(kept, q))
      reachable += recall(q, form.strip(context, q))
      if (countTokens(kept) > budget) over++
    }
    sum += r
    if (r === 1) all++
  }
  const n = qs.length
  return { recall: sum / n, all: all / n, over, reachable: reachable / n }
}

const args = process.argv.slice(2)
const flag = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? args[at + 1] : fallback
}
const sweep = args[0]
if (!['texts', 'agents', 'reports', 'nested', 'results', 'lists', 'dressed', 'dressed-reports', 'pages'].includes(sweep)) {
  console.error('usage: node bench/sweep.mjs texts|agents|reports|nested|results|lists|dressed|dressed-reports|pages [--half odd|even|all] [--only NAME,…] [--limit N]')
  process.exit(2)
}
const module = await import(`./sweeps/${sweep}.mjs`)
const kind = module.FORMS ? 'extract' : 'filter'
const only = flag('only')?.split(',')
const forms = (module.FORMS ?? module.FILTER_FORMS).filter((f) => !only || only.includes(f.name))
const qs = questions({ half: flag('half', 'odd'), limit: Number(flag('limit', Infinity)) })
let total = 0
for (const form of forms) {
  const m = measure(form, kind, qs)
  total += m.recall
  console.log(`${form.name.padEnd(34)} ${m.recall.toFixed(3)} all ${m.all.toFixed(3)} over ${m.over} reachable ${m.reachable.toFixed(3)}`)
}
console.log(`MEAN ${(total / forms.length).toFixed(3)} over ${forms.length} forms`)
