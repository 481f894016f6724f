// The consumer's spawn step, as an agent project would write it: each subagent is one
// `generateText` call of the Vercel AI SDK, and subagent-context does the rest: it
// isolates the subagent's context from the parent thread, renders its prompt, runs the
// call under a timeout with an AbortSignal, filters what comes back, and reports.
import { generateText, type LanguageModel } from 'ai'
import {
  countMessageTokens,
  countTokens,
  spawnParallel,
  spawnSubagent,
  type Encoding,
  type Message,
  type ParallelResult,
  type SpawnEvent,
  type SubagentConfig,
  type SubagentOutcome,
  type SubagentRunInput,
} from 'subagent-context'

export interface SpawnRequest {
  task: string
  thread: Message[]
  contextTokens: number
  encoding?: Encoding
}

export interface SpawnPlan {
  prompt: string
  threadTokens: number
  taskTokens: number
  fits: boolean
}

/** Measures a task and a thread exactly and says whether they fit a context window. */
export function planSpawn({ task, thread, contextTokens, encoding = 'o200k_base' }: SpawnRequest): SpawnPlan {
  const prompt = `## Your Task\n\n${task}\n`
  const taskTokens = countTokens(prompt, { encoding })
  const threadTokens = countMessageTokens(thread, { encoding })
  return { prompt, taskTokens, threadTokens, fits: taskTokens + threadTokens <= contextTokens }
}

/** `run` for subagent-context: one `generateText` call with the isolated prompt. */
export function modelRunner(model: LanguageModel) {
  return ({ prompt, signal, limits }: SubagentRunInput) =>
    generateText({
      model,
      prompt,
      abortSignal: signal,
      ...(limits.maxTokens !== undefined && Number.isFinite(limits.maxTokens) && { maxOutputTokens: limits.maxTokens }),
    })
}

export interface SubagentSettings {
  model: LanguageModel
  thread: Message[]
  contextTokens?: number
  resultTokens?: number
  timeoutMs?: number
  onEvent?: (event: SpawnEvent) => void
  signal?: AbortSignal
}

/** One subagent for one task of the thread. */
export function spawnTask(config: SubagentConfig, s: SubagentSettings): Promise<SubagentOutcome> {
  return spawnSubagent(config, {
    run: modelRunner(s.model),
    fullThreadContext: s.thread,
    budget: { contextTokens: s.contextTokens ?? 4000, resultTokens: s.resultTokens ?? 500 },
    limits: { timeoutMs: s.timeoutMs ?? 120_000 },
    ...(s.onEvent && { onEvent: s.onEvent }),
    ...(s.signal && { signal: s.signal }),
  })
}

/** Every task of the plan, in parallel, each isolated from the others. */
export function spawnTasks(configs: SubagentConfig[], s: SubagentSettings & { concurrency?: number }): Promise<ParallelResult> {
  return spawnParallel(configs, {
    run: modelRunner(s.model),
    fullThreadContext: s.thread,
    concurrency: s.concurrency ?? 4,
    budget: { contextTokens: s.contextTokens ?? 4000, resultTokens: s.resultTokens ?? 500 },
    limits: { timeoutMs: s.timeoutMs ?? 120_000 },
    ...(s.onEvent && { onEvent: s.onEvent }),
    ...(s.signal && { signal: s.signal }),
  })
}
