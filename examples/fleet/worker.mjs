// A subagent worker process: takes the queue's jobs and calls `run` for each, as
// spawnSubagent would in process. Start as many as you like, on any machine that reaches
// Redis. `run` here is a deterministic stand-in for a model call (no API key needed);
// put your generateText / OpenAI / LangChain call in its place.
//
//   REDIS_PORT=6379 node examples/fleet/worker.mjs
import { startSubagentWorker } from 'subagent-context/bullmq'

const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) }

const worker = startSubagentWorker({
  connection,
  queueName: 'subagents',
  concurrency: 4,
  // BullMQ's options pass through: a worker that dies has its jobs taken by another within seconds.
  workerOptions: { lockDuration: 10_000, stalledInterval: 5_000 },
  run: async ({ taskId, prompt, context, signal, iteration }) => {
    iteration() // one model call
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 50)
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)))
    })
    return `Summary: ${context.task.replace(/\.$/, '')}: done by worker ${process.pid}.\nFindings:\n- ${taskId} got ${prompt.length} characters of prompt`
  },
})
await worker.worker.waitUntilReady()
console.log(`worker ${process.pid} ready`)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void worker.close().then(() => process.exit(0)))
