// subagent-context: the package's public entry.
export * from './native.js'
export * from './isolate.js'
export * from './sanitize.js'
export * from './rank.js'
export * from './ledger.js'
export {
  ARTIFACT_TYPES,
  FileLedgerStore,
  LedgerCorruptError,
  MemoryLedgerStore,
  type Artifact,
  type ArtifactType,
  type BackpackItem,
  type CompletionSummary,
  type LedgerRecords,
  type LedgerState,
  type LedgerStore,
} from './ledger-store.js'
export * from './messages.js'
export * from './architecture.js'
export {
  DEFAULT_RESULT_TOKENS,
  DEFAULT_TIMEOUT_MS,
  SubagentBlockedError,
  spawnSubagent,
  type SpawnBudget,
  type SpawnError,
  type SpawnEvent,
  type SpawnFailureReason,
  type SpawnLimits,
  type SpawnLogger,
  type SpawnMetrics,
  type SpawnOptions,
  type SubagentOutcome,
  type SubagentRunInput,
  type SubagentRunResult,
} from './spawn.js'
export { runRemoteSpawn, type RemoteAnswer, type RemoteFailureReason, type RemoteSpawn, type SpawnExecutor } from './executor.js'
export {
  spawnParallel,
  type ExecutorParallelOptions,
  type InProcessParallelOptions,
  type ParallelMetrics,
  type ParallelResult,
  type SpawnParallelBaseOptions,
  type SpawnParallelOptions,
} from './parallel.js'
export * from './contract.js'
export * from './manager.js'
export * from './filter.js'
export {
  aiSdkPromptWithCacheHints,
  anthropicPromptBlocks,
  commonPromptPrefix,
  MIN_CACHEABLE_TOKENS,
  type BatchCacheMetrics,
  type CacheHintInput,
  type PromptCacheInfo,
  type PromptCacheOptions,
  type PromptOrder,
} from './prompt-cache.js'
