// `npm run demo`: the package's main job on bundled sample data, an orchestrator thread
// written for this project (examples/data/): for each of its tasks, the slice of the
// thread that task needs, within a budget, without its siblings' content, and what that
// saves against handing every subagent the whole thread. (Sanitizing internal notes
// comes with `createIsolatedContext`; the demo reports whether any are left.)
import { readFileSync } from 'node:fs'

import { countMessageTokens, extractRelevantContext } from '../dist/index.js'

const sample = JSON.parse(readFileSync(new URL('./data/orchestrator-thread.json', import.meta.url), 'utf8'))
const { messages, tasks } = sample
const ids = Object.keys(tasks)
const budget = 600

console.log(`subagent-context demo: ${sample.description}\n`)
const whole = countMessageTokens(messages)
console.log(`The parent thread: ${messages.length} messages, ${whole} tokens (o200k_base, exact).`)
console.log(`Each subagent gets its task's slice, at most ${budget} tokens, with the other tasks as siblings.\n`)

let isolatedTotal = 0
for (const id of ids) {
  const siblingTasks = ids.filter((other) => other !== id).map((other) => `${other} ${tasks[other]}`)
  const result = extractRelevantContext(messages, `${id} ${tasks[id]}`, { maxTokens: budget, siblingTasks, audit: true })
  const reasons = {}
  for (const d of result.dropped) reasons[d.reason] = (reasons[d.reason] ?? 0) + 1
  isolatedTotal += result.metrics.extractedTokens
  console.log(`── ${id}: ${tasks[id]}`)
  console.log(
    `   ${result.metrics.extractedTokens} of ${result.metrics.originalTokens} tokens (${(result.metrics.reductionRatio * 100).toFixed(0)} % left out); ` +
      `kept ${result.metrics.segmentsKept} of ${result.metrics.segmentsTotal} segments; dropped: ${Object.entries(reasons).map(([r, n]) => `${n} ${r}`).join(', ')}`,
  )
  console.log(`   keywords: ${result.keywords.slice(0, 6).join(', ')}`)
  console.log(`   messages handed over whole: ${result.relevantMessages.length} of ${messages.length}`)
  const leaks = ids.filter((other) => other !== id && result.relevantContext.includes(other))
  const internal = /\[(INTERNAL|PRIVATE)\]|<thinking>/.test(result.relevantContext)
  console.log(`   sibling task ids in the slice: ${leaks.length ? leaks.join(', ') : 'none'}; internal notes: ${internal ? 'present' : 'none'}`)
  console.log(result.relevantContext.split('\n').map((line) => `   │ ${line}`).join('\n'))
  console.log()
}
console.log(`Without isolation every subagent reads the whole thread: ${ids.length} × ${whole} = ${ids.length * whole} tokens.`)
console.log(`With isolation they read ${isolatedTotal} tokens in all (${((1 - isolatedTotal / (ids.length * whole)) * 100).toFixed(0)} % less).`)
