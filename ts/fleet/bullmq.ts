// subagent-context/bullmq: fleets beyond one process. Subagents run on BullMQ worker
// processes (`SubagentQueue`, `startSubagentWorker`), and a ledger in Redis is shared by
// every process (`RedisLedgerStore`). `bullmq` and `ioredis` are optional peer dependencies.
export { RedisLedgerStore, type RedisLedgerStoreOptions } from './redis-ledger-store.js'
export {
  SubagentQueue,
  startSubagentWorker,
  type RedisConnection,
  type SubagentQueueOptions,
  type SubagentWorker,
  type SubagentWorkerOptions,
} from './queue.js'
export type { RemoteAnswer, RemoteFailureReason, RemoteSpawn, SpawnExecutor } from '../executor.js'
