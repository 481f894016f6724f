// The packed package.json carries no build script: `prepare` builds the addon when this
// repository is installed (`npm install`, which .ci/run relies on), but an installed
// tarball has its binaries already, and npm 11 warns about (and may refuse) lifecycle
// scripts in what it installs. `npm pack` and `npm publish` run `prepack` / `postpack`
// around the packing, which call this script; `examples/check.mjs`, which packs with
// `--ignore-scripts`, calls `strip` and `restore` itself.
//
//   node scripts/pack-manifest.mjs strip     package.json without install-time scripts (the original kept aside)
//   node scripts/pack-manifest.mjs restore   the original package.json back
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const manifest = join(root, 'package.json')
const kept = join(root, 'package.json.unpacked')

/** Lifecycle scripts npm would run when the tarball is installed. */
const INSTALL_TIME = ['preinstall', 'install', 'postinstall', 'prepare']

export function strip() {
  if (existsSync(kept)) restore() // a pack that died before restoring
  const text = readFileSync(manifest, 'utf8')
  const pkg = JSON.parse(text)
  for (const name of INSTALL_TIME) delete pkg.scripts?.[name]
  renameSync(manifest, kept)
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`)
}

export function restore() {
  if (existsSync(kept)) renameSync(kept, manifest)
}

const command = process.argv[2]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (command === 'strip') strip()
  else if (command === 'restore') restore()
  else {
    console.error('usage: node scripts/pack-manifest.mjs strip|restore')
    process.exit(2)
  }
}
