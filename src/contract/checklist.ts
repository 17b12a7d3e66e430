import type { ContractObligations, Obligation } from '../../adapters/obligations.js'
import type { VectorTier } from './manifest.js'
import type { VectorOutcome } from './outcome.js'

/** One row of the checklist: what it owes, the tier its vectors belong to, and its key in a declaration. */
export interface ChecklistRow {
  readonly key: keyof ContractObligations
  readonly owed: string
  readonly tier: VectorTier
}

/** The four rows every adapter answers, in the order a reader checks them (upstream's CT-4). */
export const CHECKLIST_ROWS: readonly ChecklistRow[] = [
  { key: 'launch', owed: 'at least one launch vector', tier: 'c1' },
  { key: 'recordedWire', owed: 'a recorded transcript/rollout vector', tier: 'c2' },
  { key: 'hookInput', owed: 'a recorded hook-input vector', tier: 'c2' },
  { key: 'versionPair', owed: 'a golden-version-pair vector', tier: 'c2' },
]

/** How a row stands: met by its vectors, a reasoned gap, or unmet with every problem named. */
export type ChecklistVerdict =
  | { readonly status: 'met'; readonly ids: readonly string[] }
  | { readonly status: 'gap'; readonly reason: string }
  | { readonly status: 'unmet'; readonly problems: readonly string[] }

/** What a row can know about a named vector: its declared tier, and its outcome once it ran. */
export interface NamedVector {
  readonly tier: VectorTier
  readonly outcome?: VectorOutcome
}

/**
 * Judges one row against the vectors a run holds. A filled row needs every named id to exist, be
 * in the row's tier and pass; a gap needs a non-empty reason; `filled: []` is unmet. A named
 * vector that has not run is unmet too: a row nobody checked does not read as met.
 */
export function checkRow(row: ChecklistRow, obligation: Obligation, vectors: ReadonlyMap<string, NamedVector>): ChecklistVerdict {
  if ('gap' in obligation) {
    return obligation.gap.trim().length > 0
      ? { status: 'gap', reason: obligation.gap }
      : { status: 'unmet', problems: [`${row.owed}: declared unfilled without saying why`] }
  }
  if (obligation.filled.length === 0) return { status: 'unmet', problems: [`${row.owed}: declared filled by no vector at all`] }
  const problems: string[] = []
  for (const id of obligation.filled) {
    const vector = vectors.get(id)
    if (!vector) problems.push(`${row.owed}: the declaration names \`${id}\`, and the run has no such vector`)
    else if (vector.tier !== row.tier) {
      problems.push(`${row.owed}: \`${id}\` is declared as ${row.tier.toUpperCase()} and the run reports it as ${vector.tier.toUpperCase()}`)
    } else if (!vector.outcome) problems.push(`${row.owed}: \`${id}\` did not run, so nothing shows it passes`)
    else if (!vector.outcome.passed) problems.push(`${row.owed}: \`${id}\` failed — ${vector.outcome.detail}`)
  }
  return problems.length === 0 ? { status: 'met', ids: obligation.filled } : { status: 'unmet', problems }
}

/**
 * What a declaration promised and a run did not deliver (upstream's `unmet`). Empty is the
 * checklist met. Two obligations are about the record, not a vector: `checked > 0`, and a
 * `provider` that names the adapter **and** its pin.
 */
export function unmetObligations(
  adapterId: string,
  obligations: ContractObligations,
  outcomes: readonly VectorOutcome[],
  provider: string,
): string[] {
  const problems: string[] = []
  if (outcomes.length === 0) problems.push('checked is 0: a run that checked nothing also has zero failures, so it asserts nothing')
  const vectors = new Map(outcomes.map((outcome) => [outcome.id, { tier: outcome.tier, outcome }]))
  for (const row of CHECKLIST_ROWS) {
    const verdict = checkRow(row, obligations[row.key], vectors)
    if (verdict.status === 'unmet') problems.push(...verdict.problems)
  }
  const problem = providerProblem(adapterId, provider)
  if (problem) problems.push(problem)
  return problems
}

/** Why a `provider` string does not name `<adapter> <pinned version>`, or undefined when it does. */
export function providerProblem(adapterId: string, provider: string): string | undefined {
  const space = provider.indexOf(' ')
  const named = space === -1 ? provider : provider.slice(0, space)
  const pin = space === -1 ? '' : provider.slice(space + 1)
  if (named === adapterId && pin.trim().length > 0) return undefined
  return `provider is ${JSON.stringify(provider)}; the record must carry \`${adapterId} <pinned version>\`, or a consumer cannot tell which binary the contract is about`
}
