import { Readable } from 'node:stream'
import { cli } from '../../src/cli/main.js'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in-process with captured streams; `stdin` defaults to empty. */
export async function runCli(
  argv: string[],
  options: { stdin?: string | Buffer; cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await cli(argv, {
    stdout: { write: (chunk: string) => ((stdout += chunk), true) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
  })
  return { code, stdout, stderr }
}
