import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, statfsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** A real harness binary the e2e suite runs, pinned to the version its facts were checked on. */
export interface HarnessBinary {
  readonly name: string
  readonly pkg: string
  readonly version: string
  /** The binary's name under `node_modules/.bin`. */
  readonly bin: string
}

export const CODEX: HarnessBinary = { name: 'codex', pkg: '@openai/codex', version: '0.169.0', bin: 'codex' }
export const CLAUDE_CODE: HarnessBinary = { name: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' }

/** Each install is about 400 MB; ask for a margin above that. */
const NEEDED_BYTES = 450 * 1024 * 1024

/** `${XDG_CACHE_HOME:-$HOME/.cache}/vitest-harness/harnesses`: outside the clone, reused by CI. */
export function harnessCacheDir(): string {
  return join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'vitest-harness', 'harnesses')
}

/**
 * The binary's path, installing it on first use with `npm install --prefix <cache>/<name>@<version>`.
 * Never a dependency of the project. Fails with a clear message when the disk is too full.
 */
export function ensureHarness(harness: HarnessBinary): string {
  const dir = join(harnessCacheDir(), `${harness.name}@${harness.version}`)
  const binary = join(dir, 'node_modules', '.bin', harness.bin)
  if (existsSync(binary)) return binary
  mkdirSync(dir, { recursive: true })
  const stats = statfsSync(dir)
  const free = stats.bavail * stats.bsize
  if (free < NEEDED_BYTES) {
    throw new Error(`cannot install ${harness.pkg}@${harness.version} into ${dir}: ${(free / 1048576).toFixed(0)} MiB free, about ${(NEEDED_BYTES / 1048576).toFixed(0)} MiB needed. Free some disk or point XDG_CACHE_HOME at a larger volume.`)
  }
  execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${harness.pkg}@${harness.version}`], { stdio: 'pipe' })
  if (!existsSync(binary)) throw new Error(`installed ${harness.pkg}@${harness.version} into ${dir}, but ${binary} is missing`)
  return binary
}
