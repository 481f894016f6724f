// Load (issue 8): 10,000 concurrent async calls of every native function, memory flat
// across rounds of them, the addon in worker threads (including workers that exit while
// a call runs), and cancellation that frees the thread pool.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'

import { describe, expect, it } from 'vitest'

import { concurrent, functions } from '../bench/load.mjs'
import {
  countTokens,
  countTokensAsync,
  extractRelevantContext,
  extractRelevantContextAsync,
  filterSubagentResult,
  rankByRelevance,
  RelevanceIndex,
  sanitize,
  sanitizeAsync,
} from '../dist/index.js'

const root = join(__dirname, '..')
const entry = pathToFileURL(join(root, 'dist', 'index.js')).href
const workerFile = join(__dirname, 'fixtures', 'load-worker.mjs')

describe('10,000 concurrent async calls of each native function', () => {
  it.each(Object.keys(functions))('%s: all complete, results equal the sync form', async (name) => {
    expect(await concurrent(name, 10_000)).toEqual([])
  })
})

describe('RelevanceIndex (sync only) under load', () => {
  it('10,000 documents added, searched and half removed, with consistent answers', () => {
    const index = new RelevanceIndex()
    const ids = Array.from({ length: 10_000 }, (_, i) => index.add(`ticket${i} the rate limiter note ${i % 7}`))
    expect(ids).toEqual(Array.from({ length: 10_000 }, (_, i) => i))
    for (let i = 0; i < 10_000; i += 97) expect(index.search(`ticket${i}`)[0]?.id).toBe(i)
    for (let i = 0; i < 10_000; i += 2) expect(index.remove(i)).toBe(true)
    expect(index.size).toBe(5_000)
    expect(index.remove(0)).toBe(false)
    expect(index.search('ticket42').map((h) => h.id)).not.toContain(42)
    expect(index.search('ticket43')[0]?.id).toBe(43)
  })
})

describe('memory across rounds', () => {
  it('RSS after round 20 is within 10 % of round 2 (20 rounds of 1,000 calls of each function)', async () => {
    // A child process, for `--expose-gc`; `npm run bench` runs the full 10,000-call version.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', join(root, 'bench', 'load.mjs'), '--check', '1000', '20'],
      { cwd: root },
    )
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!)
    expect(result.failures).toEqual([])
    expect(result.rss).toHaveLength(20)
    expect(result.rss[19]).toBeLessThanOrEqual(result.rss[1] * 1.1)
    expect(result.ok).toBe(true)
  }, 120_000)
})

function start(mode: string, data: Record<string, unknown> = {}) {
  const worker = new Worker(workerFile, { workerData: { entry, mode, ...data } })
  const messages: unknown[] = []
  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => {
      messages.push(m)
      if (m === 'started') resolve()
    })
    worker.on('error', reject)
  })
  const exited = new Promise<number>((resolve) => worker.on('exit', resolve))
  const first = new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve)
    worker.on('error', reject)
  })
  return { worker, messages, started, exited, first }
}

describe('worker_threads', () => {
  const text =
    '# Notes\n\nThe rate limiter keeps idle clients forever. [INTERNAL] do not ship\n\nThe users route validates emails.\n\nWeather: rain.'
  const task = 'Fix the rate limiter memory leak'

  it('loads and works in four workers at once, with the same answers as the main thread', async () => {
    const expected = {
      count: countTokens(text),
      countAsync: countTokens(text),
      extract: extractRelevantContext(text, task, { maxTokens: 60 }).relevantContext,
      sanitized: sanitize(text).text,
      filtered: filterSubagentResult(text, task, { maxTokens: 40 }).content,
      ranked: rankByRelevance(task, text.split('\n\n')),
    }
    const workers = Array.from({ length: 4 }, () => start('work', { text, task }))
    for (const w of workers) {
      expect(await w.first).toEqual(expected)
      expect(await w.exited).toBe(0)
    }
  })

  it('survives workers terminated while an async call runs, and loads again afterwards', async () => {
    for (let round = 0; round < 3; round++) {
      const w = start('long')
      await w.started
      await new Promise((r) => setTimeout(r, 30))
      await w.worker.terminate()
      expect(await w.exited).toBe(1)
      expect(w.messages.some((m) => typeof m === 'object' && m !== null && 'finished' in m)).toBe(false)
    }
    // The main thread's addon is unharmed, and a fresh worker loads it again.
    expect(await countTokensAsync('hello world')).toBe(2)
    const again = start('work', { text, task })
    expect(((await again.first) as { count: number }).count).toBe(countTokens(text))
    await again.exited
  }, 60_000)

  it('survives a worker that exits by itself while its call runs', async () => {
    const w = start('exit')
    await w.started
    expect(await w.exited).toBe(3)
    expect(await sanitizeAsync('a [PRIVATE] b')).toEqual({ text: 'a ', removed: 1 })
  }, 60_000)

  it('terminating a worker inside a long sync call waits for the call, then exits cleanly', async () => {
    const w = start('sync')
    await w.started
    await w.worker.terminate()
    expect(await w.exited).toBe(1)
    expect(countTokens('still fine')).toBe(2)
  }, 60_000)

  it('loads and unloads in 12 workers one after another', async () => {
    for (let i = 0; i < 12; i++) {
      const w = start('work', { text: `${text} ${i}`, task })
      expect(((await w.first) as { count: number }).count).toBe(countTokens(`${text} ${i}`))
      expect(await w.exited).toBe(0)
    }
  }, 60_000)
})

describe('cancelling through AbortSignal', () => {
  it('aborting long counts frees the thread pool for a call queued behind them', async () => {
    // 8 MB of distinct random 300-letter words: slow to count (every word is merged,
    // none is cached) and quick to pass in, so the calls are surely running when aborted.
    let x = 1
    const random = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
    const words: string[] = []
    for (let length = 0; length < 8_000_000; length += 301) {
      words.push(Array.from({ length: 300 }, () => String.fromCharCode(97 + (random() % 26))).join(''))
    }
    const big = words.join(' ')
    let started = performance.now()
    await countTokensAsync(big)
    const full = performance.now() - started

    // As many long calls as the pool has threads, all aborted soon after they start.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
    const controllers = Array.from({ length: threads }, () => new AbortController())
    const long = controllers.map((c) => countTokensAsync(big, { signal: c.signal }))
    const settled = Promise.allSettled(long)
    started = performance.now()
    controllers.forEach((c) => c.abort())
    // A small call queued behind them runs as soon as the pool is free again.
    expect(await countTokensAsync('hello world')).toBe(2)
    const freed = performance.now() - started
    for (const outcome of await settled) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: 'AbortError' })
    }
    // Without cancellation the small call would wait for whole long calls (each `full`,
    // and more with 4 of them on 2 cores).
    expect(freed).toBeLessThan(full / 2)
  }, 60_000)

  it('an aborted count of one giant word (8 MB, no spaces) stops inside the word', async () => {
    // Merging one 8 MB word takes seconds; the count must not hold its thread that long.
    const word = 'a'.repeat(8_000_000)
    const c = new AbortController()
    const work = countTokensAsync(word, { signal: c.signal })
    await new Promise((r) => setTimeout(r, 100))
    const aborted = performance.now()
    c.abort()
    // The call settles when its work returns, so this is how long the thread stayed busy.
    await expect(work).rejects.toMatchObject({ name: 'AbortError' })
    expect(performance.now() - aborted).toBeLessThan(2_000)
  }, 60_000)

  it('an aborted extraction stops before it would have finished', async () => {
    // Extraction checks its signal between phases (segmenting, indexing, scoring and
    // selection are not interrupted inside), so it stops later than a count does;
    // BENCHMARKS.md has the latencies.
    const big = 'The rate limiter keeps idle clients forever. Weather is fine today.\n\n'.repeat(200_000) // 14 MB
    let started = performance.now()
    await extractRelevantContextAsync(big, 'rate limiter')
    const full = performance.now() - started
    const c = new AbortController()
    started = performance.now()
    const work = extractRelevantContextAsync(big, 'rate limiter', { signal: c.signal })
    setTimeout(() => c.abort(), full / 4)
    await expect(work).rejects.toMatchObject({ name: 'AbortError' })
    expect(performance.now() - started).toBeLessThan(full)
  }, 60_000)

  it('a signal aborted before the call rejects without starting it, and the signal is not kept', async () => {
    const c = new AbortController()
    c.abort(new Error('too late'))
    for (let i = 0; i < 1000; i++) {
      await expect(sanitizeAsync('x', { signal: c.signal })).rejects.toThrow('too late')
    }
    expect(await sanitizeAsync('ok [INTERNAL] x')).toEqual({ text: 'ok ', removed: 1 })
  })
})
