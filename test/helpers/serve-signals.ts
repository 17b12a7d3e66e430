import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { scratchDir } from './provider.js'

/** Each test starts one or two node processes; a loaded runner can take seconds to start one. */
const PROCESS_TEST_MS = 60_000
const SCENARIO = 'scenario: hello\nturns:\n  - text: "hello from serve"\n'

interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly port: number
  stderr(): string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Spawns `argv` (a command that runs `vitest-harness serve …`, possibly under a shell) and waits for the handshake line. */
function startServing(argv: readonly string[], cwd: string): Promise<Running> {
  const child = spawn(argv[0] as string, argv.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })))
  return new Promise((resolveRunning, reject) => {
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const newline = stdout.indexOf('\n')
      if (newline === -1) return
      const { base_url: baseUrl } = JSON.parse(stdout.slice(0, newline)) as { base_url: string }
      resolveRunning({ child, baseUrl, port: Number(new URL(baseUrl).port), stderr: () => stderr, exit })
    })
    void exit.then(({ code }) => reject(new Error(`serve exited ${code} before its handshake: ${stderr}`)))
  })
}

/** Resolves true once nothing listens on the port (within `ms`), false if something still does. */
async function portClosed(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolveOpen) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolveOpen(true)))
      socket.once('error', () => resolveOpen(false))
    })
    if (!open) return true
    await sleep(100)
  }
  return false
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not happen within ${ms} ms`)))])
}

/**
 * The signal and failure behaviour of `serve` as a process: `command` is how to run the CLI
 * (the built bin, or the sources through tsx).
 */
export function describeServeAsProcess(label: string, command: readonly string[]): void {
  describe(`${label}: serve as a process`, () => {
    const fixture = () => {
      const dir = scratchDir('vh-serve-')
      writeFileSync(join(dir, 'hello.yaml'), SCENARIO)
      return dir
    }

    it.each(['SIGTERM', 'SIGINT'] as const)('stops on the first %s: exit 0, the port closed', async (signal) => {
      const dir = fixture()
      const served = await startServing([...command, 'serve', '--scenario', 'hello.yaml'], dir)
      const answer = await fetch(`${served.baseUrl}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' })
      expect(answer.status).toBe(200)
      served.child.kill(signal)
      expect(await withTimeout(served.exit, 5_000, `exit after one ${signal}`)).toEqual({ code: 0, signal: null })
      expect(await portClosed(served.port, 1_000)).toBe(true)
    }, PROCESS_TEST_MS)

    it('stops when its parent dies on the signal and leaves it orphaned (as under npx, whose sh dies on SIGTERM)', async () => {
      const dir = fixture()
      // `; true` keeps the shell from exec-ing node: the shell stays the parent, as npx's does.
      const script = `${command.map((part) => `'${part}'`).join(' ')} serve --scenario hello.yaml; true`
      const served = await startServing(['sh', '-c', script], dir)
      served.child.kill('SIGTERM')
      await withTimeout(served.exit, 5_000, 'the shell exiting')
      expect(await portClosed(served.port, 5_000)).toBe(true)
    }, PROCESS_TEST_MS)

    it('exits 2 with a coded error when it fails after listen (the request log cannot be written)', async () => {
      const dir = fixture()
      mkdirSync(join(dir, 'logs'))
      const served = await startServing([...command, 'serve', '--scenario', 'hello.yaml', '--record-requests', 'logs/requests.jsonl'], dir)
      // The log's path becomes a folder: the next append fails.
      mkdirSync(join(dir, 'logs', 'requests.jsonl'))
      const answer = await fetch(`${served.baseUrl}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' })
      expect(answer.status).toBe(200)
      expect(await withTimeout(served.exit, 5_000, 'exit after a post-listen failure')).toEqual({ code: 2, signal: null })
      expect(served.stderr()).toMatch(/error: VH_REQUEST_LOG_FAILED: the request log .*requests\.jsonl could not be written/)
      expect(await portClosed(served.port, 1_000)).toBe(true)
    }, PROCESS_TEST_MS)

    it('prints the control token once on stderr, or writes it to a 0600 file; the token opens a scope under --cassette-root', async () => {
      const dir = fixture()
      const printed = await startServing([...command, 'serve', '--scenario', 'hello.yaml'], dir)
      await sleep(100)
      const tokens = printed.stderr().match(/[0-9a-f]{64}/g) ?? []
      expect(tokens).toHaveLength(1)
      printed.child.kill('SIGTERM')
      await printed.exit

      const written = await startServing([...command, 'serve', '--scenario', 'hello.yaml', '--cassette-root', '.', '--control-token-file', 'token'], dir)
      const token = readFileSync(join(dir, 'token'), 'utf8').trim()
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600)
      expect(written.stderr()).not.toContain(token)
      const origin = new URL(written.baseUrl).origin
      const open = (authorization: string) => fetch(`${origin}/__vitest-harness/scopes`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify({ mode: 'replay', scenario: 'hello.yaml' }) })
      expect((await open(`Bearer ${token}`)).status).toBe(200)
      expect((await open(`Bearer ${tokens[0] ?? ''}`)).status).toBe(403)
      written.child.kill('SIGTERM')
      expect((await written.exit).code).toBe(0)
    }, PROCESS_TEST_MS)
  })
}
