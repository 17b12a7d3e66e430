import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from './args.js'
import type { CliIO } from './io.js'

/**
 * A file named on the command line, resolved against the working directory: a usage refusal
 * (exit 2) when it is missing or a directory. `what` names it in the sentence (`the workflow …`).
 */
export function inputFile(io: CliIO, path: string, what?: string): string {
  const absolute = resolve(io.cwd, path)
  const named = `${what ? `the ${what} ` : ''}${path}`
  let isDirectory: boolean
  try {
    isDirectory = statSync(absolute).isDirectory()
  } catch {
    throw new UsageError(`cannot read ${named}: no such file`)
  }
  if (isDirectory) throw new UsageError(`cannot read ${named}: it is a directory`)
  return absolute
}
