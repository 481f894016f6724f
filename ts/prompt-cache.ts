// Sibling prompts that share a cacheable prefix. A batch finds the material every
// sibling gets (architecture, instructions, constraints, files, clarifications),
// renders it once, and gives each sibling that exact text followed by its own part, so
// that a provider's prompt cache serves the prefix to all but the first. Also: the
// measurement (`sharedPrefixTokens`, the batch's cacheable share), the provider hints
// (an Anthropic cache breakpoint at the end of the shared part, an OpenAI
// `promptCacheKey` per batch) and the option to start one sibling first.
import { createHash } from 'node:crypto'

import * as native from '../index.js'
import type { Encoding, SharedMaterial, SubagentConfig, SubagentContext } from '../index.js'
import { createIsolatedContext, renderPromptParts } from './isolate.js'

/** `'cache'`: what siblings share first; `'adr'`: the seed ADR's order, the task first. */
export type PromptOrder = 'cache' | 'adr'

/**
 * The smallest prefix OpenAI and Anthropic (Claude Sonnet and Opus) cache, in tokens:
 * a shared prefix below it is billed in full. Some models need 2,048 or 4,096.
 */
export const MIN_CACHEABLE_TOKENS = 1024

/** Characters of the SHA-256 hex digest in a `promptCacheKey`: 96 bits, far from any collision in one account's batches, and short. */
const CACHE_KEY_HEX = 24

/** How spawns render their prompts (`options.prompt` of `spawnSubagent`, `spawnParallel` and the contracts). */
export interface PromptCacheOptions {
  /** @default 'cache' */
  order?: PromptOrder
  /**
   * In a batch: start one sibling first and hold the others until its response begins
   * (`run` calls `input.cache.responseStarted()`, e.g. on the first streamed chunk) or
   * its run ends. Anthropic's cache entry exists only once the first response has
   * started: siblings sent at once all miss it and each pays the cache write. The wait
   * counts against each held sibling's `timeoutMs`.
   * @default false
   */
  primeCache?: boolean
}

/** What `run` gets about its prompt's cacheable part (`input.cache`). */
export interface PromptCacheInfo {
  /** The prompt's shared part: the prompt begins with it (empty in the ADR order). */
  readonly sharedPrefix: string
  /** Tokens of `sharedPrefix` the prompt shares with its batch (see `SpawnMetrics.sharedPrefixTokens`). */
  readonly sharedPrefixTokens: number
  /** One key per batch (per shared part): pass it as OpenAI's `prompt_cache_key`. */
  readonly key: string
  /** Call when the model's response begins: with `primeCache`, the batch's other siblings start then. Idempotent. */
  responseStarted(): void
}

/** A rendered prompt and its cache facts, as a spawn uses them. */
export interface RenderedPrompt {
  prompt: string
  sharedPrefixTokens: number
  cache: PromptCacheInfo
  /** Resolves when this spawn may call `run` (at once unless a batch primes the cache); rejects never. */
  ready(signal: AbortSignal): Promise<void>
}

/** Renders the prompts of one spawn or one batch. */
export interface PromptRenderer {
  render(context: SubagentContext, encoding: Encoding | undefined): RenderedPrompt
}

/** Checked `options.prompt`. */
export interface CheckedPromptOptions {
  order: PromptOrder
  primeCache: boolean
}

/** `options.prompt` checked: a TypeError or RangeError naming the field otherwise. */
export function checkPromptOptions(fn: string, value: unknown, path: string): CheckedPromptOptions {
  if (value === undefined || value === null) return { order: 'cache', primeCache: false }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw Object.assign(new TypeError(`${fn}: \`${path}\` must be an object`), { code: 'ERR_INVALID_ARG_TYPE' })
  }
  const { order = 'cache', primeCache = false } = value as PromptCacheOptions
  if (order !== 'cache' && order !== 'adr') {
    const E = typeof order === 'string' ? RangeError : TypeError
    throw Object.assign(new E(`${fn}: \`${path}.order\` must be 'cache' or 'adr', got ${String(order)}`), {
      code: typeof order === 'string' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE',
    })
  }
  if (typeof primeCache !== 'boolean') {
    throw Object.assign(new TypeError(`${fn}: \`${path}.primeCache\` must be a boolean, got ${typeof primeCache}`), { code: 'ERR_INVALID_ARG_TYPE' })
  }
  return { order, primeCache }
}

const count = (text: string, encoding: Encoding | undefined) => (text ? native.countTokens(text, encoding ? { encoding } : undefined) : 0)

const cacheKey = (text: string) => `subagent-${createHash('sha256').update(text).digest('hex').slice(0, CACHE_KEY_HEX)}`

const noWait = () => Promise.resolve()

/** The renderer of a spawn on its own: its shared part is all its shareable material. */
export function singlePrompt(options: CheckedPromptOptions): PromptRenderer {
  return {
    render(context, encoding) {
      const { shared, task } = renderPromptParts(context, { order: options.order })
      const tokens = count(shared, encoding)
      const key = cacheKey(shared || task)
      return { prompt: shared + task, sharedPrefixTokens: tokens, cache: cacheInfo(shared, tokens, key, () => {}), ready: noWait }
    },
  }
}

function cacheInfo(sharedPrefix: string, sharedPrefixTokens: number, key: string, started: () => void): PromptCacheInfo {
  return Object.freeze({ sharedPrefix, sharedPrefixTokens, key, responseStarted: started })
}

// ---------------------------------------------------------------------------------------------
// A batch

/** What a config gives that siblings may share, read once; `undefined` when it cannot be read. */
interface Shareable {
  architecture: string | undefined
  architectureValue: unknown
  instructions: string | undefined
  files: [string, string][]
  constraints: string[]
  clarifications: string[]
}

/** JSON with object keys sorted: equal for architectures that differ only in key order. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  )
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [])

function shareable(config: SubagentConfig): Shareable | undefined {
  try {
    const c = config as unknown as Record<string, unknown>
    const context = c.context as Record<string, unknown> | undefined
    const files = c.files && typeof c.files === 'object' ? Object.entries(c.files).filter((e): e is [string, string] => typeof e[1] === 'string') : []
    const instructions = context && typeof context === 'object' ? context.instructions : undefined
    return {
      architecture: c.architecture === undefined || c.architecture === null ? undefined : stable(c.architecture),
      architectureValue: c.architecture ?? undefined,
      instructions: typeof instructions === 'string' ? instructions : undefined,
      files,
      constraints: strings(c.constraints),
      clarifications: strings(c.clarifications),
    }
  } catch {
    return undefined // reading it threw: its spawn reports that, naming the field
  }
}

/** The material every config of the batch gets, isolated (sanitized) as each sibling's will be. */
function commonMaterial(configs: readonly SubagentConfig[]): { spec: Required<SharedMaterial>; common: SubagentContext } | undefined {
  const all = configs.map(shareable)
  if (all.length === 0 || all.some((s) => s === undefined)) return undefined
  const [first, ...rest] = all as Shareable[]
  const architecture = rest.every((s) => s.architecture === first!.architecture)
  const instructions = rest.every((s) => s.instructions === first!.instructions)
  const files = first!.files.filter(([path, content]) => rest.every((s) => s.files.some(([p, c]) => p === path && c === content)))
  const everyone = (pick: (s: Shareable) => string[]) => [...new Set(pick(first!))].filter((item) => rest.every((s) => pick(s).includes(item)))
  try {
    const { isolatedContext: common } = createIsolatedContext({
      task: 'shared material',
      ...(architecture && first!.architectureValue !== undefined && { architecture: first!.architectureValue as SubagentConfig['architecture'] }),
      ...(instructions && first!.instructions !== undefined && { context: { instructions: first!.instructions } }),
      files: Object.fromEntries(files),
      constraints: everyone((s) => s.constraints),
      clarifications: everyone((s) => s.clarifications),
    })
    const spec = {
      architecture,
      instructions,
      files: Object.keys(common.files),
      constraints: [...common.constraints],
      clarifications: [...common.clarifications],
    }
    return { spec, common }
  } catch {
    return undefined
  }
}

/** Whether `context` holds exactly the batch's shared material (then the batch's rendering of it is its own). */
function holdsShared(context: SubagentContext, common: SubagentContext, spec: Required<SharedMaterial>): boolean {
  if (spec.architecture && stable(context.architecture ?? null) !== stable(common.architecture ?? null)) return false
  if (spec.instructions && (context.instructions ?? '') !== (common.instructions ?? '')) return false
  if (spec.files.some((path) => context.files[path] !== common.files[path])) return false
  return spec.constraints.every((c) => context.constraints.includes(c)) && spec.clarifications.every((c) => context.clarifications.includes(c))
}

/** `context` without the shared material: what its task part is rendered from. */
function ownOnly(context: SubagentContext, spec: Required<SharedMaterial>): SubagentContext {
  const { architecture, instructions, ...rest } = context
  return {
    ...rest,
    ...(!spec.architecture && architecture && { architecture }),
    ...(!spec.instructions && instructions !== undefined && { instructions }),
    files: Object.fromEntries(Object.entries(context.files).filter(([path]) => !spec.files.includes(path))),
    constraints: context.constraints.filter((c) => !spec.constraints.includes(c)),
    clarifications: context.clarifications.filter((c) => !spec.clarifications.includes(c)),
  }
}

/**
 * The longest common prefix of `texts` that ends at a line break (or is a whole text):
 * the part of sibling prompts a provider's cache can serve, without a token cut in two.
 */
export function commonPromptPrefix(texts: readonly string[]): string {
  if (texts.length === 0) return ''
  let end = texts[0]!.length
  for (const t of texts.slice(1)) {
    let i = 0
    const limit = Math.min(end, t.length)
    while (i < limit && t.charCodeAt(i) === texts[0]!.charCodeAt(i)) i++
    end = i
  }
  if (texts.every((t) => t.length === end)) return texts[0]!
  return texts[0]!.slice(0, texts[0]!.lastIndexOf('\n', end - 1) + 1)
}

/**
 * The prompts of one batch (`spawnParallel`, `executeParallelIsolated`): the shared part
 * is rendered once, and each sibling whose isolated context holds exactly that material
 * gets it followed by its own part; any other is rendered whole.
 */
export class PromptBatch implements PromptRenderer {
  private readonly spec: Required<SharedMaterial> | undefined
  private readonly common: SubagentContext | undefined
  private readonly shared: string
  private readonly key: string
  private readonly tokens = new Map<string, number>()
  private leader = false
  private release!: () => void
  private readonly released = new Promise<void>((resolve) => (this.release = resolve))

  constructor(
    configs: readonly SubagentConfig[],
    heads: readonly { taskId: string }[],
    private readonly options: CheckedPromptOptions,
  ) {
    const material = options.order === 'cache' ? commonMaterial(configs) : undefined
    this.spec = material?.spec
    this.common = material?.common
    this.shared = material ? renderPromptParts(material.common, { order: 'cache', shared: material.spec }).shared : ''
    this.key = cacheKey(this.shared || heads.map((h) => h.taskId).join('\n'))
  }

  private sharedTokens(encoding: Encoding | undefined): number {
    const name = encoding ?? 'o200k_base'
    let n = this.tokens.get(name)
    if (n === undefined) this.tokens.set(name, (n = count(this.shared, encoding)))
    return n
  }

  render(context: SubagentContext, encoding: Encoding | undefined): RenderedPrompt {
    let prompt: string
    let tokens: number
    let sharedPrefix = this.shared
    if (this.spec && this.common && this.shared && holdsShared(context, this.common, this.spec)) {
      // Every section opens with a line break; a part rendered alone has its first one cut.
      const task = renderPromptParts(ownOnly(context, this.spec), { order: 'cache', shared: this.spec }).task
      prompt = this.shared + (task.startsWith('\n') ? task : `\n${task}`)
      tokens = this.sharedTokens(encoding)
    } else {
      const parts = renderPromptParts(context, { order: this.options.order, ...(this.spec && { shared: this.spec }) })
      prompt = parts.shared + parts.task
      sharedPrefix = parts.shared
      const prefix = commonPromptPrefix([prompt, this.shared])
      tokens = prefix === this.shared ? this.sharedTokens(encoding) : count(prefix, encoding)
    }
    let leads = false
    const ready = async (signal: AbortSignal): Promise<void> => {
      if (!this.options.primeCache) return
      if (!this.leader) {
        this.leader = leads = true
        return
      }
      if (signal.aborted) return
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done)
          resolve()
        }
        signal.addEventListener('abort', done, { once: true })
        void this.released.then(done)
      })
    }
    const started = () => {
      if (leads) this.release()
    }
    return { prompt, sharedPrefixTokens: tokens, cache: cacheInfo(sharedPrefix, tokens, this.key, started), ready }
  }
}

// ---------------------------------------------------------------------------------------------
// Batch metrics

/** The batch's prompt-cache figures, in `spawnParallel`'s metrics. */
export interface BatchCacheMetrics {
  /** Tokens every rendered prompt of the batch shares with the batch's shared part (the least `sharedPrefixTokens`). */
  sharedPrefixTokens: number
  /**
   * Prompt tokens a provider's cache can serve: each prompt's `sharedPrefixTokens`, but
   * for the one that writes the entry, where they reach `MIN_CACHEABLE_TOKENS`.
   */
  cacheableTokens: number
  /** `cacheableTokens / promptTokens` (0 without prompts). */
  cacheableShare: number
}

/** The batch's figures from its outcomes' metrics. */
export function batchCacheMetrics(outcomes: readonly { metrics: { promptTokens: number; sharedPrefixTokens: number } }[]): BatchCacheMetrics {
  const rendered = outcomes.map((o) => o.metrics).filter((m) => m.promptTokens > 0)
  const promptTokens = rendered.reduce((sum, m) => sum + m.promptTokens, 0)
  const prefixes = rendered.map((m) => m.sharedPrefixTokens)
  const cacheable = prefixes.filter((n) => n >= MIN_CACHEABLE_TOKENS)
  const cacheableTokens = cacheable.length > 1 ? cacheable.reduce((a, b) => a + b, 0) - Math.max(...cacheable) : 0
  return {
    sharedPrefixTokens: prefixes.length ? Math.min(...prefixes) : 0,
    cacheableTokens,
    cacheableShare: promptTokens === 0 ? 0 : cacheableTokens / promptTokens,
  }
}

// ---------------------------------------------------------------------------------------------
// Provider hints

/** What `run` got, as far as the hints need it. */
export interface CacheHintInput {
  readonly prompt: string
  readonly cache: Pick<PromptCacheInfo, 'sharedPrefix' | 'key'>
}

/** The prompt split at the end of its shared part (one piece when there is none). */
function split(input: CacheHintInput): [string, string] | [string] {
  const shared = input.cache.sharedPrefix
  return shared && input.prompt.startsWith(shared) && shared.length < input.prompt.length ? [shared, input.prompt.slice(shared.length)] : [input.prompt]
}

/**
 * The prompt as Anthropic Messages API content blocks, with a cache breakpoint
 * (`cache_control: { type: 'ephemeral' }`) at the end of the shared part: send as the
 * user message's `content`.
 */
export function anthropicPromptBlocks(input: CacheHintInput): { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }[] {
  const [shared, task] = split(input)
  return task === undefined ? [{ type: 'text', text: shared }] : [{ type: 'text', text: shared, cache_control: { type: 'ephemeral' } }, { type: 'text', text: task }]
}

/**
 * Vercel AI SDK call settings carrying the prompt with both providers' cache hints:
 * `messages` (one user message whose first text part ends at the shared part, marked
 * with Anthropic's `cacheControl`) and `providerOptions.openai.promptCacheKey` (one per
 * batch). Spread into `generateText`/`streamText`; each provider ignores the other's.
 */
export function aiSdkPromptWithCacheHints(input: CacheHintInput): {
  messages: { role: 'user'; content: { type: 'text'; text: string; providerOptions?: { anthropic: { cacheControl: { type: 'ephemeral' } } } }[] }[]
  providerOptions: { openai: { promptCacheKey: string } }
} {
  const [shared, task] = split(input)
  const content =
    task === undefined
      ? [{ type: 'text' as const, text: shared }]
      : [
          { type: 'text' as const, text: shared, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' as const } } } },
          { type: 'text' as const, text: task },
        ]
  return { messages: [{ role: 'user', content }], providerOptions: { openai: { promptCacheKey: input.cache.key } } }
}
