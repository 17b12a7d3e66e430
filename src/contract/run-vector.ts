import type { HarnessAdapter } from '../../adapters/adapter.js'
import { LaunchRefusal } from '../../adapters/errors.js'
import { findFormat } from '../../adapters/formats.js'
import { replayText } from '../../adapters/replay.js'
import { convertTextSync } from '../../adapters/transcript/read.js'
import { describeValueDifferences, firstStreamDifference, launchRecordsEqual } from './compare.js'
import type { ControlClock } from './control/clock.js'
import { versionToken } from './doctor.js'
import { resolvePointer } from './json-pointer.js'
import { readVectorFile, type LoadedVector } from './manifest.js'
import type { VectorOutcome } from './outcome.js'
import { runControlVector } from './run-control-vector.js'
import { seamFromInput } from './seam.js'
import { describeJsonSyntaxError } from '../util/json-syntax.js'

type VectorOf<K extends LoadedVector['kind']> = Extract<LoadedVector, { kind: K }>

/**
 * One vector's outcome, with the two sides it compared when a diff helps a reader: the recorded
 * expectation and what the adapter produced.
 */
export interface VectorCheck {
  readonly outcome: VectorOutcome
  readonly expected?: unknown
  readonly actual?: unknown
}

export interface RunVectorOptions {
  /** The clock control vectors measure deadlines on. Default: a fresh manual clock per vector. */
  clock?: () => ControlClock
}

function compact(value: unknown): string {
  return JSON.stringify(value)
}

function passed(vector: LoadedVector, detail = ''): VectorOutcome {
  return { id: vector.id, tier: vector.tier, passed: true, detail }
}

function failed(vector: LoadedVector, detail: string): VectorOutcome {
  return { id: vector.id, tier: vector.tier, passed: false, detail }
}

type Planned = { plan: unknown } | { refusal: LaunchRefusal } | { problem: string }

function planLaunch(vector: VectorOf<'launch' | 'launch-refusal'>, adapter: HarnessAdapter): Planned {
  if (!adapter.launch) return { problem: `the ${adapter.id} adapter declares no launch plan` }
  const inputs = adapter.launch.inputs.safeParse(vector.inputs.launch)
  if (!inputs.success) {
    const issue = inputs.error.issues[0]
    return { problem: `the launch inputs are not ${adapter.id}'s: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` }
  }
  try {
    return { plan: adapter.launch.plan(inputs.data) }
  } catch (error) {
    if (error instanceof LaunchRefusal) return { refusal: error }
    throw error
  }
}

/** The field differences, as a first line of their own, ahead of upstream's `expected …, observed …`. */
function leadingFields(expected: unknown, actual: unknown): string {
  const fields = describeValueDifferences(expected, actual)
  return fields === undefined ? '' : `${fields}\n`
}

/** C1: the adapter's launch plan for the vector's inputs, against the recorded launch, as parsed JSON. */
export function checkLaunchVector(vector: VectorOf<'launch'>, adapter: HarnessAdapter): VectorCheck {
  const planned = planLaunch(vector, adapter)
  if ('problem' in planned) return { outcome: failed(vector, planned.problem) }
  const expected: unknown = JSON.parse(readVectorFile(vector, vector.expected.record))
  if ('refusal' in planned) {
    return { outcome: failed(vector, `expected ${compact(expected)}, observed the refusal ${planned.refusal.code}: ${planned.refusal.display}`) }
  }
  const actual = JSON.parse(JSON.stringify(planned.plan)) as unknown
  return launchRecordsEqual(expected, actual)
    ? { outcome: passed(vector), expected, actual }
    : { outcome: failed(vector, `${leadingFields(expected, actual)}expected ${compact(expected)}, observed ${compact(actual)}`), expected, actual }
}

/** C1 refusal: the adapter must refuse these launch inputs, with this code. */
export function checkLaunchRefusalVector(vector: VectorOf<'launch-refusal'>, adapter: HarnessAdapter): VectorCheck {
  const expected = vector.expected
  const planned = planLaunch(vector, adapter)
  if ('problem' in planned) return { outcome: failed(vector, planned.problem) }
  if ('plan' in planned) {
    return { outcome: failed(vector, `expected the refusal ${expected.refusal.code}, observed the launch ${compact(planned.plan)}`), expected, actual: planned.plan }
  }
  const actual = { refusal: { code: planned.refusal.code, display: planned.refusal.display } }
  if (planned.refusal.code !== expected.refusal.code) {
    return { outcome: failed(vector, `expected the refusal ${expected.refusal.code}, observed the refusal ${planned.refusal.code}: ${planned.refusal.display}`), expected, actual }
  }
  if (expected.refusal.display !== undefined && expected.refusal.display !== planned.refusal.display) {
    return { outcome: failed(vector, `expected the refusal to say ${compact(expected.refusal.display)}, observed ${compact(planned.refusal.display)}`), expected, actual }
  }
  return { outcome: passed(vector), expected, actual }
}

/** The event stream a replay vector's record yields, exactly as a C2 vector compares it. */
export function replayVector(vector: VectorOf<'replay'>, adapter: HarnessAdapter): string {
  const seam = seamFromInput(vector.inputs.seam)
  const record = readVectorFile(vector, vector.inputs.record)
  const formatName = vector.inputs.format
  if (formatName === undefined) return replayText(adapter.createProjector(seam), record, seam.run)
  // Another of the adapter's formats (Codex's exec-json beside its rollout): the reader `convert --from` uses.
  const format = findFormat(formatName)
  if (!format) throw new Error(`inputs.format names no transcript format: ${JSON.stringify(formatName)}`)
  if (format.adapter !== adapter.id) throw new Error(`inputs.format ${format.name} is ${format.adapter}'s record, not ${adapter.id}'s`)
  const { run, ...facts } = seam
  // upstream's projection, as the adapter's own reader gives it, so a format changes only the reader.
  return convertTextSync(record, format.name, { run, seam: { projection: 'upstream', ...facts }, source: vector.inputs.record })
}

/** C2: recorded wire in, event stream out, byte for byte. */
export function checkReplayVector(vector: VectorOf<'replay'>, adapter: HarnessAdapter): VectorCheck {
  const actual = replayVector(vector, adapter)
  const expected = readVectorFile(vector, vector.expected.events)
  const difference = firstStreamDifference(expected, actual)
  return { outcome: difference === undefined ? passed(vector) : failed(vector, difference), expected, actual }
}

function quote(value: unknown): string {
  return value === undefined ? '<absent>' : compact(value)
}

/**
 * C2 hook input: the raw hook document the seam reads, pinned field by field, and the tool it
 * names checked against the adapter's published rendering.
 */
export function checkHookInputVector(vector: VectorOf<'hook-input'>, adapter: HarnessAdapter): VectorCheck {
  let document: unknown
  try {
    document = JSON.parse(readVectorFile(vector, vector.inputs.hook))
  } catch (error) {
    return { outcome: failed(vector, `the hook input is not JSON: ${describeJsonSyntaxError(error)}`) }
  }
  const expected: Record<string, unknown> = {}
  const actual: Record<string, unknown> = {}
  for (const [pointer, want] of Object.entries(vector.expected.fields)) {
    const got = resolvePointer(document, pointer)
    expected[pointer] = want
    actual[pointer] = got
    if (got === undefined || !launchRecordsEqual(want, got)) {
      return { outcome: failed(vector, `at ${pointer}: expected ${quote(want)}, observed ${quote(got)}`), expected, actual }
    }
  }
  const rendering = vector.expected.rendering
  if (rendering) {
    const named = resolvePointer(document, rendering.pointer)
    const rendered = adapter.capabilities().rendering[rendering.operation]
    if (rendered === undefined || rendered === null || named !== rendered) {
      const says = rendered === undefined || rendered === null ? 'renders it to no vendor tool' : `renders it to ${compact(rendered)}`
      return { outcome: failed(vector, `the hook names ${quote(named)} at ${rendering.pointer} for ${rendering.operation}, and the adapter ${says}`), expected, actual }
    }
  }
  return { outcome: passed(vector), expected, actual }
}

/**
 * The version pair: the banner of the binary that wrote the recording against the adapter's pins.
 * On a pin it passes; off the pin it passes with a warning (two facts, never a failure); a banner
 * of the wrong shape fails.
 */
export function checkVersionPairVector(vector: VectorOf<'version-pair'>, adapter: HarnessAdapter): VectorCheck {
  const banner = readVectorFile(vector, vector.inputs.banner).trim()
  if (!banner.startsWith(adapter.bannerPrefix)) {
    return { outcome: failed(vector, `the banner ${JSON.stringify(banner)} is not \`${adapter.bannerPrefix}<version>\``) }
  }
  // The version token after the prefix: Claude Code prints `2.1.328 (Claude Code)`.
  const version = versionToken(banner.slice(adapter.bannerPrefix.length).trim())
  const pins = adapter.capabilities().versions_pinned
  if (pins.includes(version)) return { outcome: passed(vector), expected: pins, actual: version }
  return {
    outcome: passed(vector, `the binary that wrote the recording reported ${version} and the adapter pins ${pins.join(', ')}`),
    expected: pins,
    actual: version,
  }
}

/**
 * Runs one vector of any kind; control vectors drive a child process, so this is async. A vector
 * whose files cannot be read fails with the reason: it never passes by not looking.
 */
export async function checkVector(vector: LoadedVector, adapter: HarnessAdapter, options: RunVectorOptions = {}): Promise<VectorCheck> {
  try {
    return await checkVectorOfKind(vector, adapter, options)
  } catch (error) {
    return { outcome: failed(vector, `the vector could not run: ${(error as Error).message}`) }
  }
}

async function checkVectorOfKind(vector: LoadedVector, adapter: HarnessAdapter, options: RunVectorOptions): Promise<VectorCheck> {
  switch (vector.kind) {
    case 'launch':
      return checkLaunchVector(vector, adapter)
    case 'launch-refusal':
      return checkLaunchRefusalVector(vector, adapter)
    case 'replay':
      return checkReplayVector(vector, adapter)
    case 'hook-input':
      return checkHookInputVector(vector, adapter)
    case 'version-pair':
      return checkVersionPairVector(vector, adapter)
    case 'control':
      return runControlVector(vector, adapter, options.clock?.())
  }
}

/** Runs one model-free vector against its adapter. */
export async function runVector(vector: LoadedVector, adapter: HarnessAdapter, options: RunVectorOptions = {}): Promise<VectorOutcome> {
  return (await checkVector(vector, adapter, options)).outcome
}

/** C1, as an outcome. */
export function runLaunchVector(vector: VectorOf<'launch'>, adapter: HarnessAdapter): VectorOutcome {
  return checkLaunchVector(vector, adapter).outcome
}

/** C2 replay, as an outcome. */
export function runReplayVector(vector: VectorOf<'replay'>, adapter: HarnessAdapter): VectorOutcome {
  return checkReplayVector(vector, adapter).outcome
}

/** The version pair, as an outcome. */
export function runVersionPairVector(vector: VectorOf<'version-pair'>, adapter: HarnessAdapter): VectorOutcome {
  return checkVersionPairVector(vector, adapter).outcome
}
