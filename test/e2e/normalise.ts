import type { NormalisationRule } from '../../adapters/launch/declaration.js'
import { SHARED_NORMALISATION, applyNormalisation } from '../../adapters/launch/normalisation.js'
import { E2E_ROOT } from './harness-run.js'

// A harness's own volatile values — ids, clocks, timings, per-process paths — replaced by
// placeholders, so two runs of the same scripted conversation compare equal. The rules are data
// (adapters/launch/normalisation.ts and each declaration's `normalised`), which the harness matrix prints.

// Claude Code names its memory folder after the repository root above the cwd, and the machine
// decides that: a `.git` in the temp dir (Codex's sandbox leaves one) moves it from the work folder to `/tmp`.
const MEMORY_FOLDER = /("memory_paths":\{"auto":"[^"]*\/projects\/)[^"/]+(\/memory\/")/g

/**
 * Also replaces the e2e scratch root (it lives under the OS temp dir, which varies by machine and,
 * under the credential scan, by run), the root as a harness spells it in a folder name (Claude
 * Code's `projects/-tmp-…-claude-work`: every character but a letter or digit as `-`), and the
 * project folder of Claude Code's memory path.
 */
export function normaliseHarnessOutput(text: string, root: string = E2E_ROOT, harnessRules: readonly NormalisationRule[] = []): string {
  const slug = root.replace(/[^A-Za-z0-9]/g, '-')
  const rooted = text.split(root).join('<e2e-root>').split(slug).join('<e2e-root-slug>').replace(MEMORY_FOLDER, '$1<project>$2')
  return applyNormalisation(rooted, [...SHARED_NORMALISATION, ...harnessRules])
}
