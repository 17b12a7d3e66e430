import { resolve } from 'node:path'
import { checkInputFile, readBoundedFile } from '../util/read-input.js'
import type { CliIO } from './io.js'

/**
 * A file named on the command line, resolved against the working directory: a coded refusal
 * (exit 2, `VH_INPUT_MISSING`, `VH_INPUT_NOT_A_FILE`) when it is missing or a directory. `what`
 * names it in the sentence (`the workflow …`).
 */
export function inputFile(io: CliIO, path: string, what?: string): string {
  const absolute = resolve(io.cwd, path)
  checkInputFile(absolute, { what: what ?? 'file', shownAs: path })
  return absolute
}

/** Reads a file named on the command line, never more than `maxBytes` (see `readBoundedFile`). */
export function readInputFile(io: CliIO, path: string, what: string, maxBytes: number): Buffer {
  return readBoundedFile(resolve(io.cwd, path), { maxBytes, what, shownAs: path, env: io.env })
}

/** As `readInputFile`, decoded as UTF-8. */
export function readInputText(io: CliIO, path: string, what: string, maxBytes: number): string {
  return readInputFile(io, path, what, maxBytes).toString('utf8')
}
