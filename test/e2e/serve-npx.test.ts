import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { isProcessAlive } from '../../recorders/provider/process-alive.js'

// `npx vitest-harness serve` from the packed package, installed into a fresh project, as a CI step
// runs it: npx is `npm exec` → `sh -c` → node. Whatever happens to the npx wrapper, the server
// must not outlive it.
const ROOT = resolve(import.meta.dirname, '..', '..')
let project = ''

beforeAll(() => {
  const packDir = mkdtempSync(join(tmpdir(), 'vh-pack-serve-'))
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[]
  project = mkdtempSync(join(tmpdir(), 'vh-npx-serve-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-user-project', private: true, type: 'module' }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(packDir, (packed[0] as { filename: string }).filename)], { cwd: project, stdio: 'pipe' })
  writeFileSync(join(project, 'hello.yaml'), 'scenario: hello\nturns:\n  - text: "hello from serve"\n')
}, 300_000)

/** Every process below `pid`, from `ps` (the wrapper's children are not ours to know otherwise). */
function descendants(pid: number): { pid: number; args: string }[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .flatMap((match) => (match ? [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] as string }] : []))
  const found: { pid: number; args: string }[] = []
  const walk = (parent: number): void => {
    for (const row of rows.filter((candidate) => candidate.ppid === parent)) {
      found.push(row)
      walk(row.pid)
    }
  }
  walk(pid)
  return found
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolveOpen(true)))
    socket.once('error', () => resolveOpen(false))
  })
}

/** Starts `npx vitest-harness serve`, reads its handshake, and finds the node process that serves. */
async function startNpxServe(): Promise<{ npx: ChildProcess; port: number; server: number }> {
  const npx = spawn('npx', ['--no-install', 'vitest-harness', 'serve', '--scenario', 'hello.yaml'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } })
  const handshake = await new Promise<string>((resolveLine, reject) => {
    let stdout = ''
    npx.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) resolveLine(stdout.slice(0, stdout.indexOf('\n')))
    })
    npx.once('exit', (code) => reject(new Error(`npx exited ${code} before the handshake`)))
  })
  const port = Number(new URL((JSON.parse(handshake) as { base_url: string }).base_url).port)
  const server = descendants(npx.pid as number).find((row) => /vitest-harness serve/.test(row.args) && /^\S*node\b/.test(row.args))
  if (!server) throw new Error(`no serving node process under npx ${npx.pid}: ${JSON.stringify(descendants(npx.pid as number))}`)
  return { npx, port, server: server.pid }
}

/** Polls for both: nothing listening on the port, and the server's pid dead; the time it took, or undefined. */
async function goneWithin(port: number, pid: number, ms: number): Promise<number | undefined> {
  const started = Date.now()
  while (Date.now() - started <= ms) {
    if (!isProcessAlive(pid) && !(await portOpen(port))) return Date.now() - started
    await sleep(50)
  }
  return undefined
}

describe('npx vitest-harness serve never outlives its npx wrapper', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal} to npx: the port closes and the server's pid is dead within 2 s`, async () => {
      const { npx, port, server } = await startNpxServe()
      expect(await portOpen(port)).toBe(true)
      const answer = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' })
      expect(answer.status).toBe(200)
      npx.kill(signal)
      const took = await goneWithin(port, server, 2_000)
      if (took === undefined) process.kill(server, 'SIGKILL')
      expect(took, `the server ${server} still ran 2 s after npx got ${signal}`).toBeDefined()
    }, 60_000)
  }
})

describe('serve --exit-on-stdin-close', () => {
  it('stops, exit 0 and the port closed, when the pipe to its stdin closes', async () => {
    const serve = spawn(process.execPath, [join(ROOT, 'bin', 'vitest-harness.js'), 'serve', '--scenario', 'hello.yaml', '--exit-on-stdin-close'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] })
    const exit = new Promise<number | null>((resolveExit) => serve.once('exit', (code) => resolveExit(code)))
    const handshake = await new Promise<string>((resolveLine) => {
      let stdout = ''
      serve.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('\n')) resolveLine(stdout.slice(0, stdout.indexOf('\n')))
      })
    })
    const port = Number(new URL((JSON.parse(handshake) as { base_url: string }).base_url).port)
    await sleep(300)
    expect(serve.exitCode).toBeNull()
    serve.stdin?.end()
    const took = await goneWithin(port, serve.pid as number, 2_000)
    expect(took).toBeDefined()
    expect(await exit).toBe(0)
  }, 60_000)
})
