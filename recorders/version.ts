import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/** `vitest-harness <version>`, read from the package manifest above this file (from the source or `dist/`). */
export function toolVersion(): string {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }
      if (parsed.name === 'vitest-harness') return (cached = `vitest-harness ${parsed.version ?? '0.0.0'}`)
    }
    const parent = dirname(dir)
    if (parent === dir) return (cached = 'vitest-harness 0.0.0')
    dir = parent
  }
}
