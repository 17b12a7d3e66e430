import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { builtInVectorsDir } from '../util/package-info.js'
import { unmetObligations } from './checklist.js'
import { providerOf } from './contract-result.js'
import { loadVectors, type LoadedVector } from './manifest.js'
import type { VectorOutcome } from './outcome.js'
import { runVector, type RunVectorOptions } from './run-vector.js'

/** Why a contract could not be run: never a verdict (exit 2). */
export class ContractRefusal extends Error {
  constructor(
    readonly code: 'VH_NO_VECTORS' | 'VH_UNKNOWN_VECTOR' | 'VH_FOREIGN_VECTOR',
    message: string,
  ) {
    super(message)
    this.name = 'ContractRefusal'
  }
}

/** A contract run outside Vitest: the outcomes, the provider and what the checklist says about them. */
export interface ContractRun {
  readonly adapter: HarnessAdapter
  readonly vectors: readonly LoadedVector[]
  readonly outcomes: readonly VectorOutcome[]
  readonly provider: string
  /** Checklist problems; empty when the adapter declares none or it is met. */
  readonly unmet: readonly string[]
}

export interface RunContractOptions extends RunVectorOptions {
  /** The vectors folder. Default: the package's own `vectors/<adapter id>`. */
  vectors?: string
  /** Only these ids, in this order. */
  only?: readonly string[]
  /**
   * With the package's own vectors, also the project's vectors beyond the set upstream's contract
   * runs (`adapter.upstreamVectors`). Default: false — the contract line is upstream's.
   */
  withProjectVectors?: boolean
}

/**
 * The ids a contract is limited to when nobody named any: upstream's set, when the adapter declares
 * one and the vectors are the package's own. A user's own folder is the user's contract: all of it.
 */
export function defaultVectorIds(adapter: HarnessAdapter, options: Pick<RunContractOptions, 'vectors' | 'only' | 'withProjectVectors'>): readonly string[] | undefined {
  if (options.only) return options.only
  if (options.vectors !== undefined || options.withProjectVectors) return undefined
  return adapter.upstreamVectors
}

/** The refusal for a folder that is missing or holds no vector (`VH_NO_VECTORS`), as the CLI and `describeHarness` give it. */
export function noVectorsRefusal(adapter: HarnessAdapter, dir: string, missing: boolean): ContractRefusal {
  const why = missing ? `${dir} is not a folder of vectors` : `${dir} holds no vector`
  return new ContractRefusal(
    'VH_NO_VECTORS',
    `nothing to check for ${adapter.id}: ${why}. Refused rather than reported as zero, which would read exactly like a pass. Record one with \`vitest-harness vector new ${adapter.id} --out <dir>\`, or pass the folder that holds yours (\`vectors\`)`,
  )
}

/** The vectors folder, loaded; refused by name (`VH_NO_VECTORS`) when it is missing or empty. */
export function loadContractVectors(adapter: HarnessAdapter, dir: string): LoadedVector[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw noVectorsRefusal(adapter, dir, true)
  const available = loadVectors(dir)
  if (available.length === 0) throw noVectorsRefusal(adapter, dir, false)
  return available
}

/** The vectors a contract holds, refused by name when there are none, an id is unknown, or one is another adapter's. */
export function selectContractVectors(adapter: HarnessAdapter, options: Pick<RunContractOptions, 'vectors' | 'only' | 'withProjectVectors'> = {}): LoadedVector[] {
  const dir = options.vectors ?? join(builtInVectorsDir(), adapter.id)
  const available = loadContractVectors(adapter, dir)
  const byId = new Map(available.map((vector) => [vector.id, vector]))
  const only = defaultVectorIds(adapter, options)
  const selected = only
    ? only.map((id) => {
        const vector = byId.get(id)
        if (!vector) throw new ContractRefusal('VH_UNKNOWN_VECTOR', `no vector ${JSON.stringify(id)} under ${dir}`)
        return vector
      })
    : available
  if (selected.length === 0) throw noVectorsRefusal(adapter, dir, false)
  const foreign = selected.find((vector) => vector.adapter !== adapter.id)
  if (foreign) throw new ContractRefusal('VH_FOREIGN_VECTOR', `the vector ${foreign.id} under ${dir} is ${foreign.adapter}'s, not ${adapter.id}'s`)
  return selected
}

/** Runs an adapter's contract: every selected vector, one after another, and the checklist over their outcomes. */
export async function runContract(adapter: HarnessAdapter, options: RunContractOptions = {}): Promise<ContractRun> {
  const vectors = selectContractVectors(adapter, options)
  const outcomes: VectorOutcome[] = []
  for (const vector of vectors) outcomes.push(await runVector(vector, adapter, options))
  const provider = providerOf(adapter.capabilities())
  const unmet = adapter.obligations ? unmetObligations(adapter.id, adapter.obligations, outcomes, provider) : []
  return { adapter, vectors, outcomes, provider, unmet }
}
