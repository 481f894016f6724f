// `npm run bench`: runs every benchmark on ../shared/data and writes BENCHMARKS.md.
// Benchmarks report numbers; the tests check behaviour. Each section runs in a process of
// its own, as an agent's process would run the package: no section's figures carry the heap
// (and the garbage collections) of the data the sections before it loaded.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

import { machine, root, table } from './lib.mjs'

const sections = ['tokens', 'extract', 'forms', 'isolate', 'filter', 'ledger', 'spawn', 'prompt-cache', 'load', 'fleet']

/** A section's markdown, from a fresh `node --expose-gc` running its `run()`. */
function runAlone(name) {
  const url = pathToFileURL(join(root, 'bench', `${name}.mjs`)).href
  const script = `const { run } = await import(${JSON.stringify(url)}); process.stdout.write(await run())`
  return execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
}

const m = machine()
const parts = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Every peer is measured in the same run, on the same input, with the same settings. Each section runs in a fresh Node process. Speeds are medians; the machine is shared and noisy, so expect a few percent of spread between runs.`,
  '',
  table(['cpu', 'cores', 'memory', 'platform', 'node', 'rust'], [[m.cpu, m.cores, `${m.memoryGiB} GiB`, m.platform, m.node, m.rustc]]),
  '',
]
for (const name of sections) {
  const started = performance.now()
  parts.push(runAlone(name))
  parts.push('')
  console.error(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
writeFileSync(join(root, 'BENCHMARKS.md'), parts.join('\n'))
console.log(parts.join('\n'))
