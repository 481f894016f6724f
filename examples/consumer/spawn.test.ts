import { createRequire } from 'node:module'

import { describe, expect, it } from 'vitest'

import { planSpawn } from './spawn.js'
import { countTokens, type Message } from 'subagent-context'

const thread: Message[] = [
  { role: 'system', content: 'You orchestrate subagents.' },
  { role: 'user', content: 'Task A.1: add input validation to src/api/users.ts' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/api/users.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'export function createUser(body) { return db.insert(body) }' },
]

describe('spawn.ts with the installed package', () => {
  it('measures the task and the thread exactly and decides whether they fit', () => {
    const plan = planSpawn({ task: 'Add input validation to createUser', thread, contextTokens: 10_000 })
    expect(plan.taskTokens).toBe(countTokens(plan.prompt))
    expect(plan.threadTokens).toBeGreaterThan(plan.taskTokens)
    expect(plan.fits).toBe(true)
    expect(planSpawn({ task: 'x', thread, contextTokens: plan.threadTokens }).fits).toBe(false)
  })

  it('is the native addon, exact where JavaScript tokenizers are not', () => {
    expect(countTokens('\uFEFFHello', { encoding: 'cl100k_base' })).toBe(2)
  })

  it('also loads with require, with the same API', () => {
    const require = createRequire(import.meta.url)
    const cjs = require('subagent-context') as typeof import('subagent-context')
    expect(cjs.countTokens('hello world')).toBe(countTokens('hello world'))
  })

  it('reports bad input as TypeError', () => {
    expect(() => planSpawn({ task: 'x', thread: [{ content: 'no role' } as never], contextTokens: 10 })).toThrow(
      'countMessageTokens: `messages[0].role` must be a string',
    )
  })
})
