import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, basename } from 'node:path'

/** Writes a file so a reader sees the old bytes or the new bytes, never half of either. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`)
  writeFileSync(temporary, data)
  renameSync(temporary, path)
}
