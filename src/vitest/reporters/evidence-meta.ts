import { z } from 'zod'
import { traceReportSchema } from '../../trace/report-schema.js'
import { HARNESS_META_KEY, type ContractVectorMeta, type TraceCheckMeta } from '../meta.js'
import { TRACE_PROOF_KEY_ENV, isTraceReportProof } from '../trace-proof.js'

// Task meta reaches the reporter from test files and from blob files: it is read, not trusted.

const epochMillis = z.number().int().nonnegative()

export const traceCheckMetaSchema = z.object({
  key: z.string().min(1),
  report: traceReportSchema,
  expectationId: z.string().optional(),
  observedAt: epochMillis,
  specPath: z.string().optional(),
  transcriptPath: z.string().optional(),
  proof: z.string().optional(),
})

export const contractVectorMetaSchema = z.object({
  contract: z.string().min(1),
  adapter: z.string(),
  provider: z.string(),
  vectorIds: z.array(z.string()).min(1),
  outcome: z.object({ id: z.string(), tier: z.enum(['c1', 'c2', 'c3']), passed: z.boolean(), detail: z.string() }),
  observedAt: epochMillis,
})

export interface ReadMeta {
  readonly trace?: TraceCheckMeta
  readonly vector?: ContractVectorMeta
  /** Why a meta entry was present and unusable. */
  readonly problems: readonly string[]
}

/** Why trace meta of the declared shape is still not the checker's, or `undefined` when it is. */
function proofProblem(raw: { report?: unknown; proof?: unknown }, key: string | undefined): string | undefined {
  if (key === undefined) return 'vitestHarness.trace cannot be checked: this reporter holds no key for the run (Vitest did not initialise it), so nothing it carries is minted'
  if (raw.proof === undefined) return `vitestHarness.trace carries no proof that the trace checker attached it (meta written by hand, or by a shard run without ${TRACE_PROOF_KEY_ENV}), so it mints nothing; attach verdicts with describeTraceSpec or the trace matchers`
  if (!isTraceReportProof(key, raw.report, raw.proof)) return `vitestHarness.trace's proof does not match its report: the report was changed after the checker attached it, or another run's key signed it (a sharded run needs one ${TRACE_PROOF_KEY_ENV} in every shard and in --merge-reports)`
  return undefined
}

/**
 * Reads `task.meta.vitestHarness`, keeping what has the declared shape and saying what does not.
 * Trace meta counts only with the proof the checker attached under the run's `proofKey`.
 */
export function readHarnessMeta(meta: unknown, proofKey?: string): ReadMeta {
  const harness = (meta as Record<string, { trace?: unknown; vector?: unknown } | undefined> | undefined)?.[HARNESS_META_KEY]
  if (harness === undefined || harness === null || typeof harness !== 'object') return { problems: [] }
  const problems: string[] = []
  let trace: TraceCheckMeta | undefined
  let vector: ContractVectorMeta | undefined
  if (harness.trace !== undefined) {
    const parsed = traceCheckMetaSchema.safeParse(harness.trace)
    // The proof is checked over the report as it arrived, before the schema drops anything.
    const unproven = parsed.success ? proofProblem(harness.trace as { report?: unknown; proof?: unknown }, proofKey) : undefined
    if (parsed.success && unproven) problems.push(unproven)
    else if (parsed.success) trace = parsed.data as TraceCheckMeta
    else problems.push(`vitestHarness.trace is not a TraceCheckMeta: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`)
  }
  if (harness.vector !== undefined) {
    const parsed = contractVectorMetaSchema.safeParse(harness.vector)
    if (parsed.success) vector = parsed.data
    else problems.push(`vitestHarness.vector is not a ContractVectorMeta: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`)
  }
  return { trace, vector, problems }
}
