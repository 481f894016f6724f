import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, SystemMessage, ToolMessage } from '@langchain/core/messages'
import { describe, expect, it } from 'vitest'

import {
  countMessageTokens,
  createIsolatedContext,
  extractRelevantContext,
  isLangChainMessage,
  spawnSubagent,
  toNativeMessages,
  type Message,
} from '../dist/index.js'

const langchain = () => [
  new SystemMessage('You orchestrate subagents.'),
  new HumanMessage('Task A.1: add input validation to src/api/users.ts. Task A.2: fix the README typo.'),
  new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'src/api/users.ts' } }] }),
  new ToolMessage({ content: 'export function createUser(body) { return db.insert(body) }', tool_call_id: 'c1', name: 'read_file' }),
  new AIMessage({ content: [{ type: 'text', text: 'createUser inserts the body unchecked. [INTERNAL] ask Ana later' }] }),
  new HumanMessage('The README typo is in the install section.'),
]

const openai: Message[] = [
  { role: 'system', content: 'You orchestrate subagents.' },
  { role: 'user', content: 'Task A.1: add input validation to src/api/users.ts. Task A.2: fix the README typo.' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/api/users.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', name: 'read_file', content: 'export function createUser(body) { return db.insert(body) }' },
  { role: 'assistant', content: [{ type: 'text', text: 'createUser inserts the body unchecked. [INTERNAL] ask Ana later' }] },
  { role: 'user', content: 'The README typo is in the install section.' },
]

describe('LangChain.js messages', () => {
  it('are recognized as instances, serialized and stored', () => {
    const messages = langchain()
    expect(messages.every(isLangChainMessage)).toBe(true)
    expect(JSON.parse(JSON.stringify(messages)).every(isLangChainMessage)).toBe(true)
    expect(mapChatMessagesToStoredMessages(messages).every(isLangChainMessage)).toBe(true)
    // Copied by spreading: the own fields without the class's getters and methods.
    expect(messages.map((m) => ({ ...m })).every(isLangChainMessage)).toBe(true)
    expect(openai.some(isLangChainMessage)).toBe(false)
  })

  it('convert to the OpenAI shape, one for one', () => {
    expect(toNativeMessages(langchain())).toEqual(openai)
    expect(toNativeMessages(JSON.parse(JSON.stringify(langchain())))).toEqual(openai)
    expect(toNativeMessages(mapChatMessagesToStoredMessages(langchain()))).toEqual(openai)
    expect(toNativeMessages(langchain().map((m) => ({ ...m })))).toEqual(openai)
    // Plain messages pass through as the same array.
    expect(toNativeMessages(openai)).toBe(openai)
  })

  it('count exactly as their OpenAI equivalents', () => {
    expect(countMessageTokens(langchain())).toBe(countMessageTokens(openai))
    expect(countMessageTokens(langchain().map((m) => ({ ...m })) as never)).toBe(countMessageTokens(openai))
    expect(countMessageTokens([...langchain().slice(0, 3), ...openai.slice(3)])).toBe(countMessageTokens(openai))
  })

  it('extract with tool pairs intact and return the caller’s own objects', () => {
    const messages = langchain()
    const before = JSON.stringify(messages)
    const task = 'A.1 add input validation to createUser in src/api/users.ts'
    const result = extractRelevantContext(messages, task, { siblingTasks: ['A.2 fix the README typo'], maxTokens: 120 })
    const expected = extractRelevantContext(openai, task, { siblingTasks: ['A.2 fix the README typo'], maxTokens: 120 })
    expect(result.relevantContext).toBe(expected.relevantContext)
    expect(result.relevantMessages!.length).toBe(expected.relevantMessages!.length)
    // The caller's own objects, but for a sanitized copy of the one with a marker.
    for (const m of result.relevantMessages!) if (!messages.includes(m)) expect(JSON.stringify(m)).toContain('unchecked. "')
    const kept = new Set(result.relevantMessages)
    expect(kept.has(messages[2]!)).toBe(kept.has(messages[3]!))
    expect(kept.has(messages[3]!)).toBe(true)
    expect(JSON.stringify(messages)).toBe(before)
  })

  it('come back as sanitized LangChain messages when they hold a marker', () => {
    for (const form of ['instance', 'serialized', 'stored'] as const) {
      const original = langchain()
      const messages =
        form === 'instance' ? original : form === 'serialized' ? JSON.parse(JSON.stringify(original)) : mapChatMessagesToStoredMessages(original)
      const before = JSON.stringify(messages)
      const result = extractRelevantContext(messages, 'Why does createUser insert the body unchecked?', {})
      const marked = result.relevantMessages!.find((m) => JSON.stringify(m).includes('unchecked'))
      expect(marked, form).toBeDefined()
      expect(messages).not.toContain(marked)
      expect(isLangChainMessage(marked)).toBe(true)
      expect(JSON.stringify(marked)).not.toMatch(/INTERNAL|ask Ana/)
      expect(toNativeMessages([marked!])[0]).toMatchObject({ role: 'assistant' })
      if (form === 'instance') expect(marked).toBeInstanceOf(AIMessage)
      expect(JSON.stringify(messages)).toBe(before)
    }
  })

  it('work as the thread of createIsolatedContext and spawnSubagent', async () => {
    const config = { taskId: 'A.1', task: 'Add input validation to createUser in src/api/users.ts', siblingTasks: ['A.2 fix the README typo'] }
    const isolated = createIsolatedContext(config, langchain())
    expect(isolated.isolatedContext.relevantContext).toBe(createIsolatedContext(config, openai).isolatedContext.relevantContext)
    expect(isolated.isolatedContext.relevantContext).toContain('createUser')
    expect(isolated.isolatedContext.relevantContext).not.toContain('ask Ana')
    let prompt = ''
    const outcome = await spawnSubagent(config, {
      fullThreadContext: langchain(),
      run: (input) => {
        prompt = input.prompt
        return [new AIMessage('Validation added to createUser.')] as never
      },
    })
    expect(outcome.content).toBe('Validation added to createUser.')
    expect(prompt).toContain('db.insert(body)')
    expect(prompt).not.toContain('README typo')
  })
})
