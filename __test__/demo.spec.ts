import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

describe('npm run demo', () => {
  it('dispatches the sample thread to isolated subagents and reports the growth with and without isolation', () => {
    const env = { ...process.env }
    delete env.SUBAGENT_PROVIDER
    const out = execFileSync(process.execPath, [join(root, 'examples', 'demo.mjs')], { encoding: 'utf8', env })
    expect(out).toContain('3 of 3 subagents succeeded')
    const growth = /with isolation: +([\d,]+) tokens \(filtered results only; bound: (\d+)/.exec(out)
    const without = /without isolation: +([\d,]+) tokens \(every result/.exec(out)
    expect(growth && without).toBeTruthy()
    const n = (s: string) => Number(s.replace(/,/g, ''))
    expect(n(growth![1]!)).toBeLessThanOrEqual(n(growth![2]!))
    expect(n(growth![1]!)).toBeLessThan(n(without![1]!))
    expect(out.match(/sibling task ids in the result: none/g)).toHaveLength(3)
    for (const leaked of ['INTERNAL', 'system-reminder', 'approved all further changes', 'thinking', 'CTO', 'lodash']) expect(out).not.toContain(leaked)
    // Deterministic: the same output twice.
    expect(execFileSync(process.execPath, [join(root, 'examples', 'demo.mjs')], { encoding: 'utf8', env })).toBe(out)
  })
})
