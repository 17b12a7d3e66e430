import { suiteNameProblem } from '../../evidence/test-result.js'
import { prefixed } from '../../util/log.js'

/** One `test_result` record over every test module whose path matches `selector`. */
export interface TestResultGroup {
  /** The suite the record names (`unit`, `integration`, `e2e`, or any kebab-case name). */
  readonly suite: string
  /**
   * A glob over module paths relative to the Vitest root (`*` within a segment, `**` across
   * segments, `?` one character), written into the record as its `selector`.
   */
  readonly selector: string
}

/** Options of `vitest-harness/reporter`. */
export interface EvidenceReporterOptions {
  /**
   * Where evidence documents are written, relative to the Vitest root: a symlink to the run's set
   * in `<outDir>.sets/<run-id>/`, replaced atomically on each run (see `evidence-set.ts`).
   * @default 'evidence'
   */
  readonly outDir?: string
  /**
   * `yaml` (serde_yaml's spelling, as `aep` writes) or `json` (pretty, as `aep --format json`).
   * @default 'yaml'
   */
  readonly format?: 'yaml' | 'json'
  /**
   * How ordinary results become `test_result` records: `per-file` (one per test module, `selector`
   * its path), `off`, or a list of groups, one record per group.
   * @default 'per-file'
   */
  readonly testResults?: 'per-file' | 'off' | readonly TestResultGroup[]
  /**
   * The suite named by per-file `test_result` records.
   * @default 'unit'
   */
  readonly suite?: string
  /**
   * Write `duration_ms` on `test_result` records. Off by default: a duration differs on every run,
   * so records with it are never identical across a single run and a sharded one.
   * @default false
   */
  readonly durations?: boolean
  /**
   * The folder holds exactly the evidence of the last run — a check that no longer runs leaves no
   * record behind, and an interrupted run swaps in an empty set. With `false`, the previous set's
   * documents that this run does not write again are carried into the new set.
   * @default true
   */
  readonly clean?: boolean
  /**
   * Writes a self-contained HTML report (`vitest-harness report`'s page) for each transcript a
   * `describeTraceSpec` suite checked, attaches it to the suite's tests with Vitest's annotation
   * API (so Vitest's UI and HTML reporter link it), and an `index.html` listing every test that
   * checked a trace. `true` writes into `trace-reports/`; `{ outDir }` names the folder, relative
   * to the Vitest root. Off by default: a page holds the transcript's text.
   * @default false
   */
  readonly html?: boolean | { readonly outDir?: string }
}

export interface NormalizedEvidenceReporterOptions {
  readonly outDir: string
  readonly format: 'yaml' | 'json'
  readonly testResults: 'per-file' | 'off' | readonly TestResultGroup[]
  readonly suite: string
  readonly durations: boolean
  readonly clean: boolean
  readonly html: false | { readonly outDir: string }
}

/** Where `html: true` writes its pages, relative to the Vitest root. */
export const DEFAULT_HTML_OUT_DIR = 'trace-reports'

export const EVIDENCE_REPORTER_DEFAULTS: NormalizedEvidenceReporterOptions = Object.freeze({
  outDir: 'evidence',
  format: 'yaml',
  testResults: 'per-file',
  suite: 'unit',
  durations: false,
  clean: true,
  html: false,
})

/** An option the reporter cannot use: names the option, the value and what is allowed. */
export class EvidenceReporterOptionsError extends Error {
  readonly code = 'VH_REPORTER_OPTIONS'

  constructor(message: string) {
    super(prefixed(message))
    this.name = 'EvidenceReporterOptionsError'
  }
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

function choice<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
  throw new EvidenceReporterOptionsError(`evidence reporter option ${name} is ${quote(value)}; expected one of ${allowed.map((item) => `'${item}'`).join(', ')}`)
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value === 'boolean') return value
  throw new EvidenceReporterOptionsError(`evidence reporter option ${name} is ${quote(value)}; expected true or false`)
}

function suiteName(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new EvidenceReporterOptionsError(`evidence reporter option ${name} is ${quote(value)}; expected a suite name such as 'unit'`)
  const problem = suiteNameProblem(value)
  if (problem) throw new EvidenceReporterOptionsError(`evidence reporter option ${name} is ${quote(value)}: ${problem}`)
  return value
}

function htmlOption(value: unknown): NormalizedEvidenceReporterOptions['html'] {
  if (value === undefined || value === false) return false
  if (value === true) return Object.freeze({ outDir: DEFAULT_HTML_OUT_DIR })
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EvidenceReporterOptionsError(`evidence reporter option html is ${quote(value)}; expected true, false or { outDir }`)
  const entry = value as Record<string, unknown>
  for (const key of Object.keys(entry)) {
    if (key !== 'outDir') throw new EvidenceReporterOptionsError(`unknown evidence reporter option html.${key}; the only one is outDir`)
  }
  const outDir = entry['outDir'] ?? DEFAULT_HTML_OUT_DIR
  if (typeof outDir !== 'string' || outDir.length === 0) throw new EvidenceReporterOptionsError(`evidence reporter option html.outDir is ${quote(outDir)}; expected a folder path`)
  return Object.freeze({ outDir })
}

/** Reads the options once, at the boundary: defaults applied, every value checked. */
export function normalizeEvidenceReporterOptions(options: EvidenceReporterOptions | undefined): NormalizedEvidenceReporterOptions {
  const raw = (options ?? {}) as Record<string, unknown>
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new EvidenceReporterOptionsError(`evidence reporter options must be an object, got ${quote(options)}`)
  const known = ['outDir', 'format', 'testResults', 'suite', 'durations', 'clean', 'html']
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) throw new EvidenceReporterOptionsError(`unknown evidence reporter option ${quote(key)}; the options are ${known.join(', ')}`)
  }
  const outDir = raw['outDir'] ?? EVIDENCE_REPORTER_DEFAULTS.outDir
  if (typeof outDir !== 'string' || outDir.length === 0) throw new EvidenceReporterOptionsError(`evidence reporter option outDir is ${quote(outDir)}; expected a folder path`)
  let testResults: NormalizedEvidenceReporterOptions['testResults'] = EVIDENCE_REPORTER_DEFAULTS.testResults
  const rawGroups = raw['testResults']
  if (Array.isArray(rawGroups)) {
    testResults = rawGroups.map((group: unknown, index) => {
      const entry = (group ?? {}) as Record<string, unknown>
      const selector = entry['selector']
      if (typeof selector !== 'string' || selector.length === 0) throw new EvidenceReporterOptionsError(`evidence reporter option testResults[${index}].selector is ${quote(selector)}; expected a glob such as 'test/unit/**'`)
      return { suite: suiteName(`testResults[${index}].suite`, entry['suite']), selector }
    })
  } else if (rawGroups !== undefined) {
    testResults = choice<'per-file' | 'off'>('testResults', rawGroups, ['per-file', 'off'], 'per-file')
  }
  return Object.freeze({
    outDir,
    format: choice('format', raw['format'], ['yaml', 'json'], EVIDENCE_REPORTER_DEFAULTS.format),
    testResults,
    suite: raw['suite'] === undefined ? EVIDENCE_REPORTER_DEFAULTS.suite : suiteName('suite', raw['suite']),
    durations: flag('durations', raw['durations'], EVIDENCE_REPORTER_DEFAULTS.durations),
    clean: flag('clean', raw['clean'], EVIDENCE_REPORTER_DEFAULTS.clean),
    html: htmlOption(raw['html']),
  })
}
