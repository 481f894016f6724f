// Issue 8, load: 10,000 concurrent async calls of every native function, checked
// against the sync form; and memory across 20 rounds of them (no leak: RSS after round
// 20 within 10 % of round 2). `npm run bench` writes the figures to BENCHMARKS.md; the
// vitest load suite runs a lighter check through the command line:
//
//   node --expose-gc bench/load.mjs --check <calls per function> <rounds>
//
// prints one JSON line: { ok, rss: [MiB per round], failures: [...] }.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import * as sc from '../dist/index.js'

const topics = ['rate limiter', 'users route', 'README', 'database pool', 'auth tokens', 'cache eviction']

/** Small inputs that vary with `i`, so the calls do not all compute the same thing. */
function inputs(i) {
  const topic = topics[i % topics.length]
  const other = topics[(i + 1) % topics.length]
  const text = `# Notes ${i}\n\nThe ${topic} has a bug number ${i}: it keeps ${i % 97} idle entries.\n\nThe ${other} is fine. [INTERNAL] secret ${i}\n\nWeather ${i}: rain.`
  const messages = [
    { role: 'system', content: 'You are careful.' },
    { role: 'user', content: `Fix the ${topic} (ticket ${i}).` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"n":${i}}` } }],
    },
    { role: 'tool', tool_call_id: `c${i}`, content: `the ${topic} keeps ${i} entries` },
    { role: 'assistant', content: `Done with ${other}? No: ${topic}.` },
  ]
  return { topic, text, messages, task: `Fix the ${topic} bug ${i}` }
}

/** Every async native function with the sync form that must give the same answer. */
export const functions = {
  countTokens: {
    run: (i) => sc.countTokensAsync(inputs(i).text),
    expect: (i) => sc.countTokens(inputs(i).text),
  },
  countMessageTokens: {
    run: (i) => sc.countMessageTokensAsync(inputs(i).messages, { encoding: 'cl100k_base' }),
    expect: (i) => sc.countMessageTokens(inputs(i).messages, { encoding: 'cl100k_base' }),
  },
  extractRelevantContext: {
    run: async (i) => (await sc.extractRelevantContextAsync(inputs(i).text, inputs(i).task, { maxTokens: 40 })).relevantContext,
    expect: (i) => sc.extractRelevantContext(inputs(i).text, inputs(i).task, { maxTokens: 40 }).relevantContext,
  },
  extractFromMessages: {
    run: async (i) => (await sc.extractRelevantContextAsync(inputs(i).messages, inputs(i).task)).relevantContext,
    expect: (i) => sc.extractRelevantContext(inputs(i).messages, inputs(i).task).relevantContext,
  },
  createIsolatedContext: {
    run: async (i) => sc.renderPrompt((await sc.createIsolatedContextAsync({ task: inputs(i).task, taskId: `A.${i}` }, inputs(i).text)).isolatedContext),
    expect: (i) => sc.renderPrompt(sc.createIsolatedContext({ task: inputs(i).task, taskId: `A.${i}` }, inputs(i).text).isolatedContext),
  },
  sanitize: {
    run: async (i) => (await sc.sanitizeAsync(inputs(i).text)).text,
    expect: (i) => sc.sanitize(inputs(i).text).text,
  },
  filterSubagentResult: {
    run: async (i) => (await sc.filterSubagentResultAsync(inputs(i).text, inputs(i).task, { maxTokens: 30 })).content,
    expect: (i) => sc.filterSubagentResult(inputs(i).text, inputs(i).task, { maxTokens: 30 }).content,
  },
  rankByRelevance: {
    run: async (i) => (await sc.rankByRelevanceAsync(inputs(i).task, topics)).join(','),
    expect: (i) => sc.rankByRelevance(inputs(i).task, topics).join(','),
  },
}

/** `calls` concurrent calls of one function; the indices whose result was wrong. */
export async function concurrent(name, calls, offset = 0) {
  const f = functions[name]
  const results = await Promise.all(Array.from({ length: calls }, (_, k) => f.run(offset + k)))
  const wrong = []
  // Checking every result against the sync form doubles the work; a spread sample of
  // 500 (and the first and last) is checked, and every result must at least exist.
  const step = Math.max(1, Math.floor(calls / 500))
  for (let k = 0; k < calls; k++) {
    if (results[k] === undefined || results[k] === null) wrong.push(k)
    else if ((k % step === 0 || k === calls - 1) && results[k] !== f.expect(offset + k)) wrong.push(k)
  }
  return wrong
}

const mib = () => process.memoryUsage().rss / (1024 * 1024)

function collect() {
  for (let i = 0; i < 3; i++) globalThis.gc?.()
}

/** `rounds` rounds of `calls` concurrent calls of every function; RSS (MiB) after each. */
export async function rounds(calls, count, onRound = () => {}) {
  const rss = []
  const failures = []
  for (let r = 0; r < count; r++) {
    const started = performance.now()
    for (const name of Object.keys(functions)) {
      const wrong = await concurrent(name, calls, r * calls)
      if (wrong.length) failures.push({ round: r + 1, name, wrong: wrong.length, first: wrong[0] })
    }
    collect()
    rss.push(mib())
    onRound(r + 1, rss.at(-1), performance.now() - started)
  }
  return { rss, failures }
}

/** Whether RSS after the last round is within 10 % of round 2's. */
export const flat = (rss) => rss.at(-1) <= rss[1] * 1.1

/** Deterministic random lowercase words: slow to count, no two alike. */
function randomWords(bytes, length = 300) {
  let x = 1
  const random = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
  const words = []
  for (let n = 0; n < bytes; n += length + 1) {
    words.push(Array.from({ length }, () => String.fromCharCode(97 + (random() % 26))).join(''))
  }
  return words.join(' ')
}

/** How long after `abort()` each async function rejects, on a large input. */
async function abortLatencies() {
  const text = 'The rate limiter keeps idle clients forever. Weather is fine today.\n\n'.repeat(400_000) // 28 MB
  const messages = Array.from({ length: 200_000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: 'The rate limiter keeps idle clients forever. Weather is fine.',
  }))
  const words = randomWords(16_000_000)
  const cases = [
    ['countTokensAsync (16 MB of random words)', (o) => sc.countTokensAsync(words, o)],
    ['countMessageTokensAsync (200,000 messages)', (o) => sc.countMessageTokensAsync(messages, o)],
    ['extractRelevantContextAsync (28 MB text)', (o) => sc.extractRelevantContextAsync(text, 'rate limiter', o)],
    ['extractRelevantContextAsync (200,000 messages)', (o) => sc.extractRelevantContextAsync(messages, 'rate limiter', o)],
    ['createIsolatedContextAsync (28 MB thread)', (o) => sc.createIsolatedContextAsync({ task: 'rate limiter' }, text, o)],
    ['sanitizeAsync (16 MB)', (o) => sc.sanitizeAsync(words, o)],
    ['filterSubagentResultAsync (28 MB, 100 tokens)', (o) => sc.filterSubagentResultAsync(text, 'rate limiter', { maxTokens: 100, ...o })],
    ['rankByRelevanceAsync (100,000 documents)', (o) => sc.rankByRelevanceAsync('rate limiter', Array(100_000).fill('The rate limiter keeps idle clients forever.'), o)],
  ]
  const rows = []
  for (const [name, call] of cases) {
    collect()
    let t = performance.now()
    await call({})
    const full = performance.now() - t
    const controller = new AbortController()
    const at = full / 3
    t = performance.now()
    const pending = call({ signal: controller.signal })
    setTimeout(() => controller.abort(), at)
    let outcome = 'finished (abort came too late)'
    try {
      await pending
    } catch (e) {
      outcome = e.name === 'AbortError' ? 'AbortError' : String(e)
    }
    const took = performance.now() - t
    rows.push(`| ${name} | ${full.toFixed(0)} | ${at.toFixed(0)} | ${outcome} | ${took.toFixed(0)} | ${Math.max(0, took - at).toFixed(0)} |`)
    console.error(`bench/load: abort ${name}: ${outcome} ${(took - at).toFixed(0)} ms after abort`)
  }
  return rows
}

/** For BENCHMARKS.md. */
export async function run() {
  const calls = 10_000
  const count = 20
  if (!globalThis.gc) console.error('bench/load: run with --expose-gc (npm run bench does) for steady RSS figures')
  const times = []
  const { rss, failures } = await rounds(calls, count, (r, m, ms) => {
    times.push(ms)
    console.error(`bench/load: round ${r}: ${m.toFixed(0)} MiB, ${(ms / 1000).toFixed(1)} s`)
  })
  const growth = ((rss.at(-1) / rss[1] - 1) * 100).toFixed(1)
  const n = Object.keys(functions).length
  const rows = rss.map((m, k) => `| ${k + 1} | ${m.toFixed(0)} | ${(times[k] / 1000).toFixed(1)} |`)
  return [
    '## Load: concurrency and memory (issue 8)',
    '',
    `${calls.toLocaleString('en')} concurrent async calls of each of ${n} native entry points (${Object.keys(functions).join(', ')}; extraction from text and from messages counted apart), each result checked against the sync form on a spread sample of 500 per batch; ${count} rounds, the heap collected (\`--expose-gc\`) and the process RSS read after each. Bar: RSS after round ${count} within 10 % of round 2.`,
    '',
    `Result: ${failures.length ? `**${failures.length} batches with wrong results**` : 'every checked result correct'}; RSS round 2 ${rss[1].toFixed(0)} MiB, round ${count} ${rss.at(-1).toFixed(0)} MiB (${growth >= 0 ? '+' : ''}${growth} %): ${flat(rss) ? '**flat (bar met)**' : '**grew past the bar**'}.`,
    '',
    '| round | RSS (MiB) | time (s) |',
    '|---:|---:|---:|',
    ...rows,
    '',
    '### Cancellation latency',
    '',
    'Each async function on a large input, aborted a third of the way through its unaborted time (one call at a time; the sync part of a call, reading the arguments, runs before the timer can fire). Counting checks its signal every MiB of text; extraction, isolation and filtering check it between phases (segmenting, indexing, scoring, selecting), so they stop later.',
    '',
    '| call | full (ms) | abort at (ms) | outcome | settled after (ms) | after the abort (ms) |',
    '|---|---:|---:|---|---:|---:|',
    ...(await abortLatencies()),
  ].join('\n')
}

/** Puts `section` into BENCHMARKS.md in place of its previous version (or at the end). */
export function writeSection(section) {
  const path = join(dirname(fileURLToPath(import.meta.url)), '..', 'BENCHMARKS.md')
  const old = readFileSync(path, 'utf8')
  const start = old.indexOf('## Load: concurrency and memory')
  const next = start < 0 ? -1 : old.indexOf('\n## ', start + 1)
  const updated =
    start < 0 ? `${old.trimEnd()}\n\n${section}\n` : `${old.slice(0, start)}${section}\n${next < 0 ? '' : old.slice(next)}`
  writeFileSync(path, updated)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [flag, callsArg, roundsArg] = process.argv.slice(2)
  if (flag === '--check') {
    const { rss, failures } = await rounds(Number(callsArg ?? 1000), Number(roundsArg ?? 20))
    console.log(JSON.stringify({ ok: failures.length === 0 && flat(rss), rss: rss.map((m) => Math.round(m)), failures }))
  } else {
    // Alone (`node --expose-gc bench/load.mjs --write`): also updates its section of BENCHMARKS.md.
    const section = await run()
    if (flag === '--write') writeSection(section)
    console.log(section)
  }
}
