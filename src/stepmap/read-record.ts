import { parseEvidenceKind, type EvidenceKindName } from '../evidence/intake-kinds.js'
import { renderIntakeDiagnostic, validateEvidenceText } from '../evidence/intake.js'
import { readYaml, renderYamlProblem } from '../util/yaml.js'
import { INPUT_LIMITS, InputError, readBoundedText } from '../util/read-input.js'

/** What a record says about the check that wrote it. */
export type RecordVerdict = { readonly verdict: 'passed' | 'failed' | 'inconclusive'; readonly why: string }

/** What reading a verifier's own record found. */
export type RecordReading =
  | { readonly ok: true; readonly records: readonly Record<string, unknown>[]; readonly verdict: RecordVerdict }
  | { readonly ok: false; readonly problem: string }

const num = (value: unknown): number => (typeof value === 'number' ? value : 0)

/** The verdict one record carries, read the way its facts are (`trace_conformance.passed`, `tests.<suite>.failed`…). */
export function recordVerdict(record: Record<string, unknown>): RecordVerdict {
  const kind = parseEvidenceKind(String(record['kind']))
  const status = record['status']
  switch (kind) {
    case 'trace_conformance': {
      if (status === 'inconclusive') return { verdict: 'inconclusive', why: `${num(record['expectations_unknown'])} expectation(s) could not be decided` }
      if (status !== 'passed') return { verdict: 'failed', why: `status ${String(status)}: ${num(record['expectations_gapped'])} of ${num(record['expectations_total'])} expectation(s) gapped (${((record['gapped_expectations'] as string[] | undefined) ?? []).join(', ')})` }
      return num(record['expectations_gapped']) === 0 ? { verdict: 'passed', why: `${num(record['expectations_total'])} expectation(s), none gapped` } : { verdict: 'failed', why: `passed with ${num(record['expectations_gapped'])} advisory gap(s), so \`trace_conformance.passed\` is false` }
    }
    case 'test_result':
      if (num(record['passed']) + num(record['failed']) === 0) return { verdict: 'inconclusive', why: 'no test ran to a result' }
      return num(record['failed']) === 0 ? { verdict: 'passed', why: `${num(record['passed'])} passed` } : { verdict: 'failed', why: `${num(record['failed'])} failed, ${num(record['passed'])} passed` }
    case 'static_analysis':
      return num(record['errors']) === 0 ? { verdict: 'passed', why: 'no errors' } : { verdict: 'failed', why: `${num(record['errors'])} error(s)` }
    case 'contract_result':
      if (num(record['checked']) === 0) return { verdict: 'inconclusive', why: 'nothing was checked' }
      return num(record['failed']) === 0 && num(record['breaking_changes']) === 0 ? { verdict: 'passed', why: `${num(record['checked'])} checked` } : { verdict: 'failed', why: `${num(record['failed'])} failed, ${num(record['breaking_changes'])} breaking` }
    case 'specification':
      return record['satisfied'] === true ? { verdict: 'passed', why: 'satisfied' } : { verdict: 'failed', why: 'not satisfied' }
    case 'artifact':
      return record['holds'] === false ? { verdict: 'failed', why: 'the observation does not hold' } : { verdict: 'passed', why: 'the observation holds' }
    case 'deployment_result':
      return status === 'succeeded' ? { verdict: 'passed', why: 'succeeded' } : { verdict: status === 'in_progress' ? 'inconclusive' : 'failed', why: String(status) }
    case 'health_observation':
      return status === 'healthy' ? { verdict: 'passed', why: 'healthy' } : { verdict: 'failed', why: String(status) }
    case 'approval':
      return record['decision'] === 'granted' ? { verdict: 'passed', why: 'granted' } : { verdict: 'failed', why: String(record['decision']) }
    case 'diff':
    case 'metric_observation':
      return { verdict: 'passed', why: 'observed' }
    default:
      if (status === 'passed') return { verdict: 'passed', why: 'status passed' }
      if (status === 'failed') return { verdict: 'failed', why: 'status failed' }
      return { verdict: 'inconclusive', why: status === undefined ? `a \`${String(record['kind'])}\` record carries no verdict this tool reads` : `status ${String(status)}` }
  }
}

/**
 * Reads the document a verifier wrote at `record:` and holds it to the engine's intake rules: it
 * must exist, be an evidence document the engine reads (every record accepted, none in the future),
 * and hold only records of the kind the step declares. The verdict is the worst of its records'.
 */
export function readRecord(path: string, kind: EvidenceKindName, now: number): RecordReading {
  let text: string
  try {
    text = readBoundedText(path, { maxBytes: INPUT_LIMITS.evidence, what: 'record' })
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { ok: false, problem: error.code === 'VH_INPUT_MISSING' ? `the verifier wrote no record at ${path}: no such file` : error.message }
  }
  const report = validateEvidenceText(text, { now })
  if (report.documentRefused || report.refused.length > 0) {
    const lines = report.diagnostics.map((diagnostic) => `  ${renderIntakeDiagnostic(path, diagnostic)}`)
    const why = report.documentRefused ? 'is not an evidence document the engine reads' : `has ${report.refused.length} record(s) the engine refuses`
    return { ok: false, problem: `the record at ${path} ${why}:\n${lines.join('\n')}` }
  }
  const read = readYaml(text)
  if (!read.ok) return { ok: false, problem: `the record at ${path} cannot be read:\n${read.problems.map((problem) => `  ${renderYamlProblem(problem, path)}`).join('\n')}` }
  const records = read.value as Record<string, unknown>[]
  if (records.length === 0) return { ok: false, problem: `the record at ${path} lists no record` }
  for (const [index, record] of records.entries()) {
    const written = parseEvidenceKind(String(record['kind']))
    if (written !== kind) return { ok: false, problem: `the record at ${path}: record ${index + 1} is \`${String(record['kind'])}\`, and the step declares \`${kind}\`` }
  }
  const verdicts = records.map(recordVerdict)
  const worst = verdicts.find((entry) => entry.verdict === 'failed') ?? verdicts.find((entry) => entry.verdict === 'inconclusive') ?? (verdicts[0] as RecordVerdict)
  return { ok: true, records, verdict: worst }
}
