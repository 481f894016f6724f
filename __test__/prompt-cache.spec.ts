import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'

import {
  aiSdkPromptWithCacheHints,
  anthropicPromptBlocks,
  commonPromptPrefix,
  countTokens,
  createIsolatedContext,
  executeParallelIsolated,
  MIN_CACHEABLE_TOKENS,
  renderPrompt,
  renderPromptParts,
  spawnParallel,
  spawnSubagent,
  type ArchitecturalContext,
  type SpawnEvent,
  type SubagentConfig,
  type SubagentRunInput,
} from '../dist/index.js'

// Shared material every sibling gets: a real source file of this package, its
// architecture, instructions and constraints.
const sharedPath = 'ts/parallel.ts'
const sharedFile = readFileSync(join(import.meta.dirname, '..', sharedPath), 'utf8')
const architecture: ArchitecturalContext = {
  projectStructure: 'src/\n  core/     pure Rust: tokens, extract, isolate, filter, prompt\n  binding/  napi layer\nts/        orchestration: spawn, parallel, contract, manager\n__test__/  vitest specs',
  keyPatterns: ['One implementation, two doors: a sync call and an async one on the libuv pool', 'Bad input gets a TypeError or RangeError naming the function and the parameter'],
  relevantAdrs: ['ADR-078: every subagent gets a fresh, isolated, task-relevant context'],
  dependencies: { vitest: '^4.0.0', typescript: '^5.6.0', '@napi-rs/cli': '^3.0.0' },
  namingConventions: 'Files are named by what they hold; kebab-case in ts/, snake_case in src/.',
  trackNomenclature: 'P.<n>',
}
const instructions = 'Work in the repository as it is. Run only the tests you touch, then the whole suite once. Report what you changed with file:line citations.'
const constraints = ['No new dependencies', 'Keep every public signature unchanged', 'No source file above 800 lines']

const tasks = Array.from({ length: 10 }, (_, n) => ({
  taskId: `P.${n + 1}`,
  task: `P.${n + 1}: add a ${['retry', 'timeout', 'trace', 'budget', 'cancel', 'metric', 'label', 'guard', 'limit', 'audit'][n]} hook named hook${n + 1}Zq to ts/hooks/h${n + 1}.ts`,
}))
const own = (n: number) => ({ [`ts/hooks/h${n + 1}.ts`]: `export const hook${n + 1}Zq = () => 'own file of P.${n + 1}'\n` })

const configs: SubagentConfig[] = tasks.map(({ taskId, task }, n) => ({
  taskId,
  task,
  context: { instructions },
  constraints,
  architecture,
  files: { ...own(n), [sharedPath]: sharedFile },
}))

const thread = [
  { role: 'user', content: `Plan:\n${tasks.map((t) => `- ${t.task}`).join('\n')}` },
  ...tasks.map((t, n) => ({ role: 'assistant', content: `Notes on ${t.taskId}: hook${n + 1}Zq must be exported from ts/hooks/h${n + 1}.ts and called once.` })),
]

const sharedMaterialTokens = countTokens(
  [
    architecture.projectStructure,
    ...architecture.keyPatterns,
    ...architecture.relevantAdrs,
    ...Object.entries(architecture.dependencies).map(([k, v]) => `${k}: ${v}`),
    architecture.namingConventions,
    architecture.trackNomenclature,
    instructions,
    ...constraints,
    sharedFile,
  ].join('\n'),
)

async function batch(order?: 'cache' | 'adr') {
  const inputs: SubagentRunInput[] = []
  const events: SpawnEvent[] = []
  const result = await spawnParallel(configs, {
    run: (input) => {
      inputs.push(input)
      return `${input.taskId} done: hook added.`
    },
    fullThreadContext: thread,
    concurrency: 10,
    onEvent: (e) => events.push(e),
    ...(order && { prompt: { order } }),
  })
  const byId = new Map(inputs.map((i) => [i.taskId, i]))
  return { ...result, events, inputs: tasks.map((t) => byId.get(t.taskId)!) }
}

describe('ten siblings spawned by spawnParallel share a cacheable prompt prefix (issue 20 bar)', () => {
  it('their common prefix holds ≥ 80 % of the shared material and ≥ 1,024 tokens; no prompt holds a sibling’s task text', async () => {
    expect(sharedMaterialTokens).toBeGreaterThan(MIN_CACHEABLE_TOKENS)
    const { outcomes, inputs } = await batch()
    expect(outcomes.every((o) => o.success)).toBe(true)
    const prompts = inputs.map((i) => i.prompt)
    const prefixTokens = countTokens(commonPromptPrefix(prompts))
    expect(prefixTokens).toBeGreaterThanOrEqual(MIN_CACHEABLE_TOKENS)
    expect(prefixTokens).toBeGreaterThanOrEqual(0.8 * sharedMaterialTokens)
    prompts.forEach((prompt, n) => {
      expect(prompt).toContain(tasks[n]!.task)
      expect(prompt).toContain(`hook${n + 1}Zq`)
      tasks.forEach((other, m) => {
        if (m === n) return
        expect(prompt).not.toContain(other.task)
        expect(prompt).not.toContain(`hook${m + 1}Zq`)
        expect(prompt).not.toMatch(new RegExp(`\\b${other.taskId.replace('.', '\\.')}\\b`))
      })
    })
  })

  it('reports sharedPrefixTokens per spawn, in the outcome and the event, and the batch’s cacheable share', async () => {
    const { outcomes, events, metrics, inputs } = await batch()
    const shared = renderPromptParts(inputs[0]!.context, { shared: { files: [sharedPath], constraints } }).shared
    const sharedTokens = countTokens(shared)
    for (const [n, o] of outcomes.entries()) {
      expect(o.metrics.sharedPrefixTokens).toBe(sharedTokens)
      expect(inputs[n]!.prompt.startsWith(inputs[n]!.cache.sharedPrefix)).toBe(true)
      expect(inputs[n]!.cache.sharedPrefix).toBe(shared)
    }
    expect(events.map((e) => e.sharedPrefixTokens)).toEqual(Array(10).fill(sharedTokens))
    expect(metrics.sharedPrefixTokens).toBe(sharedTokens)
    expect(metrics.cacheableTokens).toBe(9 * sharedTokens)
    expect(metrics.cacheableShare).toBeCloseTo((9 * sharedTokens) / metrics.promptTokens, 12)
    expect(metrics.cacheableShare).toBeGreaterThan(0.5)
  })

  it('renders each prompt as renderPrompt does with the batch’s shared material, the shared part once', async () => {
    const { inputs } = await batch()
    for (const input of inputs) {
      expect(input.prompt).toBe(renderPrompt(input.context, { shared: { files: [sharedPath], constraints } }))
      expect(input.prompt.indexOf('## Your Task')).toBeGreaterThan(input.prompt.indexOf(`### ${sharedPath}`))
      expect(input.prompt).toContain('## Your Files')
    }
  })

  it("shares next to nothing in the ADR order (`prompt: { order: 'adr' }`), as before", async () => {
    const { inputs, metrics, outcomes } = await batch('adr')
    const prompts = inputs.map((i) => i.prompt)
    expect(prompts.every((p) => p.startsWith('## Your Task\n\n**Task ID:** P.'))).toBe(true)
    expect(countTokens(commonPromptPrefix(prompts))).toBeLessThan(20)
    expect(outcomes.every((o) => o.metrics.sharedPrefixTokens === 0)).toBe(true)
    expect(metrics.cacheableShare).toBe(0)
    for (const input of inputs) expect(input.prompt).toBe(renderPrompt(input.context, { order: 'adr' }))
  })
})

describe('a batch whose siblings differ in what they get', () => {
  it('shares what all of them get; the rest is each one’s own, after its task', async () => {
    const mixed = configs.map((c, n) => (n === 3 ? { ...c, files: own(n), constraints: [...constraints, 'Only P.4 may touch the index'] } : c))
    const inputs: SubagentRunInput[] = []
    const { outcomes } = await spawnParallel(mixed, { run: (i) => (inputs.push(i), 'done'), concurrency: 3 })
    expect(outcomes.every((o) => o.success)).toBe(true)
    const prompts = inputs.map((i) => i.prompt)
    const prefix = commonPromptPrefix(prompts)
    expect(prefix).toContain('No new dependencies')
    expect(prefix).not.toContain(sharedFile.slice(0, 200))
    const four = inputs.find((i) => i.taskId === 'P.4')!
    expect(four.prompt.indexOf('Only P.4 may touch the index')).toBeGreaterThan(four.prompt.indexOf('## Your Task'))
    for (const input of inputs) {
      if (input.taskId !== 'P.4') expect(input.prompt.indexOf(`### ${sharedPath}`)).toBeGreaterThan(input.prompt.indexOf('## Your Task'))
      expect(input.prompt.startsWith(input.cache.sharedPrefix)).toBe(true)
    }
  })

  it('renders a sibling whose markers change the shared file whole, still correct, sharing less', async () => {
    const marked = configs.map((c, n) => (n === 2 ? { ...c, markers: [{ name: 'batch', form: 'tag' as const }] } : c))
    const withTag = `${sharedFile}\n<batch>only for some</batch>\n`
    const tagged = marked.map((c) => ({ ...c, files: { ...c.files, [sharedPath]: withTag } }))
    const inputs: SubagentRunInput[] = []
    const { outcomes } = await spawnParallel(tagged, { run: (i) => (inputs.push(i), 'done'), concurrency: 10 })
    const three = inputs.find((i) => i.taskId === 'P.3')!
    expect(three.prompt).not.toContain('only for some')
    expect(three.prompt).toBe(renderPrompt(three.context, { shared: { files: [sharedPath], constraints } }))
    const m = new Map(outcomes.map((o) => [o.taskId, o.metrics.sharedPrefixTokens]))
    expect(m.get('P.3')).toBeLessThan(m.get('P.1')!)
    expect(m.get('P.3')).toBeGreaterThan(0)
  })
})

describe('a spawn on its own', () => {
  it('counts its own shared part as sharedPrefixTokens (0 in the ADR order)', async () => {
    let input: SubagentRunInput | undefined
    const o = await spawnSubagent(configs[0]!, { run: (i) => ((input = i), 'done') })
    expect(o.metrics.sharedPrefixTokens).toBe(countTokens(renderPromptParts(input!.context).shared))
    expect(o.metrics.sharedPrefixTokens).toBeGreaterThan(MIN_CACHEABLE_TOKENS)
    const adr = await spawnSubagent(configs[0]!, { run: () => 'done', prompt: { order: 'adr' } })
    expect(adr.metrics.sharedPrefixTokens).toBe(0)
  })

  it('refuses a bad prompt option, naming the function and the field', async () => {
    await expect(spawnSubagent(configs[0]!, { run: () => 'x', prompt: { order: 'fast' as never } })).rejects.toThrow(RangeError)
    await expect(spawnSubagent(configs[0]!, { run: () => 'x', prompt: { order: 'fast' as never } })).rejects.toThrow(/spawnSubagent: `options\.prompt\.order`/)
    await expect(spawnParallel(configs, { run: () => 'x', prompt: { primeCache: 'yes' as never } })).rejects.toThrow(/spawnParallel: `options\.prompt\.primeCache`/)
    await expect(spawnParallel(configs, { run: () => 'x', prompt: 3 as never })).rejects.toThrow(TypeError)
  })
})

describe('renderPrompt options', () => {
  const { isolatedContext } = createIsolatedContext(configs[0]!)
  it('refuses a bad order or shared material with a TypeError or RangeError naming the field', () => {
    expect(() => renderPrompt(isolatedContext, { order: 'fast' as never })).toThrow(RangeError)
    expect(() => renderPrompt(isolatedContext, { order: 'fast' as never })).toThrow(/renderPrompt: `options\.order`/)
    expect(() => renderPrompt(isolatedContext, { shared: { files: 'a' as never } })).toThrow(/renderPrompt: `options\.shared\.files`/)
    expect(() => renderPrompt(isolatedContext, { shared: { architecture: 1 as never } })).toThrow(/renderPrompt: `options\.shared\.architecture`/)
    expect(() => renderPromptParts(isolatedContext, 7 as never)).toThrow(TypeError)
  })

  it('holds the same lines in both orders', () => {
    const lines = (p: string) => p.split('\n').sort()
    expect(lines(renderPrompt(isolatedContext))).toEqual(lines(renderPrompt(isolatedContext, { order: 'adr' })))
    const parts = renderPromptParts(isolatedContext)
    expect(parts.shared + parts.task).toBe(renderPrompt(isolatedContext))
    expect(renderPromptParts(isolatedContext, { order: 'adr' }).shared).toBe('')
  })
})

describe('primeCache: one sibling first, the rest once its response begins', () => {
  it('holds the others until the first calls responseStarted()', async () => {
    const started: string[] = []
    let seenAtRelease = -1
    const { outcomes } = await spawnParallel(configs, {
      concurrency: 10,
      prompt: { primeCache: true },
      run: async ({ taskId, cache }) => {
        started.push(taskId)
        if (started.length === 1) {
          // Give the others every chance to start, were they not held.
          for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
          seenAtRelease = started.length
          cache.responseStarted()
        }
        return `${taskId} done`
      },
    })
    expect(seenAtRelease).toBe(1)
    expect(started).toHaveLength(10)
    expect(outcomes.every((o) => o.success)).toBe(true)
  })

  it('releases them when the first run ends without calling it, and when the batch aborts', async () => {
    const quiet = await spawnParallel(configs, { concurrency: 10, prompt: { primeCache: true }, run: ({ taskId }) => `${taskId} done` })
    expect(quiet.outcomes.every((o) => o.success)).toBe(true)
    const controller = new AbortController()
    const aborted = await spawnParallel(configs, {
      concurrency: 10,
      signal: controller.signal,
      prompt: { primeCache: true },
      run: ({ signal }) => {
        controller.abort(new Error('stop'))
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
      },
    })
    expect(aborted.outcomes.every((o) => !o.success && o.error!.reason === 'aborted')).toBe(true)
  })
})

describe('provider hints', () => {
  it('puts an Anthropic cache breakpoint at the end of the shared part and one OpenAI promptCacheKey per batch', async () => {
    const { inputs } = await batch()
    const [a, b] = inputs as [SubagentRunInput, SubagentRunInput]
    const blocks = anthropicPromptBlocks(a)
    expect(blocks).toHaveLength(2)
    expect(blocks[0]).toEqual({ type: 'text', text: a.cache.sharedPrefix, cache_control: { type: 'ephemeral' } })
    expect(blocks.map((x) => x.text).join('')).toBe(a.prompt)
    const hints = aiSdkPromptWithCacheHints(a)
    expect(hints.messages[0]!.content[0]!.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } })
    expect(hints.messages[0]!.content.map((p) => p.text).join('')).toBe(a.prompt)
    expect(hints.providerOptions.openai.promptCacheKey).toBe(b.cache.key)
    const other = await spawnParallel(
      configs.slice(0, 2).map((c) => ({ ...c, constraints: ['Another batch'] })),
      { run: (i) => aiSdkPromptWithCacheHints(i).providerOptions.openai.promptCacheKey },
    )
    expect(other.outcomes[0]!.content).not.toContain(a.cache.key)
    expect(anthropicPromptBlocks({ prompt: 'just a task', cache: { sharedPrefix: '', key: 'k' } })).toEqual([{ type: 'text', text: 'just a task' }])
  })
})

describe('contract batches', () => {
  it('share the material every contract gets', async () => {
    const contracts = tasks.slice(0, 4).map((t, n) => ({
      contractId: t.taskId,
      agentType: 'implementer',
      task: t.task,
      inputs: { files: { ...own(n), [sharedPath]: sharedFile }, constraints, architecture },
      expectedOutput: 'A diff',
      limits: { maxIterations: 3, maxTokens: 100_000, timeoutMs: 5_000 },
    }))
    const prompts: string[] = []
    const { results, metrics } = await executeParallelIsolated(contracts, { run: (i) => (prompts.push(i.prompt), 'done') })
    expect(results.every((r) => r.success)).toBe(true)
    expect(countTokens(commonPromptPrefix(prompts))).toBeGreaterThan(MIN_CACHEABLE_TOKENS)
    expect(metrics.cacheableShare).toBeGreaterThan(0.5)
  })
})

describe('commonPromptPrefix', () => {
  it('ends at a line break, or is a whole text', () => {
    expect(commonPromptPrefix(['a\nb\nc1', 'a\nb\nc2'])).toBe('a\nb\n')
    expect(commonPromptPrefix(['same', 'same'])).toBe('same')
    expect(commonPromptPrefix(['ab', 'ac'])).toBe('')
    expect(commonPromptPrefix([])).toBe('')
  })
})
