import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterEach, describe, expect, it } from 'vitest'

import {
  BackpackFullError,
  COMPLETION_SUMMARY_PROMPT,
  countTokens,
  FileLedgerStore,
  LedgerCorruptError,
  MemoryLedgerStore,
  parseCompletionSummary,
  rankByRelevance,
  rankByRelevanceAsync,
  RelevanceIndex,
  SubtaskLedger,
  type CompletionInput,
} from '../dist/index.js'

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const users: CompletionInput = {
  subtaskId: 'A.1',
  description: 'Validate emails in POST /users (src/api/users.ts)',
  summary: 'Added zod validation to createUser; emails are lower-cased before insert.',
  findings: ['The users table has a unique index on email'],
  decisions: ['Use zod, already a dependency'],
  resources: ['src/api/users.ts'],
}
const limiter: CompletionInput = {
  subtaskId: 'A.2',
  description: 'Fix the memory leak in the rate limiter',
  summary: 'The hits Map in src/middleware/rate-limit.ts never evicted idle clients; replaced it with an LRU of 10k entries.',
  resources: ['src/middleware/rate-limit.ts'],
}
const readme: CompletionInput = {
  subtaskId: 'A.3',
  description: 'Update README.md for the v2 routes',
  summary: 'Documented the v2 routes and their pagination parameters in README.md.',
}

async function ledgerWith(...completions: CompletionInput[]): Promise<SubtaskLedger> {
  const ledger = new SubtaskLedger()
  for (const c of completions) await ledger.recordCompletion(c)
  return ledger
}

describe('rankByRelevance and RelevanceIndex', () => {
  it('scores documents 0..1 against a query, 0 when nothing is shared', async () => {
    const docs = ['emails are validated in createUser', 'the rate limiter leaks memory', 'weather report']
    const scores = rankByRelevance('validate user emails', docs)
    expect(scores).toHaveLength(3)
    expect(scores[0]).toBeGreaterThan(0)
    expect(scores[2]).toBe(0)
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true)
    expect(await rankByRelevanceAsync('validate user emails', docs)).toEqual(scores)
    expect(rankByRelevance('validate user emails', docs)).toEqual(scores)
  })

  it('indexes incrementally, searches among chosen ids, forgets removed documents', () => {
    const index = new RelevanceIndex()
    expect(index.add('emails validated in createUser')).toBe(0)
    expect(index.add('rate limiter leak fixed')).toBe(1)
    expect(index.add('more about the rate limiter')).toBe(2)
    expect(index.size).toBe(3)
    expect(index.search('rate limiter').map((h) => h.id).sort()).toEqual([1, 2])
    expect(index.search('rate limiter', { among: [0, 2] }).map((h) => h.id)).toEqual([2])
    expect(index.search('rate limiter', { max: 1 })).toHaveLength(1)
    expect(index.remove(1)).toBe(true)
    expect(index.remove(1)).toBe(false)
    expect(index.search('rate limiter').map((h) => h.id)).toEqual([2])
  })

  it('refuses bad arguments with errors naming the parameter', async () => {
    expect(() => rankByRelevance(1 as never, [])).toThrow(TypeError)
    expect(() => rankByRelevance('q', ['a', 2 as never])).toThrow(/`documents\[1\]` must be a string/)
    await expect(rankByRelevanceAsync('q', 'a' as never)).rejects.toThrow(/`documents` must be an array of strings/)
    const index = new RelevanceIndex()
    expect(() => index.search('q', { minScore: 2 })).toThrow(RangeError)
    expect(() => index.search('q', { among: [-1] })).toThrow(/options\.among\[0\]/)
    expect(() => index.remove(1.5)).toThrow(RangeError)
  })
})

describe('completion summaries', () => {
  it('loads the summaries that bear on the task, with their scores, best first', async () => {
    const ledger = await ledgerWith(users, limiter, readme)
    const found = ledger.relevantSummaries('Add an endpoint to change a user email in src/api/users.ts')
    expect(found.map((s) => s.subtaskId)).toEqual(['A.1'])
    expect(found[0]!.score).toBeGreaterThan(0)
    expect(found[0]!.fallback).toBe(false)
    expect(found[0]!.findings).toEqual(users.findings)
  })

  it('falls back to the last two, most recent first, when none matches', async () => {
    const ledger = await ledgerWith(users, limiter, readme)
    const found = ledger.relevantSummaries('Order pizza for the team offsite')
    expect(found.map((s) => [s.subtaskId, s.fallback])).toEqual([
      ['A.3', true],
      ['A.2', true],
    ])
  })

  it('looks only at the last `window` subtasks and returns at most `max`', async () => {
    const ledger = await ledgerWith(users, limiter, readme)
    expect(ledger.relevantSummaries('validate user emails', { window: 2 }).every((s) => s.fallback)).toBe(true)
    for (let i = 0; i < 5; i++) {
      await ledger.recordCompletion({ subtaskId: `B.${i}`, description: `rate limiter tuning ${i}`, summary: `Tuned the rate limiter window, step ${i}.` })
    }
    expect(ledger.relevantSummaries('rate limiter').length).toBe(3)
    expect(ledger.relevantSummaries('rate limiter', { max: 1 })).toHaveLength(1)
    expect(ledger.relevantSummaries('rate limiter', { max: 0 })).toEqual([])
  })

  it('judges a summary by what its subtask left, not by the words of the task it was given', async () => {
    // The survey's task text is worded like the new task; the index step's results are what it builds on.
    const ledger = await ledgerWith(
      {
        subtaskId: 'S.1',
        description: 'Audit the slow search queries on the orders page',
        summary: 'Three queries scan the whole table; the worst filters by customer and date.',
      },
      {
        subtaskId: 'S.2',
        description: 'Speed up the worst one',
        summary: 'Added a composite index on orders (customer_id, created_at); the orders page search now takes 40 ms.',
      },
    )
    const found = ledger.relevantSummaries('Check the orders page search after the composite index')
    expect(found[0]!.subtaskId).toBe('S.2')
    // The task text alone matches nothing: only the fallback comes back.
    expect(ledger.relevantSummaries('Audit slow').every((s) => s.fallback)).toBe(true)
  })

  it('replaces a subtask recorded again, which then counts as the most recent', async () => {
    const ledger = await ledgerWith(users, limiter)
    await ledger.recordCompletion({ ...users, summary: 'Second attempt: validation moved to a middleware.' })
    expect(ledger.completions().map((c) => c.subtaskId)).toEqual(['A.2', 'A.1'])
    expect(ledger.relevantSummaries('validation middleware')[0]!.summary).toMatch(/Second attempt/)
  })

  it('never mutates its input and returns frozen records', async () => {
    const input = Object.freeze({ ...users, findings: Object.freeze([...users.findings!]) })
    const ledger = new SubtaskLedger()
    const stored = await ledger.recordCompletion(input)
    expect(input).toEqual({ ...users })
    expect(Object.isFrozen(stored)).toBe(true)
    expect(Object.isFrozen(stored.findings)).toBe(true)
  })

  it('rejects bad input with errors naming the parameter', async () => {
    const ledger = new SubtaskLedger()
    await expect(ledger.recordCompletion({ ...users, summary: 3 as never })).rejects.toThrow(
      /recordCompletion: `completion\.summary` must be a non-empty string, got the number 3/,
    )
    await expect(ledger.recordCompletion({ ...users, findings: ['a', 1 as never] })).rejects.toThrow(TypeError)
    await expect(ledger.recordCompletion({ ...users, subtaskId: ' ' })).rejects.toThrow(RangeError)
    expect(() => ledger.relevantSummaries('x', { window: -1 })).toThrow(RangeError)
    expect(() => ledger.relevantSummaries(null as never)).toThrow(/`description` must be a string/)
    expect(ledger.completions()).toEqual([])
  })

  it('exports the request for a completion summary, and reads the answer', () => {
    expect(COMPLETION_SUMMARY_PROMPT).toMatch(/Findings/)
    expect(COMPLETION_SUMMARY_PROMPT).toMatch(/Decisions/)
    expect(COMPLETION_SUMMARY_PROMPT).toMatch(/Resources/)
    const parsed = parseCompletionSummary(
      '**Summary:** Added zod validation.\n\n**Findings:**\n- unique index on email\n- emails were mixed case\nDecisions:\n1. use zod\nResources:\n- src/api/users.ts',
    )
    expect(parsed).toEqual({
      summary: 'Added zod validation.',
      findings: ['unique index on email', 'emails were mixed case'],
      decisions: ['use zod'],
      resources: ['src/api/users.ts'],
    })
    expect(parseCompletionSummary('Just did it.').summary).toBe('Just did it.')
  })
})

describe('artifacts', () => {
  it('records typed artifacts and selects them by relevance, weighed by their own relevance', async () => {
    const ledger = new SubtaskLedger()
    const a = await ledger.recordArtifact({ type: 'DECISION', content: 'Emails are stored lower-cased.', relevance: 0.9, subtaskId: 'A.1' })
    await ledger.recordArtifact({ type: 'ERROR', content: 'Emails with plus signs were rejected by the old regex.', relevance: 0.2, subtaskId: 'A.1' })
    await ledger.recordArtifact({ type: 'TODO', content: 'Rotate the staging database password.', relevance: 0.5, subtaskId: 'A.4' })
    expect(a.id).toBe('artifact-1')
    const found = ledger.relevantArtifacts('change a user email address')
    expect(found.map((f) => f.type)).toEqual(['DECISION', 'ERROR'])
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score)
    expect(ledger.relevantArtifacts('change a user email address', { types: ['ERROR'] }).map((f) => f.type)).toEqual(['ERROR'])
    expect(ledger.relevantArtifacts('change a user email address', { max: 1 })).toHaveLength(1)
    expect(ledger.relevantArtifacts('bake sourdough bread')).toEqual([])
  })

  it('refuses unknown types and relevance outside 0..1', async () => {
    const ledger = new SubtaskLedger()
    await expect(ledger.recordArtifact({ type: 'NOTE' as never, content: 'x', relevance: 0.5, subtaskId: 'A' })).rejects.toThrow(
      /`artifact\.type` must be one of 'FINDING', 'DECISION', 'RESOURCE', 'ERROR', 'TODO', got 'NOTE'/,
    )
    await expect(ledger.recordArtifact({ type: 'TODO', content: 'x', relevance: 2, subtaskId: 'A' })).rejects.toThrow(RangeError)
    await expect(ledger.recordArtifact({ type: 'TODO', content: 'x', subtaskId: 'A' } as never)).rejects.toThrow(/artifact\.relevance/)
    expect(ledger.artifacts()).toEqual([])
  })
})

describe('notes', () => {
  it('keeps markdown sections, updated in place and removed', async () => {
    const ledger = new SubtaskLedger()
    await ledger.updateNotes('Conventions', 'Use pnpm.\n\n### Tests\n\nvitest, never jest.')
    await ledger.updateNotes('Environment', 'Staging is at https://staging.example.com')
    await ledger.updateNotes('Conventions', 'Use pnpm. Tests with vitest.')
    expect(ledger.notes()).toBe(
      '# Notes\n\n## Conventions\n\nUse pnpm. Tests with vitest.\n\n## Environment\n\nStaging is at https://staging.example.com\n',
    )
    expect(await ledger.removeNote('Conventions')).toBe(true)
    expect(await ledger.removeNote('Conventions')).toBe(false)
    expect(ledger.noteSections()).toEqual([{ section: 'Environment', content: 'Staging is at https://staging.example.com' }])
  })

  it('refuses notes past their cap, saying how much is free, and headings that would split sections', async () => {
    const ledger = new SubtaskLedger({ notesTokens: 50 })
    await ledger.updateNotes('Short', 'A short note.')
    await expect(ledger.updateNotes('Long', 'word '.repeat(100))).rejects.toThrow(/over their cap of 50 \(\d+ are free/)
    await expect(ledger.updateNotes('Bad', 'text\n## Another')).rejects.toThrow(/must not contain `## ` headings/)
    expect(ledger.noteSections().map((s) => s.section)).toEqual(['Short'])
  })
})

describe('backpack', () => {
  it('holds items within its token cap and refuses additions past it, saying how much is free', async () => {
    const ledger = new SubtaskLedger()
    expect(ledger.backpack.capacity).toBe(500)
    const item = await ledger.backpack.add('The API base URL is https://api.example.com/v2')
    expect(item.tokens).toBe(countTokens(item.content))
    expect(ledger.backpack.free).toBe(500 - item.tokens)
    const big = 'token '.repeat(495)
    const error = await ledger.backpack.add(big).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackpackFullError)
    expect(error).toBeInstanceOf(RangeError)
    expect((error as BackpackFullError).free).toBe(500 - item.tokens)
    expect((error as Error).message).toMatch(new RegExp(`only ${500 - item.tokens} of the backpack's 500 are free`))
    expect(ledger.backpack.items()).toEqual([item])
    await ledger.backpack.add('Second item', { id: 'two' })
    expect(await ledger.backpack.remove('two')).toBe(true)
    expect(await ledger.backpack.remove('two')).toBe(false)
    await ledger.backpack.clear()
    expect(ledger.backpack.items()).toEqual([])
    expect(ledger.backpack.used).toBe(0)
  })

  it('has the cap it is given', async () => {
    const ledger = new SubtaskLedger({ backpackTokens: 10 })
    await expect(ledger.backpack.add('one two three four five six seven eight nine ten eleven')).rejects.toThrow(/only 10 of the backpack's 10/)
    expect(() => new SubtaskLedger({ backpackTokens: -1 })).toThrow(RangeError)
  })
})

describe('contextFor', () => {
  async function full(): Promise<SubtaskLedger> {
    const ledger = await ledgerWith(users, limiter, readme)
    await ledger.recordArtifact({ type: 'DECISION', content: 'Emails are stored lower-cased.', relevance: 0.9, subtaskId: 'A.1' })
    await ledger.recordArtifact({ type: 'TODO', content: 'Tune the LRU size of the rate limiter.', relevance: 0.5, subtaskId: 'A.2' })
    await ledger.updateNotes('Conventions', 'Use pnpm. Tests with vitest.')
    await ledger.updateNotes('Email rules', 'Emails are compared case-insensitively everywhere.')
    await ledger.backpack.add('Staging: https://staging.example.com')
    return ledger
  }
  const task = 'Let a user change their email'

  it('renders notes, relevant summaries, relevant artifacts and the backpack, nothing unrelated', async () => {
    const ledger = await full()
    const c = ledger.contextFor(task)
    expect(c.summaries).toEqual(['A.1'])
    expect(c.artifacts).toEqual(['artifact-1'])
    expect(c.backpack).toEqual(['item-1'])
    // The note that bears on the task first; the general one after it, as room allows.
    expect(c.notes).toEqual(['Email rules', 'Conventions'])
    expect(c.text).toMatch(/^### Notes\n/)
    expect(c.text).toContain('#### A.1: Validate emails')
    expect(c.text).toContain('- DECISION (A.1): Emails are stored lower-cased.')
    expect(c.text).toContain('### Backpack\n\n- Staging: https://staging.example.com')
    expect(c.text).not.toContain('rate limiter')
    expect(c.text).not.toContain('README')
    expect(c.tokens).toBe(countTokens(c.text))
    expect(c.text.indexOf('### Notes')).toBeLessThan(c.text.indexOf('### Earlier subtasks'))
    expect(c.text.indexOf('### Earlier subtasks')).toBeLessThan(c.text.indexOf('### Artifacts'))
    expect(c.text.indexOf('### Artifacts')).toBeLessThan(c.text.indexOf('### Backpack'))
  })

  it('never exceeds maxTokens, and keeps the most relevant when the budget is tight', async () => {
    const ledger = await full()
    const whole = ledger.contextFor(task)
    for (let max = 0; max <= whole.tokens + 5; max++) {
      const c = ledger.contextFor(task, { maxTokens: max })
      expect(countTokens(c.text)).toBeLessThanOrEqual(max)
      expect(c.tokens).toBe(c.text === '' ? 0 : countTokens(c.text))
    }
    const tight = ledger.contextFor(task, { maxTokens: Math.floor(whole.tokens / 2) })
    expect(tight.omitted).toBeGreaterThan(0)
    expect(tight.backpack).toEqual(['item-1'])
    expect(tight.notes[0]).toBe('Email rules')
  })

  it('is empty for an empty ledger and checks its arguments', () => {
    const ledger = new SubtaskLedger()
    expect(ledger.contextFor('anything')).toMatchObject({ text: '', tokens: 0, omitted: 0 })
    expect(() => ledger.contextFor('x', { maxTokens: 1.5 })).toThrow(/`options\.maxTokens` must be a whole number/)
    expect(() => ledger.contextFor(undefined as never)).toThrow(TypeError)
  })
})

describe('FileLedgerStore', () => {
  it('writes ledger.json and NOTES.md, and a reopened ledger has everything', async () => {
    const dir = join(tempDir(), 'ledger')
    const ledger = await SubtaskLedger.open(new FileLedgerStore(dir))
    await ledger.recordCompletion(users)
    await ledger.recordArtifact({ type: 'FINDING', content: 'Unique index on users.email', relevance: 0.7, subtaskId: 'A.1' })
    await ledger.updateNotes('Conventions', 'Use pnpm.')
    await ledger.backpack.add('Staging: https://staging.example.com')
    expect(readFileSync(join(dir, 'NOTES.md'), 'utf8')).toBe('# Notes\n\n## Conventions\n\nUse pnpm.\n')
    expect(JSON.parse(readFileSync(join(dir, 'ledger.json'), 'utf8')).completions[0].subtaskId).toBe('A.1')

    const again = await SubtaskLedger.open(new FileLedgerStore(dir))
    expect(again.completions()).toEqual(ledger.completions())
    expect(again.artifacts()).toEqual(ledger.artifacts())
    expect(again.backpack.items()).toEqual(ledger.backpack.items())
    expect(again.notes()).toBe(ledger.notes())
    expect((await again.recordArtifact({ type: 'TODO', content: 'x', relevance: 0, subtaskId: 'A.2' })).id).toBe('artifact-2')
  })

  it('reads back a NOTES.md edited by hand, at open and while open, and keeps the edit', async () => {
    const dir = tempDir()
    const ledger = await SubtaskLedger.open(new FileLedgerStore(dir))
    await ledger.updateNotes('Conventions', 'Use pnpm.')
    writeFileSync(join(dir, 'NOTES.md'), '# Notes\n\nRead me first.\n\n## Conventions\n\nUse pnpm, never npm.\n\n## Added by hand\n\nDeploys on Fridays are frozen.\n')
    expect(ledger.noteSections().map((s) => s.section)).toEqual(['', 'Conventions', 'Added by hand'])
    await ledger.recordCompletion(users)
    expect(readFileSync(join(dir, 'NOTES.md'), 'utf8')).toContain('never npm')
    await ledger.updateNotes('Environment', 'Staging only.')
    const text = readFileSync(join(dir, 'NOTES.md'), 'utf8')
    expect(text).toContain('Deploys on Fridays are frozen.')
    expect(text).toContain('## Environment')
    expect(ledger.contextFor('Plan the Friday deploy').text).toContain('Deploys on Fridays are frozen.')
    const reopened = await SubtaskLedger.open(new FileLedgerStore(dir))
    expect(reopened.noteSections().map((s) => s.section)).toEqual(['', 'Conventions', 'Added by hand', 'Environment'])
  })

  it('reports a damaged ledger.json by name and never overwrites it', async () => {
    const dir = tempDir()
    const path = join(dir, 'ledger.json')
    writeFileSync(path, '{"format": "subagent-context/ledger", "version": 1, "completions": [')
    const error = await SubtaskLedger.open(new FileLedgerStore(dir)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LedgerCorruptError)
    expect((error as LedgerCorruptError).path).toBe(path)
    expect((error as Error).message).toContain(path)

    // A new ledger on the same store does not overwrite it either.
    const ledger = new SubtaskLedger({ store: new FileLedgerStore(dir) })
    await expect(ledger.recordCompletion(users)).rejects.toBeInstanceOf(LedgerCorruptError)
    await expect(ledger.backpack.add('x')).rejects.toBeInstanceOf(LedgerCorruptError)
    expect(readFileSync(path, 'utf8')).toBe('{"format": "subagent-context/ledger", "version": 1, "completions": [')

    writeFileSync(path, JSON.stringify({ format: 'subagent-context/ledger', version: 1, nextArtifact: 1, completions: [{ subtaskId: 'x' }], artifacts: [], backpack: [] }))
    await expect(SubtaskLedger.open(new FileLedgerStore(dir))).rejects.toThrow(/completions\[0\]: "description" is not a string/)
  })

  it('does not let a new ledger overwrite one already saved in the store', async () => {
    const dir = tempDir()
    await (await SubtaskLedger.open(new FileLedgerStore(dir))).recordCompletion(users)
    const fresh = new SubtaskLedger({ store: new FileLedgerStore(dir) })
    await expect(fresh.recordCompletion(limiter)).rejects.toThrow(/already holds a ledger/)
    const reopened = await SubtaskLedger.open(new FileLedgerStore(dir))
    expect(reopened.completions().map((c) => c.subtaskId)).toEqual(['A.1'])
  })

  it('serializes concurrent writers: every change made at once is saved', async () => {
    const dir = tempDir()
    const ledger = await SubtaskLedger.open(new FileLedgerStore(dir))
    await Promise.all([
      ...Array.from({ length: 60 }, (_, i) => ledger.recordCompletion({ subtaskId: `T.${i}`, description: `task ${i}`, summary: `done ${i}` })),
      ...Array.from({ length: 20 }, (_, i) => ledger.recordArtifact({ type: 'FINDING', content: `fact ${i}`, relevance: 0.5, subtaskId: `T.${i}` })),
      ...Array.from({ length: 5 }, (_, i) => ledger.updateNotes(`Section ${i}`, `note ${i}`)),
    ])
    const reopened = await SubtaskLedger.open(new FileLedgerStore(dir))
    expect(reopened.completions()).toHaveLength(60)
    expect(reopened.artifacts()).toHaveLength(20)
    expect(reopened.noteSections()).toHaveLength(5)
  })

  it('checks its directory argument', () => {
    expect(() => new FileLedgerStore('')).toThrow(TypeError)
    expect(() => new FileLedgerStore(3 as never)).toThrow(/`dir` must be a non-empty string, got the number 3/)
  })
})

describe('MemoryLedgerStore', () => {
  it('keeps a copy of what was saved, for another ledger to open', async () => {
    const store = new MemoryLedgerStore()
    const ledger = await SubtaskLedger.open(store)
    await ledger.recordCompletion(users)
    await ledger.updateNotes('Conventions', 'Use pnpm.')
    const again = await SubtaskLedger.open(store)
    expect(again.completions()).toEqual(ledger.completions())
    expect(again.notes()).toBe(ledger.notes())
  })
})

describe('README', () => {
  it('has a Ledger example that runs and prints what its comments say', () => {
    const root = join(import.meta.dirname, '..')
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const example = readme.split('## Ledger')[1]?.match(/```js\n([\s\S]*?)```/)?.[1]
    expect(example).toBeDefined()
    const code = example!.replace("from 'subagent-context'", `from ${JSON.stringify(join(root, 'dist', 'index.js'))}`)
    const dir = tempDir()
    writeFileSync(join(dir, 'ledger.mjs'), code)
    const printed = execFileSync(process.execPath, [join(dir, 'ledger.mjs')], { encoding: 'utf8' }).trim().split('\n')
    const promised = [...code.matchAll(/console\.log\(.*\) \/\/ (.+)$/gm)].map((m) => m[1])
    expect(promised.length).toBeGreaterThan(3)
    expect(printed).toEqual(promised)
  })
})
