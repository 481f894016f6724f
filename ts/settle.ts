// The promise conventions users expect of async functions: bad arguments reject
// instead of throwing synchronously, and an aborted call rejects with its signal's
// reason (an `AbortError` by default), as Node's own APIs do.

/** Runs a native async call whose last argument may hold a `signal`. */
export function settle<T>(options: { signal?: AbortSignal } | null | undefined, start: () => Promise<T>): Promise<T> {
  let signal: AbortSignal | undefined
  let promise: Promise<T>
  try {
    // Inside the `try`: a getter or Proxy trap on `options` may throw, and that too
    // must reject, not throw synchronously (__test__/hostile.spec.ts).
    signal = options?.signal
    if (signal?.aborted) return Promise.reject(signal.reason)
    promise = start()
  } catch (error) {
    return Promise.reject(error)
  }
  return promise.catch((error: unknown) => {
    throw signal?.aborted ? signal.reason : error
  })
}
