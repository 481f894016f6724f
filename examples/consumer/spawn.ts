// The consumer's spawn step, as an agent project would write it: before handing a
// thread to a subagent, measure it exactly and refuse what would not fit.
import { countMessageTokens, countTokens, type Encoding, type Message } from 'subagent-context'

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

export function planSpawn({ task, thread, contextTokens, encoding = 'o200k_base' }: SpawnRequest): SpawnPlan {
  const prompt = `## Your Task\n\n${task}\n`
  const taskTokens = countTokens(prompt, { encoding })
  const threadTokens = countMessageTokens(thread, { encoding })
  return { prompt, taskTokens, threadTokens, fits: taskTokens + threadTokens <= contextTokens }
}
