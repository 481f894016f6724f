// `npm run test:consumer`: packs this package with `npm pack`, installs the tarball
// into each consumer project (a real install, never a path link): this one, and one per
// framework adapter (examples/ai-sdk, examples/openai-agents, examples/langchain, each
// with the real framework package), type-checks each against the shipped types and runs
// its tests.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs'

import { restore, strip } from '../../scripts/pack-manifest.mjs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const consumer = dirname(fileURLToPath(import.meta.url))
const root = join(consumer, '..', '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const run = (args, cwd) => execFileSync(npm, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })

const vendor = join(consumer, 'vendor')
rmSync(vendor, { recursive: true, force: true })
mkdirSync(vendor)
// The package is already built by `npm install`/`npm run build`; do not build again.
// The packed package.json without the repository's build script (see scripts/pack-manifest.mjs).
let packed
strip()
try {
  ;[packed] = JSON.parse(run(['pack', '--ignore-scripts', '--json', '--pack-destination', vendor], root))
} finally {
  restore()
}
const files = packed.files.map((f) => f.path)
for (const required of ['index.js', 'index.d.ts', 'dist/index.js', 'dist/index.d.ts', 'dist/fleet/bullmq.js', 'dist/fleet/bullmq.d.ts']) {
  if (!files.includes(required)) throw new Error(`the packed tarball lacks ${required}`)
}
if (!files.some((f) => f.endsWith('.node'))) throw new Error('the packed tarball lacks the native addon')
renameSync(join(vendor, packed.filename), join(vendor, 'subagent-context.tgz'))

const tarball = join(vendor, 'subagent-context.tgz')
const projects = [consumer, ...['ai-sdk', 'openai-agents', 'langchain'].map((name) => join(consumer, '..', name))]
for (const project of projects) {
  if (project !== consumer) {
    rmSync(join(project, 'vendor'), { recursive: true, force: true })
    mkdirSync(join(project, 'vendor'))
    copyFileSync(tarball, join(project, 'vendor', 'subagent-context.tgz'))
  }
  rmSync(join(project, 'node_modules', 'subagent-context'), { recursive: true, force: true })
  run(['install', '--no-package-lock', '--no-audit', '--no-fund'], project)
  execFileSync(npm, ['test'], { cwd: project, stdio: 'inherit' })
}
