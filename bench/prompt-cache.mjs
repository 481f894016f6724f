// Issue 20: ten sibling subagents on a real project's architectural context (this
// repository, read by ArchitecturalContext.fromProject), with the shared prefix their
// prompts have in common, the batch's cacheable share and the estimated input cost at
// published prices, for three ways of starting them: isolated with a shared prefix
// (order 'cache', the default), isolated as before (order 'adr'), and forked with the
// parent's full history.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

import { ArchitecturalContext, commonPromptPrefix, countMessageTokens, countTokens, MIN_CACHEABLE_TOKENS, spawnParallel } from '../dist/index.js'
import { fmt, root, table } from './lib.mjs'

// Published prices, USD per million input tokens (list prices as of 2025-11).
/** Anthropic Claude Sonnet 4.5: base input. */
const ANTHROPIC_INPUT = 3
/** Anthropic: a 5-minute cache write costs 1.25× the input price. */
const ANTHROPIC_WRITE = 1.25
/** Anthropic: a cache read costs 0.1× the input price. */
const ANTHROPIC_READ = 0.1
/** OpenAI GPT-5: base input. */
const OPENAI_INPUT = 1.25
/** OpenAI GPT-5: cached input $0.125, 0.1× (a 90 % discount); no write premium. */
const OPENAI_CACHED = 0.1
/** OpenAI caches a prefix in steps of 128 tokens past the first 1,024. */
const OPENAI_STEP = 128
const MILLION = 1_000_000

/** The shared file every sibling gets: the module they all build on. */
const SHARED_FILE = 'ts/parallel.ts'
/** Ten real files of this repository, one per sibling, and what each sibling does to it. */
const OWN = [
  ['ts/filter.ts', 'document every export with an example'],
  ['ts/rank.ts', 'add argument checks that name the parameter'],
  ['ts/sanitize.ts', 'add an async form with an AbortSignal'],
  ['ts/settle.ts', 'cover the rejected path with a test'],
  ['ts/clean-messages.ts', 'drop empty text parts'],
  ['ts/ledger-notes.ts', 'escape headings inside notes'],
  ['ts/messages.ts', 'accept OpenAI Responses reasoning items'],
  ['ts/native.ts', 'name the platform in the load error'],
  ['ts/architecture.ts', 'read pnpm workspaces'],
  ['ts/contract.ts', 'report the contract id in every error'],
]
const INSTRUCTIONS =
  'You are one engineer of several working on this repository. Read DESIGN.md for the contract. Keep changes small and in the house style: names say what a thing is, comments say why. Run only the tests you touch while iterating, then the whole suite once. Report what you changed and why, citing file:line.'
const CONSTRAINTS = ['No new dependencies', 'Keep every public signature unchanged', 'No source file above 800 lines of code', 'Bad input gets a TypeError or RangeError naming the function and the parameter']

const read = (path) => readFileSync(join(root, path), 'utf8')

/** What an orchestrator's thread holds before it dispatches: its plan, and every file it read. */
function parentThread(architectureText, tasks) {
  const messages = [
    { role: 'system', content: `${INSTRUCTIONS}\n\nConstraints:\n${CONSTRAINTS.map((c) => `- ${c}`).join('\n')}\n\n${architectureText}` },
    { role: 'user', content: `Plan:\n${tasks.map((t) => `- ${t.taskId}: ${t.task}`).join('\n')}` },
  ]
  for (const [i, path] of [SHARED_FILE, ...OWN.map(([p]) => p)].entries()) {
    const id = `read-${i}`
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }] })
    messages.push({ role: 'tool', tool_call_id: id, content: read(path) })
  }
  messages.push({ role: 'assistant', content: 'I have read the shared module and every file the plan touches; dispatching one subagent per task.' })
  return messages
}

/** Input cost of a batch in USD: every prompt's tokens, the first `cached` of each served from cache as the provider allows. */
function costs(promptTokens, prefixTokens) {
  const total = promptTokens.reduce((a, b) => a + b, 0)
  const cacheable = prefixTokens >= MIN_CACHEABLE_TOKENS
  const anthropic = (total * ANTHROPIC_INPUT) / MILLION
  // Staggered (primeCache): the first writes the prefix, the other nine read it.
  const staggered = cacheable
    ? ((total - prefixTokens * promptTokens.length + prefixTokens * ANTHROPIC_WRITE + prefixTokens * ANTHROPIC_READ * (promptTokens.length - 1)) * ANTHROPIC_INPUT) / MILLION
    : anthropic
  // All at once: no entry exists yet, so every request writes it.
  const atOnce = cacheable ? ((total - prefixTokens * promptTokens.length + prefixTokens * ANTHROPIC_WRITE * promptTokens.length) * ANTHROPIC_INPUT) / MILLION : anthropic
  const openai = (total * OPENAI_INPUT) / MILLION
  const served = cacheable ? MIN_CACHEABLE_TOKENS + Math.floor((prefixTokens - MIN_CACHEABLE_TOKENS) / OPENAI_STEP) * OPENAI_STEP : 0
  const openaiCached = ((total - served * (promptTokens.length - 1) * (1 - OPENAI_CACHED)) * OPENAI_INPUT) / MILLION
  return { total, anthropic, staggered, atOnce, openai, openaiCached }
}

const usd = (n) => `$${n.toFixed(4)}`

export async function run() {
  const lines = []
  const say = (s = '') => lines.push(s)
  const architecture = await ArchitecturalContext.fromProject(root)
  const architectureText = [
    architecture.projectStructure,
    ...architecture.keyPatterns,
    ...architecture.relevantAdrs,
    ...Object.entries(architecture.dependencies).map(([k, v]) => `${k}: ${v}`),
    architecture.namingConventions,
    architecture.trackNomenclature,
  ].join('\n')
  const shared = read(SHARED_FILE)
  const tasks = OWN.map(([path, what], i) => ({ taskId: `S.${i + 1}`, task: `In ${path}: ${what}.` }))
  const configs = tasks.map((t, i) => ({
    ...t,
    context: { instructions: INSTRUCTIONS },
    constraints: CONSTRAINTS,
    architecture,
    files: { [SHARED_FILE]: shared, [OWN[i][0]]: read(OWN[i][0]) },
  }))
  const thread = parentThread(architectureText, tasks)
  const sharedMaterialTokens = countTokens([architectureText, INSTRUCTIONS, ...CONSTRAINTS, shared].join('\n'))

  const rows = []
  const report = []
  for (const order of ['cache', 'adr']) {
    const prompts = new Array(configs.length)
    const { metrics } = await spawnParallel(configs, {
      run: (input) => {
        prompts[tasks.findIndex((t) => t.taskId === input.taskId)] = input.prompt
        return `${input.taskId} done.`
      },
      fullThreadContext: thread,
      budget: { contextTokens: 2_000 },
      concurrency: configs.length,
      prompt: { order },
    })
    const promptTokens = prompts.map((p) => countTokens(p))
    const prefix = countTokens(commonPromptPrefix(prompts))
    rows.push({ name: order === 'cache' ? "isolated, shared prefix first (order 'cache', the default)" : "isolated as before (order 'adr')", promptTokens, prefix, reported: metrics.cacheableShare })
  }
  const forks = tasks.map((t) => [...thread, { role: 'user', content: `You are a fork of this conversation. Do ${t.taskId} only: ${t.task}` }])
  const forkTokens = forks.map((f) => countMessageTokens(f))
  rows.push({ name: 'forked with the full history', promptTokens: forkTokens, prefix: countMessageTokens(thread), reported: undefined })

  for (const r of rows) {
    const c = costs(r.promptTokens, r.prefix)
    const share = r.prefix >= MIN_CACHEABLE_TOKENS ? (r.prefix * (r.promptTokens.length - 1)) / c.total : 0
    report.push([
      r.name,
      fmt(c.total / r.promptTokens.length, 0),
      fmt(r.prefix, 0),
      `${fmt(share * 100, 1)} %${r.reported === undefined ? '' : ` (metrics: ${fmt(r.reported * 100, 1)} %)`}`,
      usd(c.anthropic),
      usd(c.staggered),
      usd(c.atOnce),
      usd(c.openai),
      usd(c.openaiCached),
    ])
  }

  say('## Sibling prompts and provider caches')
  say()
  say(
    `Ten siblings on this repository: \`ArchitecturalContext.fromProject\` of the repository root, the same instructions and ${CONSTRAINTS.length} constraints, one shared file (\`${SHARED_FILE}\`) and a file of its own each (${OWN.length} files of \`ts/\`); the parent thread holds the plan and a read of every file (${fmt(countMessageTokens(thread), 0)} tokens); each isolated sibling gets at most 2,000 tokens of it. Shared material: ${fmt(sharedMaterialTokens, 0)} tokens. Prefix = the common prefix of the ten prompts, ending at a line break (the fork's: the whole parent thread). Cacheable share = what nine of ten prompts can read from the cache (the first writes it), of all their input tokens; 0 when the prefix is under ${fmt(MIN_CACHEABLE_TOKENS, 0)} tokens.`,
  )
  say()
  say(
    `Prices, USD per million input tokens (list prices, 2025-11): Anthropic Claude Sonnet 4.5 input $${ANTHROPIC_INPUT}, cache write ${ANTHROPIC_WRITE}× ($${ANTHROPIC_INPUT * ANTHROPIC_WRITE}), cache read ${ANTHROPIC_READ}× ($${(ANTHROPIC_INPUT * ANTHROPIC_READ).toFixed(2)}); OpenAI GPT-5 input $${OPENAI_INPUT}, cached input ${OPENAI_CACHED}× ($${(OPENAI_INPUT * OPENAI_CACHED).toFixed(3)}), cached in steps of ${OPENAI_STEP} tokens. Anthropic staggered: one sibling first, the rest once its response begins (\`prompt: { primeCache: true }\`); at once: all ten miss and each writes the entry. Output tokens are not counted (they do not depend on the prompt's order).`,
  )
  say()
  say(table(['batch of ten', 'tokens per prompt', 'shared prefix tokens', 'cacheable share', 'Anthropic uncached', 'Anthropic cached, staggered', 'Anthropic cached, at once', 'OpenAI uncached', 'OpenAI cached'], report))
  say()
  return lines.join('\n')
}

// `node bench/prompt-cache.mjs` runs this section alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(await run())
