import { EvidenceError } from './errors.js'
import { compactProvenance } from './provenance.js'
import type { EvidenceProvenance, TestResultRecord, VerifierProducer } from './types.js'

/** The producer of every `test_result` this package mints. */
export const TEST_RUNNER: VerifierProducer = Object.freeze({ producer: 'verifier', verifier: 'test-runner' })

/** The suites AEP names; any other kebab-case name is accepted as a named suite. */
export const NAMED_SUITES = ['unit', 'integration', 'contract', 'property', 'regression', 'mutation', 'fuzz', 'differential', 'e2e', 'smoke'] as const

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** Why `suite` is not a suite name AEP reads (`TestSuite::parse`), or `undefined` when it is. */
export function suiteNameProblem(suite: string): string | undefined {
  if (suite === 'end_to_end') return undefined
  if (suite.length === 0) return 'a suite name must not be empty'
  if (suite.length > 200) return `a suite name is at most 200 characters, got ${suite.length}`
  return KEBAB.test(suite) ? undefined : 'test suite names are lower-case kebab-case, such as `unit` or `e2e`'
}

export interface TestCounts {
  readonly suite: string
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  readonly durationMs?: number
  readonly selector?: string
}

/**
 * A `test_result` record. Throws `VH_EVIDENCE_RECORD` for a suite name the engine would refuse, and
 * for a run in which no test passed or failed: a run of nothing, or of skips only, is not evidence
 * that anything holds (upstream reads a zero-total run as inconclusive and a skips-only run as
 * passed, and this package never writes the second). `producer` is the test runner unless a step
 * map names another verifier for the suite.
 */
export function testResultRecord(counts: TestCounts, observedAt: number, provenance?: EvidenceProvenance, producer: VerifierProducer = TEST_RUNNER): TestResultRecord {
  const problem = suiteNameProblem(counts.suite)
  if (problem) throw new EvidenceError('VH_EVIDENCE_RECORD', `suite ${JSON.stringify(counts.suite)}: ${problem}`)
  for (const [name, value] of [['passed', counts.passed], ['failed', counts.failed], ['skipped', counts.skipped]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new EvidenceError('VH_EVIDENCE_RECORD', `${name} must be a count, got ${value}`)
  }
  if (counts.passed + counts.failed === 0) {
    throw new EvidenceError('VH_EVIDENCE_RECORD', `suite ${counts.suite}${counts.selector ? ` (${counts.selector})` : ''}: no test ran to a result, so there is nothing to record`)
  }
  return {
    kind: 'test_result',
    suite: counts.suite,
    passed: counts.passed,
    failed: counts.failed,
    skipped: counts.skipped,
    duration_ms: counts.durationMs === undefined ? undefined : Math.max(0, Math.round(counts.durationMs)),
    selector: counts.selector,
    observed_at: observedAt,
    producer,
    provenance: compactProvenance(provenance),
  }
}
