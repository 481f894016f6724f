// A worker process of bench/fleet.mjs: no-op subagents (the answer is the task), so that
// what is measured is the queue's trip and the package's own work.
import { startSubagentWorker } from '../dist/fleet/bullmq.js'

const [port, queueName] = process.argv.slice(2)
const worker = startSubagentWorker({
  connection: { host: '127.0.0.1', port: Number(port) },
  queueName,
  concurrency: 16,
  run: ({ context }) => `Done: ${context.task}`,
})
await worker.worker.waitUntilReady()
process.stdout.write('ready\n')
process.on('SIGTERM', () => void worker.close().then(() => process.exit(0)))
