// subagent-context/bullmq: fleets beyond one process. Subagents run on BullMQ worker
// processes (`SubagentQueue`, `startSubagentWorker`), and a ledger in Redis is shared by
// every process (`RedisLedgerStore`). `bullmq` and `ioredis` are optional peer dependencies.
export { RedisLedgerStore, type RedisLedgerStoreOptions } from './redis-ledger-store.js'
