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
