import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { builtInVectorsDir } from '../../src/util/package-info.js'

/**
 * The seven vectors b10x's checklist names (`B10X_OBLIGATIONS`): one launch, the golden loop, four
 * enforcement records and the version pair — the set `metaharness conformance b10x --contract` runs.
 */
export const B10X_CONTRACT_VECTORS: readonly string[] = [
  'c1-observe-launch',
  'golden-loop-record',
  'provider-emulated-unpublished-tool',
  'provider-emulated-approval-denied',
  'provider-emulated-budget-stop',
  'provider-emulated-cancellation',
  'golden-version-pair',
]

/**
 * A copy of the package's own vectors of `adapter` — all of them, or the named ids — for a test to
 * change (tests never edit committed fixtures). Into `target`, or a new temporary directory.
 */
export function copyVectors(adapter: string, ids?: readonly string[], target: string = mkdtempSync(join(tmpdir(), `vh-vectors-${adapter}-`))): string {
  if (ids) for (const id of ids) cpSync(join(builtInVectorsDir(), adapter, id), join(target, id), { recursive: true })
  else cpSync(join(builtInVectorsDir(), adapter), target, { recursive: true })
  return target
}
