// The AbortSignal a subagent's `run` gets.

/**
 * A listener that throws on `abort` would surface as an uncaught exception in the parent
 * (EventTarget reports listener errors that way). The signal handed to `run` therefore
 * wraps the listeners added to it, so what they throw goes nowhere.
 */
type Listener = (event: Event) => void
type ListenerLike = Listener | { handleEvent(event: Event): void }

export function guardListeners(signal: AbortSignal): AbortSignal {
  const wrapped = new WeakMap<object, Listener>()
  const wrap = (listener: ListenerLike): Listener => {
    let w = wrapped.get(listener)
    if (!w) {
      w = function (this: unknown, event: Event) {
        try {
          if (typeof listener === 'function') listener.call(signal, event)
          else listener.handleEvent(event)
        } catch {
          // The subagent's own cleanup failed; the parent is not concerned.
        }
      }
      wrapped.set(listener, w)
    }
    return w
  }
  const add = EventTarget.prototype.addEventListener
  const remove = EventTarget.prototype.removeEventListener
  let onabort: ((this: AbortSignal, ev: Event) => unknown) | null = null
  let onabortWrapped: Listener | null = null
  Object.defineProperties(signal, {
    addEventListener: {
      value(type: string, listener: ListenerLike | null, options?: { once?: boolean; capture?: boolean; signal?: AbortSignal } | boolean) {
        if (listener === null || listener === undefined) return
        add.call(signal, type, typeof listener === 'function' || typeof listener === 'object' ? wrap(listener) : listener, options)
      },
    },
    removeEventListener: {
      value(type: string, listener: ListenerLike | null, options?: { capture?: boolean } | boolean) {
        if (listener === null || listener === undefined) return
        remove.call(signal, type, wrapped.get(listener) ?? listener, options)
      },
    },
    onabort: {
      get: () => onabort,
      set(value: unknown) {
        if (onabortWrapped) remove.call(signal, 'abort', onabortWrapped)
        onabort = typeof value === 'function' ? (value as typeof onabort) : null
        onabortWrapped = onabort ? wrap(onabort as Listener) : null
        if (onabortWrapped) add.call(signal, 'abort', onabortWrapped)
      },
    },
  })
  return signal
}

/** Why a spawn's controller aborted: its timer, its iteration limit, or the caller's signal. */
export type AbortCause = 'timeout' | 'iteration-limit' | 'aborted'

/**
 * One controller for a spawn's run, which remembers why it aborted first: `abort(cause,
 * reason)` does nothing once the signal has aborted, so a late timer does not relabel an
 * iteration-limit failure.
 */
export function causedAbort(): { signal: AbortSignal; abort: (cause: AbortCause, reason: unknown) => void; cause: () => AbortCause | undefined } {
  const controller = new AbortController()
  let first: AbortCause | undefined
  return {
    signal: controller.signal,
    abort: (cause, reason) => {
      if (controller.signal.aborted) return
      first = cause
      controller.abort(reason)
    },
    cause: () => first,
  }
}
