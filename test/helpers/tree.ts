import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** Writes files (relative path → text) under a new temporary directory and returns it. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'vh-tree-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}
