// ArchitecturalContext.fromProject: what every subagent of a project should know about
// it, read from the project itself and bounded in tokens. The directory tree is walked
// breadth-first to a depth limit, skipping `.git`, `node_modules`, `target`, `dist` and
// what the root `.gitignore` ignores, and never reading more than a bounded number of
// directory entries, so a large repository costs milliseconds, not a full walk.
import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'

import * as native from '../index.js'
import type { ArchitecturalContext as ArchitecturalContextShape } from '../index.js'
import { describe } from './args.js'

/** The seed ADR's architectural context (see `ArchitecturalContext.fromProject`). */
export type ArchitecturalContext = ArchitecturalContextShape

export interface FromProjectOptions {
  /** Directory levels shown below the root. @default 3 */
  maxDepth?: number
  /** Entries shown per directory; the rest are summed up as `… N more`. @default 25 */
  maxEntriesPerDir?: number
  /** Cap on the whole context's exact `o200k_base` tokens (tree, dependencies, ADRs, conventions). @default 2000 */
  maxTokens?: number
  /** ADRs listed at most (the most recent by file name). @default 12 */
  maxAdrs?: number
  /** How task ids are written in this project, e.g. `A.<track>.<step>`. @default '' */
  trackNomenclature?: string
}

const ALWAYS_IGNORED = new Set(['.git', 'node_modules', 'target', 'dist', '.DS_Store'])
const ADR_DIRS = ['docs/adr', 'docs/adrs', 'docs/ADR', 'docs/decisions', 'docs/architecture/decisions', 'doc/adr', 'adr', 'adrs', 'ADR']
/** Directories read at most while walking: the walk stops there on a huge repository. */
const MAX_DIRS_READ = 400

// ---------------------------------------------------------------------------------------------
// .gitignore

interface IgnoreRule {
  regex: RegExp
  negate: boolean
  dirOnly: boolean
}

/** A gitignore pattern as a regular expression over the path relative to the root. */
function globToRegex(pattern: string, anchored: boolean): RegExp {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` any directories, `/**` everything inside, `**` anything.
        if (pattern[i + 2] === '/') {
          re += '(?:.*/)?'
          i += 2
        } else {
          re += '.*'
          i += 1
        }
      } else re += '[^/]*'
    } else if (ch === '?') re += '[^/]'
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 1)
      if (end < 0) re += '\\['
      else {
        const body = pattern.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')
        re += `[${body}]`
        i = end
      }
    } else if (ch === '\\' && i + 1 < pattern.length) {
      re += pattern[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`${anchored ? '^' : '^(?:.*/)?'}${re}(?:/.*)?$`)
}

function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = []
  for (let line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue
    line = line.replace(/(?<!\\)\s+$/, '')
    if (line === '') continue
    let negate = false
    if (line.startsWith('!')) {
      negate = true
      line = line.slice(1)
    }
    let dirOnly = false
    if (line.endsWith('/')) {
      dirOnly = true
      line = line.slice(0, -1)
    }
    // A slash at the start or in the middle anchors the pattern at the root.
    const anchored = line.includes('/')
    if (line.startsWith('/')) line = line.slice(1)
    if (line === '') continue
    rules.push({ regex: globToRegex(line, anchored), negate, dirOnly })
  }
  return rules
}

function ignored(rules: IgnoreRule[], path: string, isDir: boolean): boolean {
  let result = false
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue
    if (r.regex.test(path)) result = !r.negate
  }
  return result
}

// ---------------------------------------------------------------------------------------------
// Reading

async function text(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return undefined
  }
}

interface Tree {
  /** Lines per depth limit: `lines[d]` is the tree shown to depth `d`. */
  render(depth: number): string
  /** Relative paths of every entry seen (files and directories). */
  seen: Set<string>
}

async function walk(root: string, maxDepth: number, perDir: number, rules: IgnoreRule[]): Promise<Tree> {
  type Node = { name: string; dir: boolean; children?: Node[]; more?: number; depth: number }
  const top: Node = { name: basename(root) || root, dir: true, depth: 0 }
  const seen = new Set<string>()
  let read = 0
  // Breadth first, so a depth limit and the directory cap cut the deepest levels first.
  const queue: { node: Node; rel: string }[] = [{ node: top, rel: '' }]
  while (queue.length > 0) {
    const { node, rel } = queue.shift()!
    if (node.depth >= maxDepth || read >= MAX_DIRS_READ) continue
    read++
    let entries
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true })
    } catch {
      continue
    }
    const kept: Node[] = []
    for (const e of entries) {
      if (ALWAYS_IGNORED.has(e.name)) continue
      const isDir = e.isDirectory()
      const path = rel ? `${rel}/${e.name}` : e.name
      if (ignored(rules, path, isDir)) continue
      seen.add(path)
      kept.push({ name: e.name, dir: isDir, depth: node.depth + 1 })
    }
    // Directories first, then files, each by name: the same tree on every platform.
    kept.sort((a, b) => Number(b.dir) - Number(a.dir) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    node.children = kept.slice(0, perDir)
    node.more = kept.length - node.children.length
    for (const child of node.children) if (child.dir) queue.push({ node: child, rel: rel ? `${rel}/${child.name}` : child.name })
  }
  return {
    seen,
    render(depth) {
      const lines = [`${top.name}/`]
      const visit = (node: Node, indent: string) => {
        if (!node.children || node.depth >= depth) return
        for (const child of node.children) {
          lines.push(`${indent}${child.name}${child.dir ? '/' : ''}`)
          if (child.dir) visit(child, `${indent}  `)
        }
        if (node.more) lines.push(`${indent}… ${node.more} more`)
      }
      visit(top, '  ')
      return lines.join('\n')
    },
  }
}

/** `name = "1.0"` and `name = { version = "1.0", … }` lines of a TOML table. */
function tomlTable(toml: string, table: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = toml.split(/\r?\n/)
  let inside = false
  for (const line of lines) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line)
    if (header) {
      inside = header[1]!.trim() === table
      continue
    }
    if (!inside) continue
    const m = /^\s*([A-Za-z0-9_.-]+)\s*=\s*(.+?)\s*$/.exec(line)
    if (!m) continue
    const value = m[2]!
    const plain = /^"([^"]*)"/.exec(value)
    const version = /version\s*=\s*"([^"]*)"/.exec(value)
    const path = /path\s*=\s*"([^"]*)"/.exec(value)
    const git = /git\s*=\s*"([^"]*)"/.exec(value)
    out[m[1]!] = plain?.[1] ?? version?.[1] ?? (path ? `path:${path[1]}` : git ? `git:${git[1]}` : value.includes('workspace') ? 'workspace' : '*')
  }
  return out
}

/** PEP 621 `dependencies = ["requests>=2", …]` under `[project]`. */
function pep621(toml: string): Record<string, string> {
  const out: Record<string, string> = {}
  const project = /^\s*\[project\]\s*$([\s\S]*?)(?=^\s*\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? ''
  const start = /^\s*dependencies\s*=\s*\[/m.exec(project)
  if (!start) return out
  // Strings until the list's own `]` (one inside a string, as in `"rich[jupyter]"`, does not end it).
  const token = /"([^"]*)"|'([^']*)'|(\])/g
  token.lastIndex = start.index + start[0].length
  for (let m = token.exec(project); m && !m[3]; m = token.exec(project)) {
    const spec = (m[1] ?? m[2]!).trim()
    const name = /^[A-Za-z0-9_.-]+/.exec(spec)?.[0] ?? spec
    out[name] = spec.slice(name.length).replace(/^\[[^\]]*\]/, '').trim() || '*'
  }
  return out
}

function goMod(mod: string): Record<string, string> {
  const out: Record<string, string> = {}
  const add = (line: string) => {
    const m = /^\s*([^\s/][^\s]*)\s+(v[^\s]+)/.exec(line)
    if (m && !line.trim().startsWith('//')) out[m[1]!] = m[2]!
  }
  for (const block of mod.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)) for (const line of block[1]!.split('\n')) add(line)
  for (const m of mod.matchAll(/^require\s+([^\s(][^\n]*)$/gm)) add(m[1]!)
  return out
}

async function dependencies(root: string): Promise<{ deps: Record<string, string>; found: string[] }> {
  const deps: Record<string, string> = {}
  const found: string[] = []
  const pkg = await text(join(root, 'package.json'))
  if (pkg !== undefined) {
    try {
      const p = JSON.parse(pkg) as Record<string, Record<string, string> | undefined>
      found.push('package.json')
      for (const group of ['dependencies', 'peerDependencies', 'devDependencies'] as const) {
        for (const [name, version] of Object.entries(p[group] ?? {})) if (typeof version === 'string' && !(name in deps)) deps[name] = version
      }
    } catch {
      // A broken package.json is named in the structure; its dependencies are unknown.
    }
  }
  const cargo = await text(join(root, 'Cargo.toml'))
  if (cargo !== undefined) {
    found.push('Cargo.toml')
    for (const table of ['dependencies', 'workspace.dependencies', 'dev-dependencies', 'build-dependencies']) {
      for (const [name, version] of Object.entries(tomlTable(cargo, table))) if (!(name in deps)) deps[name] = version
    }
  }
  const py = await text(join(root, 'pyproject.toml'))
  if (py !== undefined) {
    found.push('pyproject.toml')
    for (const [name, version] of Object.entries({ ...pep621(py), ...tomlTable(py, 'tool.poetry.dependencies') })) {
      if (name !== 'python' && !(name in deps)) deps[name] = version
    }
  }
  const go = await text(join(root, 'go.mod'))
  if (go !== undefined) {
    found.push('go.mod')
    for (const [name, version] of Object.entries(goMod(go))) if (!(name in deps)) deps[name] = version
  }
  return { deps, found }
}

/** `Title: first paragraph` of each ADR (the most recent `maxAdrs` by file name). */
async function adrs(root: string, maxAdrs: number): Promise<string[]> {
  for (const dir of ADR_DIRS) {
    let names: string[]
    try {
      names = (await readdir(join(root, dir))).filter((n) => /\.(md|markdown)$/i.test(n) && !/^(readme|index|template)/i.test(n))
    } catch {
      continue
    }
    names.sort()
    const out: string[] = []
    for (const name of names.slice(-maxAdrs)) {
      const body = (await text(join(root, dir, name))) ?? ''
      const lines = body.replace(/\r\n?/g, '\n').split('\n')
      const title = lines.find((l) => /^#\s+/.test(l))?.replace(/^#\s+/, '').trim() ?? name.replace(/\.(md|markdown)$/i, '')
      // The first paragraph of prose after the title: not a heading, not front matter, not a status line.
      const paragraphs = body
        .replace(/^---\n[\s\S]*?\n---\n/, '')
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter((p) => p && !p.startsWith('#') && !/^(\*\*)?(status|date|deciders|authors?)(\*\*)?\s*:/i.test(p) && !/^(accepted|proposed|superseded|deprecated|rejected)\b/i.test(p))
      const first = (paragraphs[0] ?? '').replace(/\s+/g, ' ')
      out.push(first ? `${title}: ${first}` : title)
    }
    return out
  }
  return []
}

function patterns(seen: Set<string>, found: string[], deps: Record<string, string>): string[] {
  const out: string[] = []
  const has = (p: string) => seen.has(p)
  if (has('tsconfig.json')) out.push('TypeScript (tsconfig.json)')
  if (found.includes('Cargo.toml')) out.push(deps.napi ? 'Rust crate with a Node binding (napi-rs)' : 'Rust crate (Cargo.toml)')
  if (found.includes('pyproject.toml')) out.push('Python project (pyproject.toml)')
  if (found.includes('go.mod')) out.push('Go module (go.mod)')
  const tests = ['__test__', '__tests__', 'test', 'tests', 'spec'].filter(has)
  const runner = ['vitest', 'jest', 'mocha', 'pytest'].find((t) => t in deps)
  if (tests.length || runner) out.push(`Tests${runner ? ` with ${runner}` : ''}${tests.length ? ` in ${tests.map((t) => `${t}/`).join(', ')}` : ''}`)
  if (has('.github/workflows') || has('.github')) out.push('CI in .github/workflows')
  for (const [file, what] of [
    ['.eslintrc.json', 'ESLint'],
    ['eslint.config.js', 'ESLint'],
    ['eslint.config.mjs', 'ESLint'],
    ['.prettierrc', 'Prettier'],
    ['biome.json', 'Biome'],
    ['rustfmt.toml', 'rustfmt'],
    ['.editorconfig', 'EditorConfig'],
  ] as const) {
    if (has(file) && !out.includes(`Formatting and lint: ${what}`)) out.push(`Formatting and lint: ${what}`)
  }
  for (const doc of ['DESIGN.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'AGENTS.md', 'CLAUDE.md']) if (has(doc)) out.push(`Read ${doc} before changing the design`)
  return out
}

function conventions(seen: Set<string>, found: string[]): string {
  const parts: string[] = []
  const files = [...seen].map((p) => p.split('/').pop()!)
  if (seen.has('tsconfig.json') || files.some((f) => /\.[cm]?[jt]sx?$/.test(f))) {
    const kebab = files.filter((f) => /^[a-z0-9]+(-[a-z0-9]+)+\.[cm]?[jt]sx?$/.test(f)).length
    const camel = files.filter((f) => /^[a-z]+[A-Z][A-Za-z0-9]*\.[cm]?[jt]sx?$/.test(f)).length
    parts.push(`TypeScript/JavaScript: camelCase functions and variables, PascalCase types and classes; ${kebab >= camel ? 'kebab-case' : 'camelCase'} file names`)
  }
  if (found.includes('Cargo.toml')) parts.push('Rust: snake_case functions and modules, PascalCase types, SCREAMING_SNAKE_CASE constants')
  if (found.includes('pyproject.toml') || files.some((f) => f.endsWith('.py'))) parts.push('Python: snake_case functions and modules, PascalCase classes (PEP 8)')
  if (found.includes('go.mod')) parts.push('Go: MixedCaps, exported names capitalized')
  return parts.join('; ')
}

// ---------------------------------------------------------------------------------------------

function whole(path: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'number') throw new TypeError(`ArchitecturalContext.fromProject: \`${path}\` must be a whole number ≥ ${min}, got ${describe(value)}`)
  if (!Number.isInteger(value) || value < min) throw new RangeError(`ArchitecturalContext.fromProject: \`${path}\` must be a whole number ≥ ${min}, got ${value}`)
  return value
}

/** Tokens of the context as the prompt renders it (approximately: its fields joined). */
function tokensOf(c: ArchitecturalContext): number {
  const deps = Object.entries(c.dependencies).map(([n, v]) => `- ${n}: ${v}`)
  return native.countTokens([c.projectStructure, ...c.keyPatterns, ...c.relevantAdrs, ...deps, c.namingConventions, c.trackNomenclature].join('\n'))
}

async function fromProject(root: string, options: FromProjectOptions = {}): Promise<ArchitecturalContext> {
  if (typeof root !== 'string' || root === '') throw new TypeError(`ArchitecturalContext.fromProject: \`root\` must be a directory path, got ${describe(root)}`)
  if (typeof options !== 'object' || options === null) throw new TypeError(`ArchitecturalContext.fromProject: \`options\` must be an object, got ${describe(options)}`)
  const maxDepth = whole('options.maxDepth', options.maxDepth, 3, 1)
  const perDir = whole('options.maxEntriesPerDir', options.maxEntriesPerDir, 25, 1)
  const maxTokens = whole('options.maxTokens', options.maxTokens, 2000, 50)
  const maxAdrs = whole('options.maxAdrs', options.maxAdrs, 12, 0)
  const trackNomenclature = options.trackNomenclature ?? ''
  if (typeof trackNomenclature !== 'string') throw new TypeError(`ArchitecturalContext.fromProject: \`options.trackNomenclature\` must be a string, got ${describe(trackNomenclature)}`)
  try {
    await readdir(root)
  } catch (error) {
    throw Object.assign(new Error(`ArchitecturalContext.fromProject: cannot read the project root ${root}: ${(error as Error).message}`, { cause: error }), {
      code: (error as { code?: string }).code,
    })
  }

  const rules = parseGitignore((await text(join(root, '.gitignore'))) ?? '')
  const [tree, { deps, found }, adrList] = await Promise.all([walk(root, maxDepth, perDir, rules), dependencies(root), adrs(root, maxAdrs)])
  const context: ArchitecturalContext = {
    projectStructure: tree.render(maxDepth),
    keyPatterns: patterns(tree.seen, found, deps),
    relevantAdrs: adrList,
    dependencies: deps,
    namingConventions: conventions(tree.seen, found),
    trackNomenclature,
  }

  // Within maxTokens: a shallower tree first, then shorter ADR paragraphs, then fewer
  // ADRs and dependencies, then a shallower tree still.
  let depth = maxDepth
  while (tokensOf(context) > maxTokens && depth > 1) context.projectStructure = tree.render(--depth)
  if (tokensOf(context) > maxTokens) context.relevantAdrs = context.relevantAdrs.map((a) => (a.length > 200 ? `${a.slice(0, 199).trimEnd()}…` : a))
  while (tokensOf(context) > maxTokens && context.relevantAdrs.length > 0) context.relevantAdrs = context.relevantAdrs.slice(1)
  const names = Object.keys(context.dependencies)
  while (tokensOf(context) > maxTokens && names.length > 0) {
    names.pop()
    context.dependencies = Object.fromEntries(names.map((n) => [n, deps[n]!]))
  }
  while (tokensOf(context) > maxTokens && context.keyPatterns.length > 0) context.keyPatterns = context.keyPatterns.slice(0, -1)
  if (tokensOf(context) > maxTokens) {
    // Only the root line and its first entries are left to cut, then the conventions.
    const lines = context.projectStructure.split('\n')
    while (tokensOf(context) > maxTokens && lines.length > 1) {
      lines.pop()
      context.projectStructure = lines.join('\n')
    }
    const parts = context.namingConventions ? context.namingConventions.split('; ') : []
    while (tokensOf(context) > maxTokens && parts.length > 0) {
      parts.pop()
      context.namingConventions = parts.join('; ')
    }
    // A root name longer than the whole budget: cut it.
    while (tokensOf(context) > maxTokens && context.projectStructure.length > 1) {
      context.projectStructure = `${context.projectStructure.slice(0, Math.floor(context.projectStructure.length * 0.8))}…`
    }
  }
  return context
}

/**
 * Builds the seed ADR's architectural context from a project directory: its structure
 * (depth-limited, ignoring `.git`, `node_modules`, `target`, `dist` and `.gitignore`d
 * paths), dependencies from `package.json`, `Cargo.toml`, `pyproject.toml` and `go.mod`,
 * ADR titles with their first paragraph, key patterns and naming conventions, within
 * `options.maxTokens`.
 */
export const ArchitecturalContext = { fromProject }
