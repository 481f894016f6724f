// `npm run bench`: runs every benchmark on ../shared/data and writes BENCHMARKS.md.
// Benchmarks report numbers; the tests check behaviour.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { machine, root, table } from './lib.mjs'
import * as extract from './extract.mjs'
import * as filter from './filter.mjs'
import * as isolate from './isolate.mjs'
import * as ledger from './ledger.mjs'
import * as load from './load.mjs'
import * as spawn from './spawn.mjs'
import * as tokens from './tokens.mjs'

const sections = [tokens, extract, isolate, filter, ledger, spawn, load]

const m = machine()
const parts = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Every peer is measured in the same run, on the same input, with the same settings. Speeds are medians; the machine is shared and noisy, so expect a few percent of spread between runs.`,
  '',
  table(['cpu', 'cores', 'memory', 'platform', 'node', 'rust'], [[m.cpu, m.cores, `${m.memoryGiB} GiB`, m.platform, m.node, m.rustc]]),
  '',
]
for (const section of sections) {
  const started = performance.now()
  parts.push(await section.run())
  parts.push('')
  console.error(`bench: section done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
writeFileSync(join(root, 'BENCHMARKS.md'), parts.join('\n'))
console.log(parts.join('\n'))
