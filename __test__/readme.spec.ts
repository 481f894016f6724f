import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

describe('README', () => {
  it.each(['## Usage', '## Spawning subagents'])('has an example under %s that runs and prints what its comments say', (heading) => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const usage = readme.split(heading)[1]?.match(/```js\n([\s\S]*?)```/)?.[1]
    expect(usage).toBeDefined()
    const code = usage!.replace("from 'subagent-context'", `from ${JSON.stringify(join(root, 'dist', 'index.js'))}`)
    const dir = mkdtempSync(join(tmpdir(), 'readme-'))
    try {
      writeFileSync(join(dir, 'usage.mjs'), code)
      const printed = execFileSync(process.execPath, [join(dir, 'usage.mjs')], { encoding: 'utf8' }).trim().split('\n')
      const promised = [...code.matchAll(/console\.log\(.*\) \/\/ (\d+)/g)].map((m) => m[1])
      expect(promised.length).toBeGreaterThan(3)
      expect(printed).toEqual(promised)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
