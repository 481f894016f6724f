import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

import { ArchitecturalContext, ContextIsolationManager, countTokens, ProjectPathError } from '../dist/index.js'

let base: string
let root: string

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'manager-'))
  root = join(base, 'project')
  mkdirSync(join(root, 'src', 'auth'), { recursive: true })
  mkdirSync(join(root, 'docs', 'adr'), { recursive: true })
  mkdirSync(join(base, 'outside'))
  writeFileSync(join(base, 'secret.txt'), 'TOP SECRET')
  writeFileSync(join(base, 'outside', 'key.pem'), 'PRIVATE KEY')
  writeFileSync(join(root, 'src', 'auth', 'login.ts'), 'export function login(user: string) {\n  return user\n}\n')
  writeFileSync(join(root, 'src', 'big.ts'), 'x'.repeat(5000))
  writeFileSync(join(root, 'src', 'mid.ts'), 'y'.repeat(3000))
  writeFileSync(join(root, '%2e%2e'), 'a file with an odd name')
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', dependencies: { express: '^4.19.0' } }))
  writeFileSync(join(root, 'docs', 'adr', '0001-use-express.md'), '# ADR 1: Use Express\n\n## Status\n\nAccepted\n\n## Context\n\nWe need an HTTP server that the team knows.\n')
  symlinkSync(join(base, 'secret.txt'), join(root, 'src', 'link-out.txt'))
  symlinkSync(join(base, 'outside'), join(root, 'src', 'dir-out'))
  symlinkSync(join(root, 'src', 'auth', 'login.ts'), join(root, 'src', 'link-in.ts'))
  symlinkSync(join(root, 'src', 'link-out.txt'), join(root, 'src', 'chain.txt'))
})
afterAll(() => rmSync(base, { recursive: true, force: true }))
afterEach(() => vi.useRealTimers())

const manager = (options = {}) => new ContextIsolationManager({ projectRoot: root, maxFileBytes: 4000, maxTotalBytes: 5000, ...options })

describe('ContextIsolationManager', () => {
  it('reads file contents from the root into an isolated context, with the architectural context', async () => {
    const m = manager()
    const { isolatedContext, metrics } = await m.createIsolatedContext('A.1', 'Add rate limiting to login', ['src/auth/login.ts', 'src/link-in.ts'], [
      'No new dependencies',
    ])
    expect(isolatedContext.files).toEqual({
      'src/auth/login.ts': 'export function login(user: string) {\n  return user\n}\n',
      'src/link-in.ts': 'export function login(user: string) {\n  return user\n}\n',
    })
    expect(isolatedContext.constraints).toEqual(['No new dependencies'])
    expect(isolatedContext.architecture?.dependencies).toEqual({ express: '^4.19.0' })
    expect(isolatedContext.architecture?.relevantAdrs).toEqual(['ADR 1: Use Express: We need an HTTP server that the team knows.'])
    expect(metrics.isolatedTokens).toBeGreaterThan(0)
  })

  it('builds the architectural context once and reuses it', async () => {
    const spy = vi.spyOn(ArchitecturalContext, 'fromProject')
    const m = manager()
    await m.createIsolatedContext('A.1', 'one', [])
    await m.createIsolatedContext('A.2', 'two', [])
    expect(m.architecture()).toBe(m.architecture())
    expect(spy).toHaveBeenCalledOnce()
    expect(spy).toHaveBeenCalledWith(root, undefined)
  })

  describe('refuses every path that leaves the root', () => {
    const escapes = [
      ['relative', '../secret.txt'],
      ['relative, deeper', 'src/../../secret.txt'],
      ['relative, backslashes', '..\\secret.txt'],
      ['absolute', join(base ?? '/', 'secret.txt')],
      ['absolute /etc/passwd', '/etc/passwd'],
      ['Windows drive', 'C:\\Windows\\win.ini'],
      ['UNC', '\\\\server\\share\\x'],
      ['home', '~/.ssh/id_rsa'],
      ['percent-encoded', '%2e%2e/secret.txt'],
      ['percent-encoded separator', '..%2fsecret.txt'],
      ['double-encoded', '%252e%252e%252fsecret.txt'],
      ['full-width dots', '．．/secret.txt'],
      ['NUL byte', 'src/auth/login.ts\u0000.png'],
      ['symlink to a file outside', 'src/link-out.txt'],
      ['symlink to a directory outside', 'src/dir-out/key.pem'],
      ['chain of symlinks', 'src/chain.txt'],
    ] as const
    for (const [name, path] of escapes) {
      it(name, async () => {
        const m = manager()
        const p = name.startsWith('absolute') && path.includes('secret') ? join(base, 'secret.txt') : path
        const attempt = m.createIsolatedContext('A.1', 'Read the file', [p])
        await expect(attempt).rejects.toBeInstanceOf(ProjectPathError)
        await expect(attempt).rejects.toThrow(/is refused/)
        await expect(m.addFileContent('none', p).catch((e) => e)).resolves.toBeInstanceOf(Error)
        expect(m.get('A.1')).toBeUndefined()
      })
    }

    it('also in addFileContent, with or without content', async () => {
      const m = manager()
      await m.createIsolatedContext('A.1', 'Read the file', [])
      await expect(m.addFileContent('A.1', '../secret.txt')).rejects.toBeInstanceOf(ProjectPathError)
      await expect(m.addFileContent('A.1', 'src/link-out.txt')).rejects.toBeInstanceOf(ProjectPathError)
      await expect(m.addFileContent('A.1', '/etc/passwd', 'given content')).rejects.toBeInstanceOf(ProjectPathError)
      expect(JSON.stringify(m.get('A.1'))).not.toContain('SECRET')
    })
  })

  it('caps each file and the total', async () => {
    const m = manager()
    await expect(m.createIsolatedContext('A.1', 'Read', ['src/big.ts'])).rejects.toThrow(/over `maxFileBytes` \(4000\)/)
    await expect(m.createIsolatedContext('A.1', 'Read', ['src/mid.ts', 'src/mid.ts'])).rejects.toThrow(/`maxTotalBytes` \(5000\)/)
    await expect(m.createIsolatedContext('A.1', 'Read', ['src/missing.ts'])).rejects.toThrow(/cannot be read/)
    await expect(m.createIsolatedContext('A.1', 'Read', ['src'])).rejects.toThrow(/not a regular file/)
  })

  it('caches with completion, expiry and a size bound', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const m = manager({ ttlMs: 1000, maxEntries: 2 })
    await m.createIsolatedContext('A.1', 'one', [])
    expect(m.get('A.1')?.isolatedContext.task).toBe('one')
    expect(m.complete('A.1')).toBe(true)
    expect(m.get('A.1')).toBeUndefined()
    expect(m.complete('A.1')).toBe(false)

    await m.createIsolatedContext('A.2', 'two', [])
    vi.advanceTimersByTime(1001)
    expect(m.get('A.2')).toBeUndefined()

    await m.createIsolatedContext('B.1', 'b1', [])
    await m.createIsolatedContext('B.2', 'b2', [])
    m.get('B.1') // B.1 is now the most recently used
    await m.createIsolatedContext('B.3', 'b3', [])
    expect(m.size).toBe(2)
    expect(m.has('B.1')).toBe(true)
    expect(m.has('B.2')).toBe(false)
    expect(m.has('B.3')).toBe(true)
  })

  it('adds clarifications and file contents to a cached context', async () => {
    const m = manager()
    await m.createIsolatedContext('A.1', 'Add rate limiting to login', ['src/auth/login.ts'])
    m.addClarification('A.1', 'Limit to 5 attempts per minute. [INTERNAL] the CTO asked')
    await m.addFileContent('A.1', 'src/limits.ts', 'export const LIMIT = 5\n')
    await m.addFileContent('A.1', '%2e%2e'.replace('%2e%2e', 'src/link-in.ts'))
    const c = m.get('A.1')!.isolatedContext
    expect(c.clarifications).toEqual(['Limit to 5 attempts per minute. '])
    expect(Object.keys(c.files).sort()).toEqual(['src/auth/login.ts', 'src/limits.ts', 'src/link-in.ts'])
    expect(() => m.addClarification('nope', 'x')).toThrow(/no context for task "nope"/)
  })

  it('dispatches the ready Task tool call, correctly escaped', async () => {
    const m = manager({ defaultAgentType: 'coder' })
    writeFileSync(join(root, 'src', 'quotes.ts'), 'const s = "a `b` \\"c\\"\\n"\n```\nfence\n```\n')
    const id = 'A.1 "quoted" `id`'
    await m.createIsolatedContext(id, 'Fix the "quotes" in `src/quotes.ts`', ['src/quotes.ts'])
    const call = m.dispatch(id)
    expect(call.subagent_type).toBe('coder')
    expect(call.description).toBe('A.1 "quoted" `id`: Execute isolated task')
    expect(call.prompt).toContain('Fix the "quotes" in `src/quotes.ts`')
    expect(call.prompt).toContain('const s = "a `b` \\"c\\"\\n"')
    expect(JSON.parse(JSON.stringify(call))).toEqual(call)
    expect(m.dispatch(id, 'reviewer').subagent_type).toBe('reviewer')
    await expect(m.createIsolatedContext('A\n2', 'x', [])).rejects.toThrow(/single line/)
    expect(() => m.dispatch(id, 'a\nb')).toThrow(RangeError)
    expect(countTokens(call.prompt)).toBeGreaterThan(10)
  })
})
