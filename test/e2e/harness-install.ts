import { beforeAll } from 'vitest'
import { findLaunch } from '../../adapters/launch/launches.js'
import { ensureHarnessBinary } from '../../adapters/launch/harness-cache.js'
import type { LaunchDeclaration } from '../../adapters/launch/declaration.js'

/** The launch declaration of a harness the e2e suite runs: its pin is the declaration's. */
function launchOf(adapter: string): LaunchDeclaration {
  const launch = findLaunch(adapter)
  if (!launch) throw new Error(`no launch declaration for ${adapter}`)
  return launch
}

export const CODEX = launchOf('codex')
export const CLAUDE_CODE = launchOf('claude')
export const PI = launchOf('pi')
export const OPENCODE = launchOf('opencode')
export const QWEN = launchOf('qwen')
export const GEMINI = launchOf('gemini')

/** The pinned binary, installed on first use into the harness cache (see adapters/launch/harness-cache.ts). */
export function ensureHarness(launch: LaunchDeclaration): string {
  return ensureHarnessBinary(launch)
}

/** How long a suite waits for its harnesses to install: a cold cache downloads each from npm. */
export const INSTALL_TIMEOUT_MS = 900_000

/**
 * Installs one harness before the suite runs (registers its `beforeAll`), and gives the program to
 * run: ask for it inside a test, once the install is done.
 */
export function installedProgram(launch: LaunchDeclaration): () => string {
  let program: string | undefined
  beforeAll(() => {
    program = ensureHarness(launch)
  }, INSTALL_TIMEOUT_MS)
  return () => {
    if (program === undefined) throw new Error(`${launch.adapter} is installed before the suite runs: ask for its program inside a test`)
    return program
  }
}
