import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cachedRoot: string | undefined

/** The package's own root, found by walking up from this file (works from `src/` and `dist/`). */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name
      if (name === 'vitest-harness') return (cachedRoot = dir)
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find the vitest-harness package root above this file')
    dir = parent
  }
}

/** The package's version, for provenance and `--version`. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string }
  return manifest.version ?? '0.0.0'
}

/** Where the project's own golden vectors live. */
export function builtInVectorsDir(): string {
  return join(packageRoot(), 'vectors')
}
