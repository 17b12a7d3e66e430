import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** `../shared/reference/`, beside the clone: CI always has it. */
export const REFERENCE = resolve(process.cwd(), '..', 'shared', 'reference')

/** A reference file's path; the suite fails loudly (not skips) when the corpus is missing. */
export function referenceFile(...parts: string[]): string {
  const path = join(REFERENCE, ...parts)
  if (!existsSync(path)) throw new Error(`the reference file ${path} is missing: run the reference suite from the repo root, beside ../shared`)
  return path
}
