// The orchestrator: isolates each subtask from its thread and renders its prompt here,
// runs them on the workers through BullMQ, filters what comes back and records each
// completion in a ledger every process shares. Run it again with the same batch id and
// it collects the outcomes without running anything again.
//
//   REDIS_PORT=6379 node examples/fleet/parent.mjs [batchId]
import { spawnParallel, SubtaskLedger } from 'subagent-context'
import { RedisLedgerStore, SubagentQueue } from 'subagent-context/bullmq'

const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) }
const batchId = process.argv[2] ?? `audit-${Date.now()}`

const queue = new SubagentQueue({ connection, queueName: 'subagents' })
const store = new RedisLedgerStore({ connection, key: 'ledger:audit' })
const ledger = await SubtaskLedger.open(store)

const thread = [
  { role: 'user', content: 'Audit the checkout service before the release: forms, payments, emails, logs.' },
  { role: 'assistant', content: 'Plan: one subagent per area. The payment provider is Stripe; emails go through SES.' },
]
const areas = ['checkout forms', 'payment retries', 'receipt emails', 'error logs', 'rate limits', 'session expiry']
const configs = areas.map((area, i) => ({ taskId: `audit-${i + 1}`, task: `Audit the ${area} of the checkout service.` }))

const { outcomes, metrics } = await spawnParallel(configs, { executor: queue, batchId, ledger, fullThreadContext: thread, limits: { timeoutMs: 60_000 } })
for (const o of outcomes) console.log(`${o.taskId} ${o.success ? 'ok' : o.error.reason}: ${o.content.split('\n')[0]}`)
console.log(`batch ${batchId}: ${metrics.succeeded}/${metrics.spawned} succeeded; the ledger holds ${(await SubtaskLedger.open(store)).completions().length} completions`)

await queue.close()
await store.close()
