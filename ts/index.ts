// subagent-context: the package's public entry.
export * from './native.js'
