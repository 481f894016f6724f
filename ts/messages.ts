// LangChain.js messages beside the three plain formats. The native core reads OpenAI
// Chat, Anthropic Messages and Vercel AI SDK messages; `@langchain/core` message objects
// (`HumanMessage`, `AIMessage`, `SystemMessage`, `ToolMessage`, … and their serialized
// `{ lc: 1, type: 'constructor', id: [..., 'HumanMessage'], kwargs }` form, the
// `{ type, data }` form of `mapChatMessagesToStoredMessages`, and the flat `{ type,
// content, … }` form of LangGraph's API) are converted here to the
// OpenAI shape, one message for one message, so indices into the converted list are
// indices into the caller's. The package does not depend on `@langchain/core`: messages
// are recognized by shape.
import type { Message, OpenAIMessage } from '../index.js'
import { cleanMessage } from './clean-messages.js'

/**
 * A `@langchain/core` message instance (`HumanMessage`, `AIMessage`, `SystemMessage`,
 * `ToolMessage`, `FunctionMessage`, `ChatMessage`, …), typed by the parts this package
 * reads: its type (`getType()`, or `_getType()` in older versions), `content` (a string or
 * content parts), `name`, `tool_calls` (`{ id, name, args }`), `tool_call_id`.
 */
export type LangChainMessageLike = { getType(): string; content: unknown } | { _getType(): string; content: unknown }

/** A serialized LangChain message: `JSON.parse(JSON.stringify(new HumanMessage(...)))`. */
export interface SerializedLangChainMessage {
  lc: number
  type: 'constructor'
  /** e.g. `['langchain_core', 'messages', 'HumanMessage']` */
  id: string[]
  kwargs: { content: unknown }
}

/** A stored LangChain message (`mapChatMessagesToStoredMessages`): `{ type: 'human', data: { content, … } }`. */
export interface StoredLangChainMessage {
  type: string
  data: { content: unknown }
}

/**
 * A LangChain message as LangGraph's API and SDK hand it over, its fields flat:
 * `{ type: 'human', content, … }`, `{ type: 'ai', content, tool_calls: [{ id, name, args }] }`,
 * `{ type: 'tool', content, tool_call_id }`.
 */
export interface FlatLangChainMessage {
  type: 'human' | 'ai' | 'system' | 'developer' | 'tool' | 'function'
  content: unknown
  tool_calls?: ReadonlyArray<{ id?: string; name: string; args?: unknown }>
  tool_call_id?: string
  name?: string | null
}

/** Any LangChain.js message form this package accepts. */
export type LangChainMessage = LangChainMessageLike | SerializedLangChainMessage | StoredLangChainMessage | FlatLangChainMessage

/** A message in any format the package accepts: the three plain ones or LangChain's. */
export type AnyMessage = Message | LangChainMessage

/** A thread as the package accepts it: text, or messages in any accepted format. */
export type Thread = string | readonly AnyMessage[]

const ROLE_OF_TYPE: Record<string, string> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
  function: 'function',
}

const TYPE_OF_CLASS: Record<string, string> = {
  HumanMessage: 'human',
  HumanMessageChunk: 'human',
  AIMessage: 'ai',
  AIMessageChunk: 'ai',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  FunctionMessage: 'function',
  FunctionMessageChunk: 'function',
  ChatMessage: 'generic',
  ChatMessageChunk: 'generic',
  RemoveMessage: 'remove',
}

/**
 * The fields of a LangChain message in its flat form (`BaseMessage` and its kinds), and the
 * own fields of an instance copied by spreading (`{ ...message }`: `lc_kwargs`, `metadata`, …,
 * its getters and methods left behind).
 */
const FLAT_FIELDS = new Set([
  'lc_serializable',
  'lc_kwargs',
  'lc_namespace',
  'metadata',
  'type',
  'content',
  'id',
  'name',
  'additional_kwargs',
  'response_metadata',
  'tool_calls',
  'invalid_tool_calls',
  'usage_metadata',
  'tool_call_id',
  'artifact',
  'status',
  'example',
  'lc_direct_tool_output',
])

/** A LangChain message's type and fields, or `undefined` for anything else. */
function langChainFields(m: unknown): { type: string; fields: Record<string, unknown> } | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return undefined
  const o = m as Record<string, unknown>
  // Plain messages have a `role`; LangChain's never do (ChatMessage keeps it in its fields,
  // but also has `_getType`), so a `role` rules LangChain out before any getter is called.
  if (typeof o.getType === 'function' || typeof o._getType === 'function') {
    const type = typeof o.getType === 'function' ? (o.getType as () => unknown).call(m) : (o._getType as () => unknown).call(m)
    if (typeof type === 'string') return { type, fields: o }
    return undefined
  }
  if ('role' in o) return undefined
  if (o.lc === 1 && o.type === 'constructor' && Array.isArray(o.id) && typeof o.kwargs === 'object' && o.kwargs !== null) {
    const name = o.id[o.id.length - 1]
    const type = typeof name === 'string' ? TYPE_OF_CLASS[name] : undefined
    if (type) return { type, fields: o.kwargs as Record<string, unknown> }
    return undefined
  }
  if (typeof o.type === 'string' && typeof o.data === 'object' && o.data !== null && 'content' in (o.data as object)) {
    return { type: o.type === 'chat' ? 'generic' : o.type, fields: o.data as Record<string, unknown> }
  }
  // The flat form LangGraph's API and SDK hand over: its type names a LangChain message's,
  // and it holds a message's fields only (a log's row such as a Claude Code transcript's
  // `{ type: 'system', content, uuid, level, … }` is no message).
  if (typeof o.type === 'string' && Object.hasOwn(ROLE_OF_TYPE, o.type) && 'content' in o && Object.keys(o).every((k) => FLAT_FIELDS.has(k))) {
    return { type: o.type, fields: o }
  }
  return undefined
}

/** Whether `m` is a LangChain.js message in one of the forms the package accepts. */
export function isLangChainMessage(m: unknown): m is LangChainMessage {
  try {
    return langChainFields(m) !== undefined
  } catch {
    return false
  }
}

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: unknown } | { type: 'thinking'; thinking: string }

/**
 * LangChain content (a string or parts) as OpenAI content: text parts, images, and
 * thinking / reasoning blocks as thinking (counted, never passed on: the native reader
 * marks them internal); tool-use parts are left out (`tool_calls` carries them).
 * `reasoning` is a reasoning text kept beside the content (`additional_kwargs.reasoning_content`).
 */
function content(value: unknown, reasoning?: unknown): string | Part[] {
  if (typeof reasoning === 'string' && reasoning !== '') {
    const rest = content(value)
    return [{ type: 'thinking', thinking: reasoning }, ...(typeof rest === 'string' ? [{ type: 'text' as const, text: rest }] : rest)]
  }
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return ''
  const parts: Part[] = []
  for (const p of value) {
    if (typeof p === 'string') parts.push({ type: 'text', text: p })
    else if (typeof p === 'object' && p !== null) {
      const part = p as Record<string, unknown>
      if ((part.type === 'text' || part.type === 'text_delta') && typeof part.text === 'string') parts.push({ type: 'text', text: part.text })
      else if (part.type === 'image_url') parts.push({ type: 'image_url', image_url: part.image_url })
      else if (part.type === 'thinking' && typeof part.thinking === 'string') parts.push({ type: 'thinking', thinking: part.thinking })
      else if (part.type === 'reasoning' && typeof part.reasoning === 'string') parts.push({ type: 'thinking', thinking: part.reasoning })
      else if (part.type === 'reasoning' && typeof part.text === 'string') parts.push({ type: 'thinking', thinking: part.text })
    }
  }
  return parts
}

function toolCalls(fields: Record<string, unknown>): OpenAIMessage['tool_calls'] | undefined {
  const calls = fields.tool_calls
  if (Array.isArray(calls) && calls.length > 0) {
    return calls.map((c: Record<string, unknown>, i) => ({
      id: typeof c.id === 'string' && c.id !== '' ? c.id : `call_${i}`,
      type: 'function' as const,
      function: {
        name: String(c.name ?? ''),
        arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}),
      },
    }))
  }
  // Older LangChain (and messages built from OpenAI output) keep them in additional_kwargs.
  const extra = fields.additional_kwargs as Record<string, unknown> | undefined
  const old = extra?.tool_calls
  if (Array.isArray(old) && old.length > 0) return old as OpenAIMessage['tool_calls']
  return undefined
}

/** One LangChain message as an OpenAI Chat message. */
function toOpenAI(type: string, fields: Record<string, unknown>): OpenAIMessage {
  const role = type === 'generic' ? String(fields.role ?? 'user') : (ROLE_OF_TYPE[type] ?? type)
  const extra = fields.additional_kwargs as Record<string, unknown> | undefined
  const out: OpenAIMessage = { role, content: content(fields.content, extra?.reasoning_content) as OpenAIMessage['content'] }
  if (typeof fields.name === 'string' && fields.name !== '') out.name = fields.name
  if (role === 'assistant') {
    const calls = toolCalls(fields)
    if (calls) out.tool_calls = calls
  }
  if (role === 'tool' && typeof fields.tool_call_id === 'string') out.tool_call_id = fields.tool_call_id
  return out
}

/**
 * `messages` with every LangChain message converted to the OpenAI shape, one for one and
 * in order. The caller's array is returned as it is when it holds none (nothing copied).
 * Never mutates its input.
 */
export function toNativeMessages(messages: readonly AnyMessage[]): Message[] {
  // Not an array: the native call reports it, naming its own parameter.
  if (!Array.isArray(messages)) return messages as never
  let out: Message[] | undefined
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    const lc = langChainFields(m)
    if (lc === undefined) {
      if (out) out.push(m as Message)
      continue
    }
    out ??= messages.slice(0, i) as Message[]
    out.push(toOpenAI(lc.type, lc.fields))
  }
  return out ?? (messages as Message[])
}

/** A thread for the native calls: messages through `toNativeMessages`, anything else as it is. */
export function toNativeThread<T>(thread: T): T extends readonly AnyMessage[] ? Message[] : T {
  return (Array.isArray(thread) ? toNativeMessages(thread) : thread) as never
}

/**
 * `message`, or a sanitized copy of it when it holds an internal marker or a thinking block
 * (see `cleanMessage`). A LangChain message stays one: an instance is rebuilt by its own
 * constructor (so its serialized form carries only the clean content), the serialized and
 * stored forms are copied with clean content. The caller's object is never changed.
 * `undefined` for an item that is nothing but reasoning (a Responses `reasoning` item).
 */
export function cleanAnyMessage<M>(message: M): M | undefined {
  const lc = langChainFields(message)
  if (lc === undefined) return cleanMessage(message as Message) as M | undefined
  const probe = { role: 'user', content: lc.fields.content } as Message
  const cleaned = cleanMessage(probe)
  if (cleaned === probe || cleaned === undefined) return message
  const content = (cleaned as { content: unknown }).content
  const m = message as Record<string, unknown>
  if (typeof m.getType === 'function' || typeof m._getType === 'function') {
    const kwargs = (typeof m.lc_kwargs === 'object' && m.lc_kwargs !== null ? m.lc_kwargs : {}) as Record<string, unknown>
    const Ctor = (m as { constructor?: new (fields: unknown) => M }).constructor
    try {
      if (typeof Ctor === 'function' && (Ctor as unknown) !== Object) return new Ctor({ ...kwargs, content })
    } catch {
      // A constructor that wants other arguments: copy the instance instead.
    }
    return Object.assign(Object.create(Object.getPrototypeOf(message)), message, { content, lc_kwargs: { ...kwargs, content } }) as M
  }
  if ('kwargs' in m) return { ...m, kwargs: { ...(m.kwargs as object), content } } as M
  if (lc.fields === m) return { ...m, content } as M
  return { ...m, data: { ...(m.data as object), content } } as M
}
