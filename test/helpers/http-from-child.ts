import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'

const SCRIPT = join(resolve(import.meta.dirname), 'http-requests-child.mjs')

/** One raw HTTP request, as another process on the machine would send it. */
export interface RawRequest {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

export interface RawAnswer {
  readonly status: number
  readonly body: string
}

/** Sends the requests in order from a separate node process and returns their answers. */
export function requestsFromChild(requests: readonly RawRequest[]): Promise<RawAnswer[]> {
  return new Promise((resolveAnswers, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolveAnswers(JSON.parse(stdout) as RawAnswer[]) : reject(new Error(`the request child exited ${code}: ${stderr}`))))
    child.stdin.end(JSON.stringify(requests))
  })
}
