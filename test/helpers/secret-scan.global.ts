import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { prefixed } from '../../src/util/log.js'
import { SECRETS } from './secrets.js'

declare module 'vitest' {
  interface ProvidedContext {
    vitestHarnessScratchRoot: string
  }
}

/** The files under `dir`; symlinks are not followed (a test may plant one pointing anywhere, even nowhere). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    const stat = lstatSync(path)
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() ? [path] : []
  })
}

/** Every file the suite's tests write goes under one root; no secret the suite used may be in any of them. */
export function findSecrets(root: string): string[] {
  const found: string[] = []
  for (const file of filesUnder(root)) {
    const text = readFileSync(file, 'latin1')
    for (const [name, secret] of Object.entries(SECRETS)) if (text.includes(secret)) found.push(`${file} contains SECRETS.${name}`)
  }
  return found
}

/**
 * One scratch root per run, handed to the workers; at the end of the run every cassette, request
 * log and report under it is scanned for the secrets the suite sent, and the run fails on any.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'vitest-harness-scratch-'))
  project.provide('vitestHarnessScratchRoot', root)
  return () => {
    const files = filesUnder(root).length
    const found = findSecrets(root)
    if (found.length > 0) {
      // Vitest reports a teardown error but still exits 0; the exit code must say it too.
      process.exitCode = 1
      throw new Error(prefixed(`secrets were written to disk (kept for inspection under ${root}):\n${found.join('\n')}`))
    }
    if (process.env['VITEST_HARNESS_KEEP_SCRATCH'] !== '1') rmSync(root, { recursive: true, force: true })
    process.stdout.write(`${prefixed(`secret scan: ${files} file(s) the suite wrote, none holds a secret it used`)}\n`)
  }
}
