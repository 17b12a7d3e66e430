import { JsonNumber } from '../../events/float.js'
import type { Emission } from '../../events/types.js'
import { NESTED_CALLS_UNSEEN } from '../../events/nested-calls-unseen.js'
import { PROCESS_INPUT_UNSEEN } from '../../events/process-input-unseen.js'
import { REFUSAL_WARNINGS } from '../../events/refusal-warnings.js'
import { REQUESTS_UNMARKED } from '../../events/requests-unmarked.js'
import { SUBAGENT_REQUESTS_UNSEEN, SUBAGENT_USAGE_APART } from '../../events/subagent-requests.js'
import { SUBAGENT_CALLS_UNSEEN } from '../../events/subagent-calls-unseen.js'
import { UNCLASSIFIED_TOOL } from '../../events/unclassified-tool.js'
import { CONTROL_PLANE_EVENTS } from './event-stream.js'
import { type EnvelopeScan, EventNames } from './line-scan.js'
import type { IrFamily, IrReads } from './types.js'

/**
 * Which `metaharness.event/1` events a check may pass over, from their envelope alone: an event is
 * passed over only when what the event-stream reader would make of it is something the sink does
 * not read. Anything not named here — the session's opening and close, `opaque`, `stream.closed`,
 * an unknown name — is always read whole, because every check reads those.
 */

/** What passing over an event leaves behind. */
export const Passing = {
  /** Read the event whole. */
  Read: 0,
  /** Pass over it: the reader would have emitted no IR event for it. */
  Silent: 1,
  /** Pass over it, but number it: the reader would have emitted one IR event the sink does not read. */
  Numbered: 2,
  /** Pass over it, but count a decision the seam made that denied nothing (a run outcome joins them). */
  Decided: 3,
} as const
export type Passing = (typeof Passing)[keyof typeof Passing]

/** What the event-stream reader keeps of a warning, by its code. */
const Kept = {
  /** Nothing: the warning is passed over whatever the check reads. */
  Nothing: 0,
  /** What a later call's operations mean, or why an absence is unknown: a check over calls reads it. */
  CallsFact: 1,
  /** A refusal (a run outcome's denial), requests summed in one usage, or a subagent's left out of it or of the stream: a check of either reads it. */
  RunFact: 2,
} as const
type Kept = (typeof Kept)[keyof typeof Kept]

const KEPT_BY_CODE = new Map<string, Kept>([
  ...[UNCLASSIFIED_TOOL, SUBAGENT_CALLS_UNSEEN, PROCESS_INPUT_UNSEEN, NESTED_CALLS_UNSEEN].map((code): [string, Kept] => [code, Kept.CallsFact]),
  ...[...REFUSAL_WARNINGS, REQUESTS_UNMARKED, SUBAGENT_USAGE_APART, SUBAGENT_REQUESTS_UNSEEN].map((code): [string, Kept] => [code, Kept.RunFact]),
])
const KEPT_CODES = [...KEPT_BY_CODE].map(([code, kept]) => ({ bytes: Buffer.from(code, 'utf8'), kept }))

/**
 * What passing over one event leaves, from what its envelope says: whether a call is named, what
 * the reader keeps of a warning (`Kept`), whether a decision certainly denied nothing.
 */
type Rule = (reads: IrReads, named: boolean, kept: Kept, allowed: boolean) => Passing

const byFamily =
  (family: IrFamily): Rule =>
  (reads) =>
    reads.families.has(family) ? Passing.Read : Passing.Numbered

const RULES = new Map<string, Rule>([
  ['text', byFamily('assistant_text')],
  ['thinking', byFamily('assistant_thinking')],
  ['thinking.estimate', byFamily('thinking_estimate')],
  ['injection', byFamily('synthetic_injection')],
  ['tool.result', byFamily('tool_result')],
  ['rate_limit', byFamily('rate_limit')],
  // A call without a name goes opaque, which every check reads.
  ['tool.requested', (reads, named) => (named ? byFamily('tool_call')(reads, named, Kept.Nothing, false) : Passing.Read)],
  // A terminal record's denials are joined with the seam's decisions: a denial is read, and one
  // that denied nothing only says the seam decided.
  ['tool.decided', (reads, _named, _kept, allowed) => (reads.decisions ? (allowed ? Passing.Decided : Passing.Read) : Passing.Silent)],
  // Few warnings change what a check concludes (see `Kept`). Whoever reads the run outcome or the
  // requests reads every warning kept of; a warning the reader keeps nothing of is never read.
  ['warning', (reads, _named, kept) => (kept !== Kept.Nothing && ((kept === Kept.CallsFact && reads.families.has('tool_call')) || reads.decisions || reads.requests) ? Passing.Read : Passing.Silent)],
  ['usage', (reads) => (reads.requests ? Passing.Read : Passing.Silent)],
])
// The rest of the control plane the reader understands and projects into no family.
for (const name of CONTROL_PLANE_EVENTS) if (!RULES.has(name)) RULES.set(name, () => Passing.Silent)

const NAMES = [...RULES.keys()]
const EVENT_NAMES = new EventNames(NAMES)
const WARNING_AT = NAMES.indexOf('warning')
const DECIDED_AT = NAMES.indexOf('tool.decided')
// The one spelling of a decision the scan takes as certainly not a denial; any other is read whole.
const ALLOWED = Buffer.from('{"decision":"allow"}', 'utf8')

/** What the reader keeps of the warning whose envelope is `scan`. */
function keptOfScan(scan: EnvelopeScan): Kept {
  for (const { bytes, kept } of KEPT_CODES) if (scan.codeIs(bytes)) return kept
  return Kept.Nothing
}

/** How the line whose envelope is `scan` may be passed over by a sink that reads `reads`. */
export function passingOf(scan: EnvelopeScan, reads: IrReads): Passing {
  const at = scan.eventIn(EVENT_NAMES)
  if (at === -1) return Passing.Read
  // Only a warning's code and a decision's spelling are asked of: every other line is spared the comparisons.
  return (RULES.get(NAMES[at] as string) as Rule)(reads, scan.named, at === WARNING_AT ? keptOfScan(scan) : Kept.Nothing, at === DECIDED_AT && scan.decisionIs(ALLOWED))
}

/**
 * Whether a line must be read whole as soon as its event's name is known, whatever else it says:
 * an unknown name, or one whose rule reads it named or not, whatever its warning code, allowed or not.
 */
export function readWholeByName(reads: IrReads): (scan: EnvelopeScan) => boolean {
  const flags = [true, false]
  const kinds = Object.values(Kept)
  const whole = NAMES.map((name) => {
    const rule = RULES.get(name) as Rule
    return flags.every((named) => kinds.every((kept) => flags.every((allowed) => rule(reads, named, kept, allowed) === Passing.Read)))
  })
  return (scan) => {
    const at = scan.eventIn(EVENT_NAMES)
    return at === -1 || whole[at] === true
  }
}

/**
 * How an adapter's event may be passed over, as its printed line would be, when that line is
 * certainly within `maxLineBytes` (a longer one is refused, and only reading it says so).
 */
export function emissionPassingOf(emission: Emission, run: string, reads: IrReads, maxLineBytes: number): Passing {
  const rule = RULES.get(emission.event)
  if (rule === undefined) return Passing.Read
  const fields = emission as Record<string, unknown>
  const decision = fields['decision']
  const denied = typeof decision === 'object' && decision !== null && (decision as Record<string, unknown>)['decision'] === 'deny'
  const code = fields['code']
  const kept = (typeof code === 'string' ? KEPT_BY_CODE.get(code) : undefined) ?? Kept.Nothing
  const passing = rule(reads, typeof fields['name'] === 'string', kept, !denied)
  if (passing === Passing.Read) return passing
  // The envelope's own bytes (format, seq, run) and then every field, each at its longest.
  return withinBytes(emission, maxLineBytes - 96 - 6 * run.length) ? passing : Passing.Read
}

/** Whether `value` printed as JSON certainly takes at most `budget` bytes: each UTF-16 unit prints in at most 6. */
function withinBytes(value: unknown, budget: number): boolean {
  const left = bytesLeft(value, budget)
  return left >= 0
}

function bytesLeft(value: unknown, budget: number): number {
  if (budget < 0) return budget
  switch (typeof value) {
    case 'string':
      return budget - 6 * value.length - 2
    case 'number':
    case 'boolean':
    case 'undefined':
      return budget - 32
    case 'object':
      break
    default:
      return -1
  }
  if (value === null) return budget - 4
  if (value instanceof JsonNumber) return budget - value.text.length - 32
  if (Array.isArray(value)) {
    budget -= 2 + value.length
    for (let i = 0; i < value.length && budget >= 0; i++) budget = bytesLeft(value[i], budget)
    return budget
  }
  budget -= 2
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    budget = bytesLeft((value as Record<string, unknown>)[key], budget - 6 * key.length - 4)
    if (budget < 0) return budget
  }
  // A float or another class instance prints as a number or its own fields: counted above, or as a number.
  return budget - 32
}
