import { readFileSync } from 'node:fs'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { replayText } from '../../adapters/replay.js'
import { firstStreamDifference, launchRecordsEqual } from './compare.js'
import { vectorFile, type LoadedVector } from './manifest.js'
import type { VectorOutcome } from './outcome.js'
import { seamFromInput } from './seam.js'

type VectorOf<K extends LoadedVector['kind']> = Extract<LoadedVector, { kind: K }>

function compact(value: unknown): string {
  return JSON.stringify(value)
}

/** C1: the adapter's launch plan for the vector's inputs, against the recorded launch, as parsed JSON. */
export function runLaunchVector(vector: VectorOf<'launch'>, adapter: HarnessAdapter): VectorOutcome {
  const base = { id: vector.id, tier: vector.tier }
  if (!adapter.launch) return { ...base, passed: false, detail: `the ${adapter.id} adapter declares no launch plan` }
  const inputs = adapter.launch.inputs.safeParse(vector.inputs.launch)
  if (!inputs.success) {
    const issue = inputs.error.issues[0]
    return { ...base, passed: false, detail: `the launch inputs are not ${adapter.id}'s: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` }
  }
  const observed = adapter.launch.plan(inputs.data)
  const expected: unknown = JSON.parse(readFileSync(vectorFile(vector, vector.expected.record), 'utf8'))
  return launchRecordsEqual(expected, observed)
    ? { ...base, passed: true, detail: '' }
    : { ...base, passed: false, detail: `expected ${compact(expected)}, observed ${compact(observed)}` }
}

/** The event stream a replay vector's record yields, exactly as a C2 vector compares it. */
export function replayVector(vector: VectorOf<'replay'>, adapter: HarnessAdapter): string {
  const seam = seamFromInput(vector.inputs.seam)
  const record = readFileSync(vectorFile(vector, vector.inputs.record), 'utf8')
  return replayText(adapter.createProjector(seam), record, seam.run)
}

/** C2: recorded wire in, event stream out, byte for byte. */
export function runReplayVector(vector: VectorOf<'replay'>, adapter: HarnessAdapter): VectorOutcome {
  const observed = replayVector(vector, adapter)
  const expected = readFileSync(vectorFile(vector, vector.expected.events), 'utf8')
  const difference = firstStreamDifference(expected, observed)
  return { id: vector.id, tier: vector.tier, passed: difference === undefined, detail: difference ?? '' }
}

/**
 * The version pair: the banner of the binary that wrote the recording against the adapter's pins.
 * On a pin it passes; off the pin it passes with a warning (two facts, never a failure); a banner
 * of the wrong shape fails.
 */
export function runVersionPairVector(vector: VectorOf<'version-pair'>, adapter: HarnessAdapter): VectorOutcome {
  const base = { id: vector.id, tier: vector.tier }
  const banner = readFileSync(vectorFile(vector, vector.inputs.banner), 'utf8').trim()
  if (!banner.startsWith(adapter.bannerPrefix)) {
    return { ...base, passed: false, detail: `the banner ${JSON.stringify(banner)} is not \`${adapter.bannerPrefix}<version>\`` }
  }
  const version = banner.slice(adapter.bannerPrefix.length).trim()
  const pins = adapter.capabilities().versions_pinned
  if (pins.includes(version)) return { ...base, passed: true, detail: '' }
  return {
    ...base,
    passed: true,
    detail: `the binary that wrote the recording reported ${version} and the adapter pins ${pins.join(', ')}`,
  }
}

/** Runs one model-free vector against its adapter. */
export function runVector(vector: LoadedVector, adapter: HarnessAdapter): VectorOutcome {
  switch (vector.kind) {
    case 'launch':
      return runLaunchVector(vector, adapter)
    case 'replay':
      return runReplayVector(vector, adapter)
    case 'version-pair':
      return runVersionPairVector(vector, adapter)
  }
}
