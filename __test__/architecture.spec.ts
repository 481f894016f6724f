import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ArchitecturalContext, countTokens } from '../dist/index.js'

let root: string
const write = (path: string, content = '') => {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), content)
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arch-'))
  write('package.json', JSON.stringify({ name: 'app', dependencies: { express: '^4.19.0' }, devDependencies: { vitest: '^4.0.0' } }))
  write('Cargo.toml', '[package]\nname = "core"\n\n[dependencies]\nserde = "1.0"\nnapi = { version = "3", features = ["async"] }\nlocal = { path = "../local" }\n\n[dev-dependencies]\nproptest = "1"\n')
  write('pyproject.toml', '[project]\nname = "tool"\ndependencies = [\n  "requests>=2.31",\n  "rich[jupyter]",\n]\n')
  write('go.mod', 'module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n\t// a comment\n)\n\nrequire golang.org/x/sync v0.7.0\n')
  write('tsconfig.json', '{}')
  write('.gitignore', '# build output\n/build/\n*.log\ncoverage\n!keep.log\nsecret-*\n')
  write('src/index.ts', '')
  write('src/user-service.ts', '')
  write('src/deep/a/b/c/d.ts', '')
  write('__test__/index.spec.ts', '')
  write('build/out.js', '')
  write('debug.log', '')
  write('keep.log', '')
  write('coverage/lcov.info', '')
  write('src/secret-token.txt', '')
  write('node_modules/x/index.js', '')
  write('target/debug/x', '')
  write('dist/index.js', '')
  write('.git/HEAD', '')
  write('docs/adr/0001-record-decisions.md', '---\ntitle: x\n---\n# 1. Record architecture decisions\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n')
  write('docs/adr/0002-use-napi.md', '# Use napi-rs for the binding\n\nThe core is Rust; Node calls it through napi-rs.\n\nMore text.\n')
  write('docs/adr/README.md', '# Index\n')
  for (let i = 0; i < 60; i++) write(`many/file-${String(i).padStart(2, '0')}.ts`, '')
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('ArchitecturalContext.fromProject', () => {
  it('reads the structure, dependencies, ADRs and conventions', async () => {
    const c = await ArchitecturalContext.fromProject(root)
    const tree = c.projectStructure
    expect(tree.split('\n')[0]).toMatch(/^arch-.*\/$/)
    for (const shown of ['src/', 'index.ts', 'user-service.ts', '__test__/', 'docs/', 'keep.log', 'package.json']) expect(tree).toContain(shown)
    const names = tree.split('\n').map((l) => l.trim())
    for (const hidden of ['node_modules/', 'target/', 'dist/', '.git/', 'build/', 'debug.log', 'coverage/', 'secret-token.txt']) expect(names).not.toContain(hidden)
    expect(names).toContain('.gitignore')
    // Depth-limited (3 levels below the root) and at most 25 entries per directory.
    expect(names).toContain('a/')
    expect(names).not.toContain('b/')
    expect(tree).toContain('… 35 more')

    expect(c.dependencies).toMatchObject({
      express: '^4.19.0',
      vitest: '^4.0.0',
      serde: '1.0',
      napi: '3',
      local: 'path:../local',
      proptest: '1',
      requests: '>=2.31',
      rich: '*',
      'github.com/pkg/errors': 'v0.9.1',
      'golang.org/x/sync': 'v0.7.0',
    })
    expect(c.relevantAdrs).toEqual([
      '1. Record architecture decisions: We need to record the architectural decisions made on this project.',
      'Use napi-rs for the binding: The core is Rust; Node calls it through napi-rs.',
    ])
    expect(c.keyPatterns).toContain('TypeScript (tsconfig.json)')
    expect(c.keyPatterns).toContain('Rust crate with a Node binding (napi-rs)')
    expect(c.keyPatterns.some((p) => p.startsWith('Tests with vitest'))).toBe(true)
    expect(c.namingConventions).toMatch(/kebab-case file names/)
    expect(c.namingConventions).toMatch(/Rust: snake_case/)
    expect(c.trackNomenclature).toBe('')
  })

  it('stays within maxTokens', async () => {
    for (let maxTokens = 50; maxTokens <= 400; maxTokens += 10) {
      const c = await ArchitecturalContext.fromProject(root, { maxTokens })
      const deps = Object.entries(c.dependencies).map(([n, v]) => `- ${n}: ${v}`)
      const all = [c.projectStructure, ...c.keyPatterns, ...c.relevantAdrs, ...deps, c.namingConventions, c.trackNomenclature].join('\n')
      expect(countTokens(all)).toBeLessThanOrEqual(maxTokens)
      expect(c.projectStructure.length).toBeGreaterThan(0)
    }
  })

  it('reports a missing root and bad options', async () => {
    await expect(ArchitecturalContext.fromProject(join(root, 'nope'))).rejects.toThrow(/cannot read the project root/)
    await expect(ArchitecturalContext.fromProject(root, { maxDepth: 0 })).rejects.toThrow(RangeError)
    await expect(ArchitecturalContext.fromProject(5 as never)).rejects.toThrow(TypeError)
  })
})
