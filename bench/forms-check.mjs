// Issue 18's other named cases, measured (not asserted): what the library does today on the
// "thread above", the coffee line, and sentences whose bounds need abbreviations or follow a
// citation marker. `node bench/forms-check.mjs` prints them; `cases()` returns the values.
import { pathToFileURL } from 'node:url'

import { countTokens, createIsolatedContext, extractRelevantContext, filterSubagentResult, renderPrompt } from '../dist/index.js'

const TASK = 'Validate emails in src/api/users.ts'
const SIBLING = 'Fix the memory leak in src/middleware/rate-limit.ts'
/** The thread: a plan that quotes both tasks, a read of the task's file, a note on it. */
const THREAD = [
  { role: 'user', content: 'Plan: A.1 Validate emails in src/api/users.ts. A.2 Fix the memory leak in src/middleware/rate-limit.ts.' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/api/users.ts"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'export function createUser(body) { db.users.insert({ email: body.email }) }' },
  { role: 'assistant', content: 'users.ts inserts body.email unchecked; createUser needs validation.' },
]
const FILE = 'export function createUser(body)'
const NOTE = 'users.ts inserts body.email unchecked'
const SIBLING_LINE = 'Fix the memory leak'

/** A short change summary with one off-task line and one relevant line that shares no word with the task. */
const COFFEE_RESULT = [
  'Added email validation to createUser in src/api/users.ts: a body whose email does not parse is rejected with a 400 and a message naming the field.',
  'Added three cases to __test__/users.spec.ts (missing email, malformed email, valid email).',
  'All 14 tests pass.',
  'Unrelated: the office coffee machine is broken again.',
].join('\n\n')
const COFFEE = 'coffee machine'
const TESTS = 'All 14 tests pass.'

/** Sentences whose bound needs abbreviation handling: the whole sentence must come back whole. */
const BOUND_TEXTS = [
  {
    name: 'Marie Louise v.',
    task: 'Which court freed the enslaved woman in Marie Louise v. Marot?',
    sentence: 'Marie Louise v. Marot was an 1836 freedom suit in which the Louisiana Supreme Court held that a slave taken to France, where slavery was illegal, became free.',
    others: ['The case is often cited beside later freedom suits.', 'New Orleans was then the largest slave market in the country.'],
  },
  {
    name: 'United States v.',
    task: 'What did the Supreme Court order President Richard Nixon to deliver?',
    sentence:
      'United States v. Nixon, 418 U.S. 683 (1974), was a landmark United States Supreme Court decision which resulted in a unanimous 8–0 ruling against President Richard Nixon, ordering him to deliver presidential tape recordings and other subpoenaed materials to the District Court.',
    others: ['The Watergate scandal began with a break-in in 1972.', 'Gerald Ford later pardoned him.'],
  },
]

/** A marker after the period belongs to the sentence before it, not to the next one. Both
 *  orders: with the off-task sentence first, a `[2]` read as the start of the next sentence
 *  would travel with the on-task sentence. The budget (40) holds the on-task sentence, its
 *  marker and its definition. */
const ON_TASK = 'The email field of createUser in src/api/users.ts is never validated. [1]'
const OFF_TASK = 'The build server was slow on Tuesday. [2]'
const AFTER_PERIOD = [
  { name: 'on-task first', result: `${ON_TASK} ${OFF_TASK}\n\n[1]: src/api/users.ts:12\n[2]: CI log` },
  { name: 'off-task first', result: `${OFF_TASK} ${ON_TASK}\n\n[1]: src/api/users.ts:12\n[2]: CI log` },
]
const AFTER_PERIOD_BUDGET = 40

export function cases() {
  const out = {}
  const plain = extractRelevantContext(THREAD, TASK)
  out.threadNoBudget = {
    fileKept: plain.relevantContext.includes(FILE),
    noteKept: plain.relevantContext.includes(NOTE),
    tokens: `${plain.metrics.extractedTokens} / ${plain.metrics.originalTokens}`,
    text: plain.relevantContext,
  }
  const withSibling = extractRelevantContext(THREAD, TASK, { siblingTasks: [SIBLING] })
  out.threadWithSibling = {
    siblingLineAbsent: !withSibling.relevantContext.includes(SIBLING_LINE),
    fileKept: withSibling.relevantContext.includes(FILE),
    noteKept: withSibling.relevantContext.includes(NOTE),
    tokens: `${withSibling.metrics.extractedTokens} / ${withSibling.metrics.originalTokens}`,
    text: withSibling.relevantContext,
  }
  const { isolatedContext } = createIsolatedContext({ taskId: 'A.1', task: TASK, siblingTasks: [SIBLING] }, THREAD)
  const prompt = renderPrompt(isolatedContext)
  out.isolated = { fileKept: prompt.includes(FILE), noteKept: prompt.includes(NOTE), siblingLineAbsent: !prompt.includes(SIBLING_LINE), relevantContext: isolatedContext.relevantContext ?? '' }

  const coffee = filterSubagentResult(COFFEE_RESULT, TASK)
  out.coffee = { coffeeBack: coffee.content.includes(COFFEE), testsKept: coffee.content.includes(TESTS), tokens: `${coffee.metrics.filteredTokens} / ${coffee.metrics.originalTokens}` }

  out.bounds = BOUND_TEXTS.map((c) => {
    const text = [c.sentence, ...c.others].join(' ')
    // Room for the whole sentence and a little more, not for the others.
    const budget = countTokens(c.sentence) + 4
    const extracted = extractRelevantContext(text, c.task, { maxTokens: budget })
    const filtered = filterSubagentResult(text, c.task, { maxTokens: budget })
    return {
      name: c.name,
      segments: extracted.metrics.segmentsTotal,
      sentences: 1 + c.others.length,
      extractWhole: extracted.relevantContext.includes(c.sentence),
      filterWhole: filtered.content.includes(c.sentence),
      extracted: extracted.relevantContext,
    }
  })

  out.afterPeriod = AFTER_PERIOD.map((c) => {
    const content = filterSubagentResult(c.result, TASK, { maxTokens: AFTER_PERIOD_BUDGET }).content
    return { name: c.name, sentenceWithMarker: content.includes(ON_TASK), strayMarker2: /\[2\](?!:)/.test(content), content }
  })
  return out
}

const yes = (b) => (b ? 'yes' : 'no')
const oneLine = (s) => JSON.stringify(s.length > 160 ? `${s.slice(0, 157)}…` : s)

/** The cases as lines of text (for the CLI) or markdown list items. */
function caseLines(c) {
  return [
    `thread above, no budget: file content kept ${yes(c.threadNoBudget.fileKept)}, note kept ${yes(c.threadNoBudget.noteKept)} (${c.threadNoBudget.tokens} tokens)`,
    `thread above, sibling task: sibling's line absent ${yes(c.threadWithSibling.siblingLineAbsent)}, file kept ${yes(c.threadWithSibling.fileKept)}, note kept ${yes(c.threadWithSibling.noteKept)} (${c.threadWithSibling.tokens} tokens)`,
    `createIsolatedContext on it (sibling given): file in the prompt ${yes(c.isolated.fileKept)}, note ${yes(c.isolated.noteKept)}, sibling's line absent ${yes(c.isolated.siblingLineAbsent)}`,
    `coffee line: comes back ${yes(c.coffee.coffeeBack)}; "All 14 tests pass." stays ${yes(c.coffee.testsKept)} (${c.coffee.tokens} tokens)`,
    ...c.bounds.map((b) => `${b.name}: ${b.segments} segments for ${b.sentences} sentences; whole sentence kept by extract ${yes(b.extractWhole)}, by filter ${yes(b.filterWhole)}; extract gave ${oneLine(b.extracted)}`),
    ...c.afterPeriod.map((a) => `marker after the period (${a.name}, budget ${AFTER_PERIOD_BUDGET}): on-task sentence kept with its [1] ${yes(a.sentenceWithMarker)}, the off-task [2] kept ${yes(a.strayMarker2)}; content ${oneLine(a.content)}`),
  ]
}

export const casesMarkdown = (c) => caseLines(c).map((l) => `- ${l}`).join('\n')

export function printCases(c) {
  console.log('\nnamed cases')
  for (const l of caseLines(c)) console.log(`  ${l}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printCases(cases())
