import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { B10X_OBLIGATIONS } from '../../adapters/b10x/contract.js'
import { builtInVectorsDir } from '../../src/util/package-info.js'

/**
 * The seven vectors b10x's checklist names (`B10X_OBLIGATIONS`): one launch, the golden loop, four
 * enforcement records and the version pair — the set `metaharness conformance b10x --contract` runs.
 */
export const B10X_CONTRACT_VECTORS: readonly string[] = [B10X_OBLIGATIONS.launch, B10X_OBLIGATIONS.recordedWire, B10X_OBLIGATIONS.hookInput, B10X_OBLIGATIONS.versionPair].flatMap(
  (row) => ('filled' in row ? row.filled : []),
)

/**
 * A copy of the package's own vectors of `adapter` — all of them, or the named ids — for a test to
 * change (tests never edit committed fixtures). Into `target`, or a new temporary directory.
 */
export function copyVectors(adapter: string, ids?: readonly string[], target: string = mkdtempSync(join(tmpdir(), `vh-vectors-${adapter}-`))): string {
  if (ids) for (const id of ids) cpSync(join(builtInVectorsDir(), adapter, id), join(target, id), { recursive: true })
  else cpSync(join(builtInVectorsDir(), adapter), target, { recursive: true })
  return target
}
