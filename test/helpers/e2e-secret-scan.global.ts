import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SECRET_PATTERNS } from '../../recorders/provider/redact.js'
import { prefixed } from '../../src/util/log.js'
import { SECRETS } from './secrets.js'

/** Files under `dir`, symlinks not followed; installed packages (`node_modules`) are not what a test wrote. */
function writtenFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    const stat = lstatSync(path)
    if (stat.isDirectory()) return name === 'node_modules' ? [] : writtenFiles(path)
    return stat.isFile() ? [path] : []
  })
}

/** Credential-named variables of the machine running the suite: a harness leaking one would write its value. */
function environmentCredentials(): [string, string][] {
  return Object.entries(process.env).filter((entry): entry is [string, string] => /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(entry[0]) && typeof entry[1] === 'string' && entry[1].length >= 8)
}

/** Every file under `root` that holds one of `credentials` (by value) or a vendor-key-shaped string. */
export function findCredentials(root: string, credentials: readonly (readonly [string, string])[]): { files: number; found: string[] } {
  const files = writtenFiles(root)
  const found: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'latin1')
    for (const [name, secret] of credentials) if (text.includes(secret)) found.push(`${file} contains the value of ${name}`)
    for (const pattern of DEFAULT_SECRET_PATTERNS) {
      const match = new RegExp(pattern.source).exec(text)
      if (match) found.push(`${file} contains a credential-shaped string (${match[0].slice(0, 8)}…)`)
    }
  }
  return { files: files.length, found }
}

/**
 * The e2e suites run real harnesses: every file they write goes under one temporary root (TMPDIR
 * for the workers), and at the end nothing under it may hold a credential — the suite's own test
 * secrets, a credential-named variable of this machine, or anything shaped like a vendor key.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'vitest-harness-e2e-scan-'))
  process.env['TMPDIR'] = root
  const credentials = [...Object.entries(SECRETS), ...environmentCredentials()]
  return () => {
    const { files, found } = findCredentials(root, credentials)
    if (found.length > 0) {
      process.exitCode = 1
      throw new Error(prefixed(`credentials were written to disk (kept for inspection under ${root}):\n${found.join('\n')}`))
    }
    if (process.env['VITEST_HARNESS_KEEP_SCRATCH'] !== '1') rmSync(root, { recursive: true, force: true })
    process.stdout.write(`${prefixed(`e2e credential scan: ${files} file(s) the suites wrote, none holds a credential`)}\n`)
  }
}
