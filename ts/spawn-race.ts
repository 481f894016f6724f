// A call raced against an AbortSignal: whichever comes first decides.

export type RaceResult = { value: unknown } | { error: unknown } | { aborted: true }

/** `call()` raced against `signal`: whichever comes first decides; no listener is left behind. */
export function raceCall(call: () => unknown, signal: AbortSignal): Promise<RaceResult> {
  return new Promise((resolve) => {
    let done = false
    const settle = (r: RaceResult) => {
      if (done) return
      done = true
      signal.removeEventListener('abort', onAbort)
      resolve(r)
    }
    const onAbort = () => settle({ aborted: true })
    if (signal.aborted) return settle({ aborted: true })
    signal.addEventListener('abort', onAbort)
    // `then` on a resolved promise: a synchronous throw in `call`, or a thenable whose
    // `then` throws, becomes a rejection here; both handlers are attached at once, so
    // a late rejection is never unhandled.
    Promise.resolve()
      .then(call)
      .then(
        (value) => settle({ value }),
        (error) => settle({ error }),
      )
  })
}
