// Shared helpers of the benchmarks: timing, the shared data sets, machine facts.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const dataDir = join(root, '..', 'shared', 'data')

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times; the median in milliseconds and the
 * last result. With `node --expose-gc` (as `npm run bench` runs) the heap is collected
 * before the timed runs, so garbage from an earlier measurement (a 72 MB string, say) does
 * not slow the next one: for every method alike.
 */
export function measure(fn, { runs = 5, warmup = 1 } = {}) {
  let result
  for (let i = 0; i < warmup; i++) result = fn()
  globalThis.gc?.()
  const times = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    result = fn()
    times.push(performance.now() - start)
  }
  return { ms: median(times), runs, result }
}

/** The records of a `.jsonl.gz` file in ../shared/data; stops with a clear message when it is missing. */
export function loadJsonl(name) {
  const path = join(dataDir, name)
  if (!existsSync(path)) {
    console.error(`bench: ${path} is missing. The benchmarks need the shared data set (../shared/data beside the project).`)
    process.exit(2)
  }
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** Every message content and tool-call argument of the agent transcripts, in order. */
export function transcriptTexts(records = loadJsonl('swe-openhands.jsonl.gz')) {
  const texts = []
  for (const record of records) {
    for (const m of record.messages) {
      if (typeof m.content === 'string') texts.push(m.content)
      for (const call of m.tool_calls ?? []) texts.push(call.function.arguments)
    }
  }
  return texts
}

export function packageVersion(name) {
  return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version
}

export function machine() {
  const rustc = execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim()
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    rustc,
    platform: `${process.platform}-${process.arch}`,
  }
}

export const fmt = (n, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** A markdown table. */
export function table(header, rows) {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')
}

/** `✅`/`❌` with the bar, for the report. */
export const bar = (ok, text) => `${ok ? '✅' : '❌'} ${text}`
