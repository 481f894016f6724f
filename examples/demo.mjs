// `npm run demo`: the package's main job on bundled sample data. For now that is
// exact token accounting of a sample orchestrator thread (examples/data/): what
// each message costs, by role and in total, under each encoding, against the
// estimate agent frameworks often use instead.
import { readFileSync } from 'node:fs'

import { countMessageTokens, countTokens } from '../dist/index.js'

const sample = JSON.parse(readFileSync(new URL('./data/orchestrator-thread.json', import.meta.url), 'utf8'))
const { messages, tasks } = sample
const encodings = ['o200k_base', 'cl100k_base', 'estimate']

console.log(`subagent-context demo: ${sample.description}\n`)
console.log(`${messages.length} messages, tasks ${Object.keys(tasks).join(', ')}\n`)

const pad = (s, n) => String(s).padEnd(n)
const num = (s, n) => String(s).padStart(n)
console.log(`${pad('#', 4)}${pad('role', 11)}${pad('what', 34)}${encodings.map((e) => num(e, 13)).join('')}`)
messages.forEach((m, i) => {
  const what = m.tool_calls
    ? `call ${m.tool_calls.map((c) => c.function.name).join(', ')}`
    : (m.content ?? '').replace(/\s+/g, ' ').slice(0, 32)
  const costs = encodings.map((encoding) => num(countMessageTokens([m], { encoding }) - 3, 13))
  console.log(`${pad(i, 4)}${pad(m.role, 11)}${pad(what, 34)}${costs.join('')}`)
})

console.log()
for (const encoding of encodings) {
  const total = countMessageTokens(messages, { encoding })
  const text = messages.map((m) => m.content ?? '').join('\n')
  console.log(`${pad(encoding, 12)} whole thread: ${num(total, 6)} tokens (content alone: ${countTokens(text, { encoding })})`)
}
const exact = countMessageTokens(messages)
const estimate = countMessageTokens(messages, { encoding: 'estimate' })
console.log(`\nThe chars/4 estimate is off by ${(((estimate - exact) / exact) * 100).toFixed(1)} % on this thread;`)
console.log('budgets in this package are exact (o200k_base by default), so a subagent context never overflows.')
