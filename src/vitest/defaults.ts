import type { ProviderMode } from '../../recorders/provider/modes.js'
import { PROVIDER_MODES } from '../../recorders/provider/modes.js'
import { prefixed } from '../util/log.js'
import { EVIDENCE_REPORTER_DEFAULTS, normalizeEvidenceReporterOptions, type EvidenceReporterOptions, type NormalizedEvidenceReporterOptions } from './reporters/evidence-options.js'

/** A text rule as config carries it (JSON-safe: the pattern is a RegExp source). */
export interface HarnessTextRule {
  readonly path?: string
  readonly pattern: string
  readonly with: string
}

/** The loopback provider the plugin starts once per run. */
export interface HarnessProviderOptions {
  /**
   * `replay` | `record` | `auto` | `passthrough`.
   * @default process.env.VITEST_HARNESS_MODE, else 'replay'
   */
  readonly mode?: ProviderMode
  /**
   * Where each test's cassette lives: `<cassettesDir>/<test file>/<test name slug>-<hash>.cassette.jsonl`,
   * relative to the project root.
   * @default 'test/cassettes'
   */
  readonly cassettesDir?: string
  /** The real provider's origin to record from (`record`, `auto`, `passthrough`). */
  readonly upstream?: string
  /**
   * A scenario file (YAML or JSON, relative to the project root) that answers in place of an
   * upstream: `record` and `auto` write its scripted answers into each test's cassette, labelled
   * `provider_emulated` with the scenario's name; `passthrough` serves them without recording.
   * With `upstream` too, the scenario answers and the upstream is never asked.
   */
  readonly scenario?: string
  /** Extra volatile JSON paths and text rules for request matching. */
  readonly match?: { readonly ignore?: readonly string[]; readonly replace?: readonly HarnessTextRule[] }
  /** Extra secret patterns (RegExp sources) redacted on every write. */
  readonly redact?: readonly string[]
  /**
   * Identical requests beyond their recordings.
   * @default 'repeat-last'
   */
  readonly exhausted?: 'repeat-last' | 'miss'
}

/** `harness(options)`: one object, normalised once here. */
export interface HarnessOptions {
  /**
   * The loopback provider; `false` starts none.
   * @default {}
   */
  readonly provider?: HarnessProviderOptions | false
  /**
   * Registers the evidence reporter (`vitest-harness/reporter`) beside the run's own reporters:
   * `true` with its defaults, or its options (`outDir`, `format`, `testResults`…). Off by default.
   * Not added to a run whose reporters include `blob` (a shard: its evidence is minted when the
   * blobs are merged), nor when the reporter is already listed by hand.
   * @default false
   */
  readonly evidence?: boolean | EvidenceReporterOptions
}

/** Options after normalisation: every default applied, every value checked. */
export interface ResolvedHarnessOptions {
  readonly provider: false | {
    readonly mode: ProviderMode | null
    readonly cassettesDir: string
    readonly upstream: string | null
    readonly scenario: string | null
    readonly match: { readonly ignore: string[]; readonly replace: HarnessTextRule[] }
    readonly redact: string[]
    readonly exhausted: 'repeat-last' | 'miss'
  }
  readonly evidence: false | NormalizedEvidenceReporterOptions
}

export const DEFAULT_CASSETTES_DIR = 'test/cassettes'

/** An option with a bad value: names the option, quotes the value, lists what is allowed. */
export class HarnessOptionError extends Error {
  readonly code = 'VH_OPTION_INVALID'

  constructor(option: string, value: unknown, allowed: string) {
    super(prefixed(`harness({ ${option} }) must be ${allowed}; got ${JSON.stringify(value)}`))
    this.name = 'HarnessOptionError'
  }
}

function checkString(option: string, value: unknown): string | null {
  if (value === undefined) return null
  if (typeof value !== 'string' || value === '') throw new HarnessOptionError(option, value, 'a non-empty string')
  return value
}

function normaliseEvidence(value: unknown): false | NormalizedEvidenceReporterOptions {
  if (value === undefined || value === false) return false
  if (value === true) return EVIDENCE_REPORTER_DEFAULTS
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HarnessOptionError('evidence', value, 'true, false or the evidence reporter options')
  return normalizeEvidenceReporterOptions(value as EvidenceReporterOptions)
}

/** Applies the defaults and checks every value, once, at the plugin's boundary. */
export function normaliseHarnessOptions(options: HarnessOptions = {}): ResolvedHarnessOptions {
  const evidence = normaliseEvidence(options.evidence)
  const provider = options.provider ?? {}
  if (provider === false) return { provider: false, evidence }
  if (typeof provider !== 'object' || provider === null) throw new HarnessOptionError('provider', provider, 'an object or false')
  if (provider.mode !== undefined && !PROVIDER_MODES.includes(provider.mode)) throw new HarnessOptionError('provider.mode', provider.mode, `one of ${PROVIDER_MODES.join(', ')}`)
  if (provider.exhausted !== undefined && !['repeat-last', 'miss'].includes(provider.exhausted)) throw new HarnessOptionError('provider.exhausted', provider.exhausted, "'repeat-last' or 'miss'")
  const redact = [...(provider.redact ?? [])]
  redact.forEach((source, index) => {
    try {
      new RegExp(source)
    } catch {
      throw new HarnessOptionError(`provider.redact[${index}]`, source, 'a valid RegExp source')
    }
  })
  return {
    provider: Object.assign(Object.create(null) as object, {
      mode: provider.mode ?? null,
      cassettesDir: checkString('provider.cassettesDir', provider.cassettesDir) ?? DEFAULT_CASSETTES_DIR,
      upstream: checkString('provider.upstream', provider.upstream),
      scenario: checkString('provider.scenario', provider.scenario),
      match: { ignore: [...(provider.match?.ignore ?? [])], replace: [...(provider.match?.replace ?? [])] },
      redact,
      exhausted: provider.exhausted ?? 'repeat-last',
    }),
    evidence,
  }
}
