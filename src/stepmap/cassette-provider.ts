import { join } from 'node:path'
import type { Wire } from '../../adapters/launch/declaration.js'
import type { MatchRules } from '../../recorders/provider/match.js'
import { resolveMode, type ProviderMode } from '../../recorders/provider/modes.js'
import { startProvider, type Provider } from '../../recorders/provider/server.js'
import type { StepProvider } from './provider.js'

export interface CassetteProviderOptions {
  /** The folder holding one cassette per llm step: `<state>-<index>.cassette.jsonl`. */
  readonly cassettes: string
  /** The wire the harness speaks. */
  readonly wire: Wire
  /** `replay` | `record` | `auto` | `passthrough`. Default: `VITEST_HARNESS_MODE`, else `replay` (CI never records). */
  readonly mode?: ProviderMode
  /** The folder holding the scripted scenario a step's cassette is recorded from: `<state>-<index>.yaml`. */
  readonly scenarios?: string
  /** The real provider's origin, for recording a live run instead of a scenario. */
  readonly upstream?: string
  /** Request fields and text a recording must not depend on (paths, dates), beyond the built-in ones. */
  readonly match?: MatchRules
  /** The model name the harness asks for. Default: the launch's. */
  readonly model?: string
  /** Where `CI` and `VITEST_HARNESS_MODE` are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/**
 * One loopback provider for the run, started with its first llm step, and a cassette scope per step
 * (`<state>-<index>.cassette.jsonl`, served under the scope's own base URL): replayed byte for byte
 * by default; recorded from the step's scripted scenario with `VITEST_HARNESS_MODE=record`. A step's
 * session closes its scope, and what the provider could not answer is reported with the step's
 * failure; `close()` stops the provider once the run is over (`describeStepMap` calls it).
 *
 * @example
 * describeStepMap(map, { ..., provider: cassetteProvider({ cassettes: 'cassettes', scenarios: 'scenarios', wire: 'openai-responses' }) })
 */
export function cassetteProvider(options: CassetteProviderOptions): StepProvider & { close(): Promise<void> } {
  let started: Promise<Provider> | undefined
  const session: StepProvider = async (call) => {
    const mode = resolveMode(options.mode, options.env ?? process.env)
    started ??= startProvider(options.env === undefined ? {} : { env: options.env })
    const provider = await started
    const cassette = join(options.cassettes, `${call.cassette}.cassette.jsonl`)
    const scope = provider.openScope({
      mode,
      cassette,
      ...(mode !== 'replay' && options.scenarios !== undefined && options.upstream === undefined ? { scenario: join(options.scenarios, `${call.cassette}.yaml`) } : {}),
      ...(options.upstream === undefined ? {} : { upstream: options.upstream }),
      ...(options.match === undefined ? {} : { match: options.match }),
      ...(options.env === undefined ? {} : { env: options.env }),
    })
    return {
      baseUrl: scope.baseUrl,
      wire: options.wire,
      ...(options.model === undefined ? {} : { model: options.model }),
      close() {
        const { misses, missesDropped } = provider.closeScope(scope.id)
        if (misses.length === 0 && missesDropped === 0) return undefined
        return `the provider had no answer for ${misses.length + missesDropped} request(s) in ${cassette}: ${misses[0]?.message ?? ''}`
      },
    }
  }
  return Object.assign(session, {
    async close() {
      const provider = await started?.catch(() => undefined)
      started = undefined
      await provider?.close()
    },
  })
}
