// subagent-context: the package's public entry.
export * from './native.js'
export * from './isolate.js'
export * from './sanitize.js'
