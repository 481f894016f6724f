// Crash safety of FileLedgerStore: a child process records completions in a loop and is
// killed with SIGKILL at random moments, 100 times, in one directory. After every kill the
// ledger must load, and hold every record the child had acknowledged.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'

import { FileLedgerStore, SubtaskLedger } from '../dist/index.js'

const KILLS = 100
const writer = join(import.meta.dirname, 'fixtures', 'ledger-writer.mjs')
const entry = join(import.meta.dirname, '..', 'dist', 'index.js')

/** A deterministic random sequence, so that a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
}

interface Acked {
  completions: string[]
  artifacts: Map<string, string>
  notes: Map<string, string>
}

/** Runs the writer until `delayMs` after it is ready, kills it with SIGKILL, returns what it acknowledged. */
function runAndKill(dir: string, tag: string, delayMs: number): Promise<Acked> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, dir, tag, entry], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const first = !out.includes('ready\n')
      out += d
      if (first && out.includes('ready\n')) setTimeout(() => child.kill('SIGKILL'), delayMs)
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer ${tag} ended with ${code ?? signal} before the kill: ${err}`))
      const acked: Acked = { completions: [], artifacts: new Map(), notes: new Map() }
      // Only whole lines: a line cut by the kill was not acknowledged.
      for (const line of out.split('\n').slice(0, -1)) {
        const [kind, a, b] = line.split(' ')
        if (kind === 'c') acked.completions.push(a!)
        if (kind === 'a') acked.artifacts.set(a!, b!)
        if (kind === 'n') acked.notes.set(a!, b!)
      }
      resolve(acked)
    })
  })
}

describe('FileLedgerStore under SIGKILL', () => {
  it(`loses nothing acknowledged, over ${KILLS} kills at random moments`, { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-crash-'))
    try {
      const next = random(7)
      const completions = new Set<string>()
      const artifacts = new Map<string, string>()
      const notes = new Map<string, string>()
      let reloads = 0
      for (let k = 0; k < KILLS; k++) {
        // Kill anywhere from at once to a few dozen writes in; the ledger grows run after run.
        const acked = await runAndKill(dir, `r${k}`, Math.floor(next() * 150))
        acked.completions.forEach((id) => completions.add(id))
        acked.artifacts.forEach((subtask, id) => artifacts.set(id, subtask))
        acked.notes.forEach((id, tag) => notes.set(tag, id))

        const ledger = await SubtaskLedger.open(new FileLedgerStore(dir))
        reloads++
        const have = new Set(ledger.completions().map((c) => c.subtaskId))
        const missing = [...completions].filter((id) => !have.has(id))
        expect(missing, `after kill ${k}`).toEqual([])
        const haveArtifacts = new Map(ledger.artifacts().map((a) => [a.id, a.subtaskId]))
        for (const [id, subtask] of artifacts) expect(haveArtifacts.get(id), `artifact ${id} after kill ${k}`).toBe(subtask)
        // The notes hold, per run, the last acknowledged id or a later one (saved but not yet acknowledged).
        const sections = new Map(ledger.noteSections().map((s) => [s.section, s.content]))
        for (const [tag, id] of notes) {
          const saved = sections.get(`Run ${tag}`)?.match(/Last completed: (\S+)/)?.[1]
          expect(saved && Number(saved.split('-')[1]) >= Number(id.split('-')[1]), `notes of ${tag} after kill ${k}`).toBe(true)
        }
      }
      expect(reloads).toBe(KILLS)
      // Enough happened for the test to mean something.
      expect(completions.size).toBeGreaterThan(KILLS)
      console.info(`ledger crash test: ${KILLS} kills, ${completions.size} acknowledged completions, ${artifacts.size} artifacts, ${notes.size} notes sections checked after every kill`)
      // Temporary files of killed writers are cleaned up by the next open.
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
