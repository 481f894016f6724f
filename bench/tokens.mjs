// Token counting: exactness against tiktoken-rs, throughput against the JavaScript
// tokenizers in the same run, first-call latency, and many small messages.
import { execFileSync } from 'node:child_process'

import { countTokens as gptCl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { countTokens as gptO200k } from 'gpt-tokenizer/encoding/o200k_base'
import { getEncoding } from 'js-tiktoken'
import { get_encoding } from 'tiktoken'

import { countMessageTokens, countTokens } from '../dist/index.js'
import { bar, fmt, measure, median, packageVersion, root, table, transcriptTexts } from './lib.mjs'

const ENCODINGS = ['o200k_base', 'cl100k_base']
/** The peers are measured on the first 8 MB of the corpus text: js-tiktoken needs ~15 s a run for that alone. */
const PEER_BYTES = 8_000_000

export async function run() {
  const lines = []
  const say = (s = '') => lines.push(s)

  // 1. Exactness on the whole corpus, with tiktoken-rs as the oracle (a Rust benchmark).
  const exactness = JSON.parse(
    execFileSync('cargo', ['bench', '--quiet', '--no-default-features', '--bench', 'exactness'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .at(-1),
  )
  say('## Token counting')
  say()
  say(`### Exactness against tiktoken-rs ${exactness.oracleVersion ?? '0.12.1'}`)
  say()
  say(
    `All ${exactness.texts.toLocaleString('en-US')} texts of \`swe-openhands.jsonl.gz\` (every message content and tool-call argument, ${fmt(exactness.bytes / 1e6)} MB), counted one by one, and the ${exactness.o200k_base.trickyTexts} tricky texts of \`tests/data/tricky-texts.json\` (NEL, BOM, emoji, CJK, combining marks, whitespace runs, \`<|endoftext|>\` …):`,
  )
  say()
  say(
    table(
      ['encoding', 'corpus mismatches', 'tricky mismatches', 'tokens (ours)', 'tokens (tiktoken-rs)', 'core MB/s (Rust)', 'tiktoken-rs MB/s (Rust)'],
      ENCODINGS.map((e) => {
        const r = exactness[e]
        return [e, r.mismatches, r.trickyMismatches, r.tokens.toLocaleString('en-US'), r.oracleTokens.toLocaleString('en-US'), fmt(r.mbPerS), fmt(r.oracleMbPerS)]
      }),
    ),
  )
  const exact = ENCODINGS.every((e) => exactness[e].mismatches === 0 && exactness[e].trickyMismatches === 0)
  say()
  say(bar(exact, 'counts identical to tiktoken-rs for both encodings'))

  // 2. Throughput through the JavaScript API, one call, one thread.
  const texts = transcriptTexts()
  const corpus = texts.join('')
  const corpusMb = Buffer.byteLength(corpus) / 1e6
  let peerText = corpus.slice(0, PEER_BYTES)
  const peerMb = Buffer.byteLength(peerText) / 1e6
  say()
  say('### Throughput (one call, one thread, through the JavaScript API)')
  say()
  say(
    `The whole corpus text as one string (${fmt(corpusMb)} MB) for this package; its first ${fmt(peerMb)} MB for the comparison with the peers, all measured in this run. Medians of 5 runs (3 for the peers) after one warm-up.`,
  )
  say()
  const rows = []
  const bars = []
  for (const encoding of ENCODINGS) {
    const whole = measure(() => countTokens(corpus, { encoding }), { runs: 5 })
    const ours = measure(() => countTokens(peerText, { encoding }), { runs: 5 })
    const gpt = measure(() => (encoding === 'o200k_base' ? gptO200k : gptCl100k)(peerText), { runs: 3 })
    const wasm = get_encoding(encoding)
    const tiktoken = measure(() => wasm.encode_ordinary(peerText).length, { runs: 3 })
    wasm.free()
    const js = getEncoding(encoding)
    const jsTiktoken = measure(() => js.encode(peerText, [], []).length, { runs: 1, warmup: 0 })
    const mbps = (mb, m) => mb / (m.ms / 1000)
    const oursMbps = mbps(peerMb, ours)
    rows.push([
      encoding,
      fmt(mbps(corpusMb, whole)),
      fmt(oursMbps),
      `${fmt(mbps(peerMb, gpt))} (${fmt(oursMbps / mbps(peerMb, gpt))}×)`,
      `${fmt(mbps(peerMb, tiktoken))} (${fmt(oursMbps / mbps(peerMb, tiktoken))}×)`,
      `${fmt(mbps(peerMb, jsTiktoken))} (${fmt(oursMbps / mbps(peerMb, jsTiktoken))}×)`,
      [ours, gpt, tiktoken, jsTiktoken].every((m) => m.result === ours.result) ? 'yes' : `no: ${[ours, gpt, tiktoken, jsTiktoken].map((m) => m.result).join(' / ')}`,
    ])
    bars.push(bar(mbps(corpusMb, whole) >= 50 && oursMbps >= 50, `${encoding}: ≥ 50 MB/s`))
    bars.push(bar(oursMbps / mbps(peerMb, gpt) >= 5, `${encoding}: ≥ 5× gpt-tokenizer`))
    bars.push(bar(oursMbps / mbps(peerMb, tiktoken) >= 10, `${encoding}: ≥ 10× tiktoken (WASM)`))
  }
  peerText = undefined
  say(
    table(
      ['encoding', 'this package, whole corpus MB/s', `this package, ${fmt(peerMb)} MB MB/s`, `gpt-tokenizer ${packageVersion('gpt-tokenizer')} MB/s (ours ×)`, `tiktoken (WASM) ${packageVersion('tiktoken')} MB/s (ours ×)`, `js-tiktoken ${packageVersion('js-tiktoken')} MB/s (ours ×)`, 'same count from all'],
      rows,
    ),
  )
  say()
  say('js-tiktoken is timed once (no warm-up): it takes ~15 s for the slice.')
  say()
  bars.forEach((b) => say(`- ${b}`))

  // 3. First call: load the addon and count once, in a fresh process each time.
  say()
  say('### First call (fresh process: load the package, then count once)')
  say()
  const firstRows = []
  for (const [encoding, limit] of [['cl100k_base', 40], ['o200k_base', 80]]) {
    const script = `const t=performance.now();const p=require(${JSON.stringify(`${root}/dist/index.js`)});p.countTokens('Hello, world!',{encoding:'${encoding}'});process.stdout.write(String(performance.now()-t))`
    const times = Array.from({ length: 9 }, () => Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })))
    const ms = median(times)
    firstRows.push([encoding, fmt(ms), bar(ms <= limit, `≤ ${limit} ms`)])
  }
  say('Median of 9 processes.')
  say()
  say(table(['encoding', 'first call ms', 'bar'], firstRows))

  // 4. Many small messages.
  say()
  say('### Many small messages through `countMessageTokens`')
  say()
  const snippets = texts.filter((t) => t.length >= 150 && t.length <= 260).slice(0, 100_000)
  const messages = snippets.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content }))
  const avgBytes = messages.reduce((n, m) => n + Buffer.byteLength(m.content), 0) / messages.length
  const smallRows = []
  for (const encoding of ENCODINGS) {
    const m = measure(() => countMessageTokens(messages, { encoding }), { runs: 9, warmup: 2 })
    const perMessageUs = (m.ms * 1000) / messages.length
    smallRows.push([encoding, messages.length.toLocaleString('en-US'), fmt(avgBytes, 0), fmt(m.ms), fmt(perMessageUs, 2), bar(perMessageUs <= 5, '≤ 5 µs per message')])
  }
  say('Real message texts of 150–260 characters from the corpus, as OpenAI chat messages, in one call. Median of 9 runs after 2 warm-ups.')
  say()
  say(table(['encoding', 'messages', 'avg bytes', 'ms per call', 'µs per message', 'bar'], smallRows))
  return lines.join('\n')
}
