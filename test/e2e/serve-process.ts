import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..', '..')
const BIN = join(ROOT, 'bin', 'vitest-harness.js')

/** `vitest-harness serve` from the built bin, as a harness's test would run it. */
export interface ServeProcess {
  readonly baseUrl: string
  readonly scenario: string
  readonly child: ChildProcess
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/** Starts the built `serve` command and reads its one handshake line. */
export function startServe(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolveServe, reject) => {
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const newline = stdout.indexOf('\n')
      if (newline === -1) return
      const handshake = JSON.parse(stdout.slice(0, newline)) as { base_url: string; scenario: string }
      const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)))
      resolveServe({
        baseUrl: handshake.base_url,
        scenario: handshake.scenario,
        child,
        stop: () => {
          child.kill('SIGTERM')
          return exited
        },
      })
    })
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before its handshake: ${stderr}`)))
  })
}
