// Argument checks shared by every public function of the TypeScript layer: a bad argument
// is a TypeError (wrong type) or a RangeError (right type, out of range) whose message names
// the function, the parameter and what was expected, with Node's error codes.

/** What a value is, for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'undefined':
      return 'undefined'
    case 'string':
      return 'a string'
    case 'number':
      return `the number ${value}`
    case 'object':
      return 'an object'
    default:
      return `a ${typeof value}`
  }
}

/** Throws a `TypeError` naming `fn`, the parameter at `path`, what was expected and what came. */
export function fail(fn: string, path: string, expected: string, value: unknown): never {
  throw Object.assign(new TypeError(`${fn}: \`${path}\` must be ${expected}, got ${describe(value)}`), { code: 'ERR_INVALID_ARG_TYPE' })
}

/** Throws a `RangeError` naming `fn`, the parameter at `path` and the range expected. */
export function range(fn: string, path: string, expected: string, value: unknown): never {
  throw Object.assign(new RangeError(`${fn}: \`${path}\` must be ${expected}, got ${String(value)}`), { code: 'ERR_OUT_OF_RANGE' })
}

/** A whole number ≥ `min` (`Infinity` when allowed), or `undefined`. */
export function whole(fn: string, path: string, value: unknown, { min = 0, infinite = false, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined || value === null) return undefined
  const expected = `a whole number from ${min} to ${max.toLocaleString('en-US')}${infinite ? ' or Infinity' : ''}`
  if (typeof value !== 'number') fail(fn, path, expected, value)
  if (value === Infinity && infinite) return value
  if (!Number.isInteger(value) || value < min || value > max) range(fn, path, expected, value)
  return value
}

/** An object, or `{}` for `undefined`/`null`. */
export function optionalObject(fn: string, path: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) fail(fn, path, 'an object', value)
  return value as Record<string, unknown>
}
