import { isCi } from '../../src/util/ci.js'
import { RecorderError } from '../errors.js'

/**
 * How a provider answers:
 * - `replay`: only recorded answers; anything else is a miss (lockdown).
 * - `record`: every request goes to the upstream and is stored; the cassette is overwritten.
 * - `auto`: recorded answers when they exist; misses go to the upstream and are added.
 * - `passthrough`: every request goes to the upstream; nothing is stored.
 */
export type ProviderMode = 'replay' | 'record' | 'auto' | 'passthrough'

export const PROVIDER_MODES: readonly ProviderMode[] = ['replay', 'record', 'auto', 'passthrough']

/** The environment variable that picks the mode when the option does not. */
export const MODE_ENV = 'VITEST_HARNESS_MODE'

/**
 * The mode in force: the option, else `VITEST_HARNESS_MODE`, else `replay`. When `CI` is set
 * (see `isCi`), `record`, `auto` and `passthrough` are refused: CI never records and never
 * reaches the network.
 */
export function resolveMode(option: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ProviderMode {
  const raw = option ?? (env[MODE_ENV] === '' ? undefined : env[MODE_ENV]) ?? 'replay'
  if (!PROVIDER_MODES.includes(raw as ProviderMode)) {
    const from = option !== undefined ? 'mode' : MODE_ENV
    throw new RecorderError('VH_MODE_INVALID', `${from} must be one of ${PROVIDER_MODES.join(', ')}; got ${JSON.stringify(raw)}`, { location: from })
  }
  const mode = raw as ProviderMode
  if (mode !== 'replay' && isCi(env)) {
    const why = mode === 'passthrough' ? 'CI never reaches the network. Replay a recorded cassette instead' : 'CI never records. Record on a workstation and commit the cassette; CI replays it'
    throw new RecorderError('VH_MODE_REFUSED_IN_CI', `mode ${mode} is refused because CI is set (CI=${JSON.stringify(env['CI'])}): ${why}.`, { location: 'mode' })
  }
  return mode
}
