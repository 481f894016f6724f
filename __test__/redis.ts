// A real redis-server for the fleet specs: on a free loopback port, with no persistence,
// in a temporary directory; stopped by `stop()`. Missing `redis-server` fails loudly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RedisServer {
  host: '127.0.0.1'
  port: number
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export async function startRedis(): Promise<RedisServer> {
  const which = spawnSync('redis-server', ['--version'], { encoding: 'utf8' })
  if (which.error || which.status !== 0) {
    throw new Error(
      'The fleet specs need a real `redis-server` on PATH (Debian: `apt-get install -y redis-server`; `.ci/run` installs it). It was not found: ' +
        String(which.error ?? which.stderr),
    )
  }
  const dir = mkdtempSync(join(tmpdir(), 'subagent-redis-'))
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort()
    const child: ChildProcess = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let log = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d))
    const up = await waitUntilUp(port, child)
    if (up) {
      return {
        host: '127.0.0.1',
        port,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(rmDir(dir))
            child.once('exit', () => resolve(rmDir(dir)))
            child.kill('SIGKILL')
          }),
      }
    }
    child.kill('SIGKILL')
    if (attempt === 4) throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${log}`)
  }
  throw new Error('unreachable')
}

function rmDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/** Polls with PING over a raw socket until redis answers (at most ~10 s), or the child exits. */
async function waitUntilUp(port: number, child: ChildProcess): Promise<boolean> {
  const { connect } = await import('node:net')
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) return false
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.setTimeout(500)
      socket.once('connect', () => socket.write('PING\r\n'))
      socket.once('data', (d) => {
        socket.destroy()
        resolve(d.toString().startsWith('+PONG'))
      })
      socket.once('error', () => resolve(false))
      socket.once('timeout', () => {
        socket.destroy()
        resolve(false)
      })
    })
    if (ok) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return false
}
