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
  type LedgerState,
  type LedgerStore,
} from './ledger-store.js'
export * from './filter.js'
