import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { join, resolve } from 'node:path'
import type { ProviderOptions } from '../../recorders/index.js'

const ROOT = resolve(import.meta.dirname, '..', '..')

/** What the provider child reports about itself (`stats`). */
export interface ProviderChildStats {
  readonly maxRssBytes: number
  readonly rssBytes: number
  readonly missesKept: number
  readonly missesDropped: number
  readonly requestsKept: number
}

/** A provider running in its own node process (test/helpers/provider-child.ts). */
export interface ProviderChild {
  readonly origin: string
  readonly baseUrl: string
  readonly controlToken: string
  readonly child: ChildProcess
  stats(): Promise<ProviderChildStats>
  close(): Promise<void>
}

/** Starts `startProvider(options)` in a child process (through tsx) and reads its first line. */
export async function spawnProvider(options: ProviderOptions): Promise<ProviderChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'helpers', 'provider-child.ts'), JSON.stringify(options)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]()
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()))
  const next = async (): Promise<string> => {
    const line = await Promise.race([lines.next(), exited.then(() => ({ done: true, value: undefined }) as const)])
    if (line.done) throw new Error(`the provider child exited: ${stderr}`)
    return line.value
  }
  const hello = JSON.parse(await next()) as { origin: string; baseUrl: string; controlToken: string }
  return {
    ...hello,
    child,
    async stats() {
      child.stdin?.write('stats\n')
      return JSON.parse(await next()) as ProviderChildStats
    },
    async close() {
      if (child.exitCode !== null) return
      child.stdin?.write('close\n')
      await exited
    },
  }
}
