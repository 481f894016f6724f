// Issue 6's bars: the parent's context growth when ten subagents run in parallel over
// threads built from the agent transcripts, and the package's own time per spawn on a
// 100,000-token parent thread; also ArchitecturalContext.fromProject on a large tree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { ArchitecturalContext, countMessageTokens, prepareThread, spawnParallel, spawnSubagent } from '../dist/index.js'
import { bar, fmt, loadJsonl, median, root, table } from './lib.mjs'

const SUBAGENTS = 10
const RESULT_TOKENS = 1_000
const CONTEXT_TOKENS = 8_000

const repoOf = (record) => record.id.split('__')[0]
const firstLine = (task) => task.trim().split('\n', 1)[0].slice(0, 160)

/**
 * An orchestrator's thread over ten tasks of one repository: its plan (the issues' first
 * lines), then the first `take` messages of each transcript (the system prompt once),
 * round-robin, as if the orchestrator had explored every task before dispatching.
 */
function parentThread(records, take = 12) {
  const messages = [records[0].messages[0]]
  messages.push({ role: 'user', content: `Plan:\n${records.map((r, i) => `- T.${i + 1} ${firstLine(r.task)}`).join('\n')}` })
  for (let step = 1; step <= take; step++) {
    for (const r of records) {
      const m = r.messages[step]
      if (!m) continue
      // A tool result is kept only with its call (the round-robin keeps pairs adjacent per transcript).
      if (m.role === 'tool' && !r.messages[step - 1]?.tool_calls) continue
      messages.push(m)
      if (m.tool_calls && r.messages[step + 1]?.role === 'tool') {
        messages.push(r.messages[step + 1])
      }
    }
  }
  // Remove tool results whose call was not kept, so the thread is well formed.
  const calls = new Set(messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)))
  return messages.filter((m, i, all) => (m.role !== 'tool' || calls.has(m.tool_call_id)) && all.indexOf(m) === i)
}

/**
 * What a subagent returns: its whole conversation after the system prompt (its work and
 * its final report), as messages, as frameworks that hand the child's history back do.
 */
const subagentResult = (record) => record.messages.slice(1)

/** The same as text: every assistant message's text, joined (its narrative, reasoning included). */
const subagentText = (record) =>
  record.messages
    .filter((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content.trim())
    .map((m) => m.content)
    .join('\n\n')

async function growth(say, records) {
  const byRepo = new Map()
  for (const r of records) byRepo.set(repoOf(r), [...(byRepo.get(repoOf(r)) ?? []), r])
  const repos = [...byRepo.entries()].filter(([, rs]) => rs.length >= SUBAGENTS).slice(0, 6)
  const rows = []
  let allWithin = true
  for (const [repo, rs] of repos) {
    const chosen = rs.slice(0, SUBAGENTS)
    const thread = parentThread(chosen)
    const threadTokens = countMessageTokens(thread)
    const byId = new Map(chosen.map((r, i) => [`T.${i + 1}`, r]))
    for (const [form, result] of [
      ['messages', subagentResult],
      ['text', subagentText],
    ]) {
      const { metrics } = await spawnParallel(
        chosen.map((r, i) => ({ taskId: `T.${i + 1}`, task: r.task })),
        {
          fullThreadContext: thread,
          concurrency: SUBAGENTS,
          budget: { contextTokens: CONTEXT_TOKENS, resultTokens: RESULT_TOKENS },
          run: ({ taskId }) => result(byId.get(taskId)),
        },
      )
      const within = metrics.parentGrowthTokens <= metrics.resultBudgetTokens
      allWithin &&= within && metrics.succeeded === SUBAGENTS
      rows.push([
        repo,
        form,
        threadTokens.toLocaleString('en-US'),
        `${metrics.succeeded}/${metrics.spawned}`,
        metrics.parentGrowthWithoutIsolation.toLocaleString('en-US'),
        metrics.parentGrowthTokens.toLocaleString('en-US'),
        metrics.resultBudgetTokens.toLocaleString('en-US'),
        `${((1 - metrics.parentGrowthTokens / metrics.parentGrowthWithoutIsolation) * 100).toFixed(1)} %`,
        fmt(metrics.durationMs, 0),
      ])
    }
  }
  say('### Parent context growth, ten subagents in parallel')
  say()
  say(
    `For each of ${repos.length} repositories with at least ${SUBAGENTS} transcripts: a parent thread made of an orchestrator's plan over ${SUBAGENTS} of its tasks and the first messages of each transcript, round-robin (tool calls with their results); then \`spawnParallel\` dispatches the ${SUBAGENTS} tasks (concurrency ${SUBAGENTS}, context budget ${CONTEXT_TOKENS.toLocaleString('en-US')}, result budget ${RESULT_TOKENS.toLocaleString('en-US')} tokens each). Each subagent's \`run\` returns its own transcript after the system prompt, as messages (frameworks that hand a child's history back do that; the filter reads its final answer and the tool output that answer cites), or, in the second row, the text of all its assistant messages joined (its narrative: the filter keeps what serves the task within the budget). "Without isolation" is what those results add to the parent as returned; "with isolation" is the sum of the filtered results (\`parentGrowthTokens\`).`,
  )
  say()
  say(table(['repository', 'results as', 'parent thread tokens', 'succeeded', 'growth without isolation', 'growth with isolation', 'sum of result budgets', 'left out', 'batch ms'], rows))
  say()
  say(`- ${bar(allWithin, `on every thread, ${SUBAGENTS} parallel subagents grow the parent's context by no more than the sum of their result budgets`)}`)
  say()
}

/** About `target` tokens of transcript messages, well formed (whole transcripts' prefixes). */
export function longThread(records, target) {
  const messages = []
  let tokens = 0
  for (const r of records) {
    for (const [i, m] of r.messages.entries()) {
      if (m.role === 'tool' && !r.messages[i - 1]?.tool_calls) continue
      const piece = m.tool_calls && r.messages[i + 1]?.role === 'tool' ? [m, r.messages[i + 1]] : m.role === 'tool' ? [] : [m]
      if (piece.length === 0) continue
      const t = countMessageTokens(piece)
      if (tokens + t > target) return { messages, tokens: countMessageTokens(messages) }
      messages.push(...piece)
      tokens += t
    }
  }
  return { messages, tokens: countMessageTokens(messages) }
}

async function overhead(say, records) {
  const { messages, tokens } = longThread(records, 100_000)
  const result = records[0].messages.slice(-8)
  // Every spawn its own task (the first records' tasks, in turn), and in the sibling rows
  // the next nine tasks as its siblings: no two spawns ask for the same set of tasks, so
  // none reuses the scores a prepared thread keeps of the sets it scored last.
  const tasks = records.slice(0, 40).map((r, i) => ({ taskId: `T.${i + 1}`, task: r.task }))
  const siblingsOf = (k) => tasks.slice(k + 1, k + 1 + (SUBAGENTS - 1)).map((t) => `${t.taskId}\n${t.task}`)
  const plain = (k) => tasks[k]
  const withSiblings = (k) => ({ ...tasks[k], siblingTasks: siblingsOf(k) })
  const prepareTimes = []
  let prepared
  for (let i = 0; i < 7; i++) {
    const started = performance.now()
    prepared = prepareThread(messages)
    prepareTimes.push(performance.now() - started)
  }
  const cases = [
    ['prepared thread, no sibling tasks', plain, prepared],
    [`prepared thread, ${SUBAGENTS - 1} sibling tasks, a set no spawn before asked for`, withSiblings, prepared],
    ['the thread as given (messages), no sibling tasks', plain, messages],
    [`the thread as given, ${SUBAGENTS - 1} sibling tasks`, withSiblings, messages],
    ['no thread (config and files only)', (k) => ({ ...plain(k), files: { 'README.md': records[k].task } }), undefined],
  ]
  const rows = []
  const medians = []
  for (const [name, configOf, thread] of cases) {
    const options = {
      fullThreadContext: thread,
      budget: { contextTokens: CONTEXT_TOKENS, resultTokens: RESULT_TOKENS },
      run: () => result,
    }
    for (let k = 20; k < 22; k++) await spawnSubagent(configOf(k), options)
    globalThis.gc?.()
    const runs = []
    for (let k = 0; k < 15; k++) runs.push((await spawnSubagent(configOf(k), options)).metrics)
    const m = (key) => median(runs.map((r) => r[key]))
    const rest = median(runs.map((r) => r.overheadMs - r.isolationMs - r.filterMs))
    medians.push(m('overheadMs'))
    rows.push([name, fmt(m('overheadMs'), 2), fmt(m('isolationMs'), 2), fmt(m('filterMs'), 2), fmt(rest, 2)])
  }
  const prepareMs = median(prepareTimes)

  // Whole batches, as `spawnParallel` runs them: it prepares the thread, and gives each
  // spawn the others' tasks as siblings; all ten ask for the same set, scored once.
  const batchRows = []
  const perSpawn = {}
  for (const concurrency of [1, SUBAGENTS]) {
    const times = []
    for (let b = 0; b < 7; b++) {
      const configs = tasks.slice(b * 3, b * 3 + SUBAGENTS).map((t) => ({ ...t }))
      const { metrics } = await spawnParallel(configs, {
        fullThreadContext: messages,
        concurrency,
        budget: { contextTokens: CONTEXT_TOKENS, resultTokens: RESULT_TOKENS },
        run: () => result,
      })
      if (b > 0) times.push(metrics.durationMs) // the first batch warms up
    }
    perSpawn[concurrency] = median(times) / SUBAGENTS
    batchRows.push([`${SUBAGENTS} subagents, concurrency ${concurrency}`, fmt(median(times), 1), fmt(perSpawn[concurrency], 2)])
  }

  say('### The package’s own time per spawn')
  say()
  say(
    `A parent thread of ${tokens.toLocaleString('en-US')} tokens (o200k_base, by \`countMessageTokens\`): whole transcript prefixes from the first records, ${messages.length} messages. \`spawnSubagent\` with a context budget of ${CONTEXT_TOKENS.toLocaleString('en-US')} and a result budget of ${RESULT_TOKENS.toLocaleString('en-US')} tokens; \`run\` answers at once with the last eight messages of a transcript, so everything measured is the package: isolating (async, on the libuv pool: extracting from the thread), rendering and counting the prompt, filtering the result, the event. Each spawn has a task of its own (the first records' tasks in turn); with siblings, the next ${SUBAGENTS - 1} tasks, so no spawn reuses scores kept from an earlier one. Medians of 15 spawns after 2 warm-ups; \`overheadMs = durationMs - runMs\` from each outcome's metrics. A prepared thread (\`prepareThread\`: sanitized, counted, segmented and indexed once) is what \`spawnParallel\` gives each spawn; a spawn given the thread as it is does all of that itself.`,
  )
  say()
  say(table(['case', 'overhead ms', 'of which isolation ms', 'filter ms', 'the rest: prompt, counting, event ms'], rows))
  say()
  say(`Preparing the thread once (\`prepareThread\`, synchronous, median of 7): **${fmt(prepareMs, 2)} ms**.`)
  say()
  say(
    `Whole batches: \`spawnParallel\` over ${SUBAGENTS} tasks with the thread as given (it prepares the thread once, and gives each spawn the other ${SUBAGENTS - 1} tasks as siblings; the ten spawns ask for one set of tasks, scored once), medians of 6 batches of different tasks after one warm-up. Per spawn is the batch's time over ${SUBAGENTS}: preparing, scoring, isolating, prompts, filters and events all included; \`run\` takes no time.`,
  )
  say()
  say(table(['batch', 'batch ms', 'per spawn ms'], batchRows))
  say()
  say(`- ${bar(medians[0] <= 5, `the package's own overhead per spawn ≤ 5 ms median on a 100,000-token parent thread`)} (measured: ${fmt(medians[0], 2)} ms a spawn from the prepared thread, without siblings; in a whole batch of ${SUBAGENTS}, preparing included: ${fmt(perSpawn[1], 2)} ms a spawn one at a time, ${fmt(perSpawn[SUBAGENTS], 2)} ms at concurrency ${SUBAGENTS})`)
  say()
}

function syntheticTree(dir) {
  for (let a = 0; a < 40; a++) {
    for (let b = 0; b < 25; b++) {
      const d = join(dir, `pkg-${a}`, `mod-${b}`)
      mkdirSync(d, { recursive: true })
      for (let c = 0; c < 20; c++) writeFileSync(join(d, `file-${c}.ts`), '')
    }
  }
  for (let a = 0; a < 200; a++) {
    const d = join(dir, 'node_modules', `dep-${a}`, 'lib')
    mkdirSync(d, { recursive: true })
    for (let c = 0; c < 50; c++) writeFileSync(join(d, `f${c}.js`), '')
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'big', dependencies: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`dep-${i}`, '^1.0.0'])) }))
}

async function architecture(say) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-arch-'))
  try {
    syntheticTree(dir)
    const rows = []
    for (const [name, path] of [
      ['synthetic: 20,000 source files in 1,000 directories, 10,000 files in node_modules', dir],
      ['this repository (target/ and node_modules/ ignored)', root],
    ]) {
      await ArchitecturalContext.fromProject(path)
      const times = []
      let context
      for (let i = 0; i < 5; i++) {
        const started = performance.now()
        context = await ArchitecturalContext.fromProject(path)
        times.push(performance.now() - started)
      }
      rows.push([name, fmt(median(times), 1), context.projectStructure.split('\n').length, Object.keys(context.dependencies).length])
    }
    say('### ArchitecturalContext.fromProject')
    say()
    say('Depth 3, 25 entries per directory, 2,000 tokens at most (the defaults). Medians of 5 runs after one warm-up.')
    say()
    say(table(['tree', 'ms', 'structure lines', 'dependencies'], rows))
    say()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function run() {
  const lines = []
  const say = (s = '') => lines.push(s)
  const records = loadJsonl('swe-openhands.jsonl.gz')
  say('## spawnSubagent and spawnParallel')
  say()
  await growth(say, records)
  await overhead(say, records)
  await architecture(say)
  return lines.join('\n')
}

// `node bench/spawn.mjs` runs this section alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(await run())
