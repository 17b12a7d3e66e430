import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { writeSortedJson } from '../events/json.js'
import { prefixed } from '../util/log.js'

/*
 * Trace meta reaches the reporter as plain JSON any test could write. So the checker signs what it
 * attaches — an HMAC-SHA256 over the report's canonical bytes (sorted keys, compact), with a key
 * the run holds — and the reporter mints a `trace_conformance` record only from meta whose proof
 * it can check. The evidence reporter makes the key in the main process and `provide`s it to the
 * workers; a sharded run's shards and its `--merge-reports` run share one through the environment.
 */

/** A key for the run, for sharded runs: set alike in every shard and in the `--merge-reports` run. */
export const TRACE_PROOF_KEY_ENV = 'VITEST_HARNESS_EVIDENCE_KEY'

/** At least 128 bits, as hex or any text of that length. */
const MIN_KEY_LENGTH = 32

/** A key given through the environment that is too short to be a secret. */
export class TraceProofKeyError extends Error {
  readonly code = 'VH_TRACE_PROOF_KEY'

  constructor(length: number) {
    super(prefixed(`${TRACE_PROOF_KEY_ENV} is ${length} character(s) long; a key for the run's trace proofs needs at least ${MIN_KEY_LENGTH} (e.g. \`openssl rand -hex 32\`), or leave it unset for a key of this run's own`))
    this.name = 'TraceProofKeyError'
  }
}

/** The run's key: the environment's when set (sharded runs), else 256 fresh random bits. */
export function runTraceProofKey(env: Readonly<Record<string, string | undefined>>): string {
  const given = env[TRACE_PROOF_KEY_ENV]
  if (given === undefined || given === '') return randomBytes(32).toString('hex')
  if (given.length < MIN_KEY_LENGTH) throw new TraceProofKeyError(given.length)
  return given
}

/** The proof the checker attaches beside a report: lowercase hex HMAC-SHA256 of its canonical bytes. */
export function traceReportProof(key: string, report: unknown): string {
  return createHmac('sha256', key).update(writeSortedJson(report)).digest('hex')
}

/** Whether `proof` is the proof of `report` under `key` (compared in constant time). */
export function isTraceReportProof(key: string, report: unknown, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false
  return timingSafeEqual(Buffer.from(traceReportProof(key, report), 'hex'), Buffer.from(proof, 'hex'))
}
