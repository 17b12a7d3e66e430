import { JsonNumber } from '../../events/float.js'
import type { Emission } from '../../events/types.js'
import { NESTED_CALLS_UNSEEN } from '../../events/nested-calls-unseen.js'
import { PROCESS_INPUT_UNSEEN } from '../../events/process-input-unseen.js'
import { REFUSAL_WARNINGS } from '../../events/refusal-warnings.js'
import { REQUESTS_UNMARKED } from '../../events/requests-unmarked.js'
import { SUBAGENT_CALLS_UNSEEN } from '../../events/subagent-calls-unseen.js'
import { UNCLASSIFIED_TOOL } from '../../events/unclassified-tool.js'
import { CONTROL_PLANE_EVENTS } from './event-stream.js'
import type { EnvelopeScan } from './line-scan.js'
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

/**
 * What passing over one event leaves, from what its envelope says: whether a call is named, whether
 * a warning is one a check over calls reads (`TELLING_WARNINGS`), whether a decision certainly
 * denied nothing, whether a warning's code is one the reader acts on at all (`ACTED_ON_WARNINGS`).
 */
type Rule = (reads: IrReads, named: boolean, telling: boolean, allowed: boolean, actedOn: boolean) => Passing

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
  ['tool.requested', (reads, named) => (named ? byFamily('tool_call')(reads, named, false, false, false) : Passing.Read)],
  // A terminal record's denials are joined with the seam's decisions: a denial is read, and one
  // that denied nothing only says the seam decided.
  ['tool.decided', (reads, _named, _unclassified, allowed) => (reads.decisions ? (allowed ? Passing.Decided : Passing.Read) : Passing.Silent)],
  // Few warnings change what a check over calls concludes: an unclassified tool's (what a later
  // call's operations mean) and those saying calls are elsewhere (why an absence is unknown). A
  // terminal record's denials count the harness's refusals, which are warnings, and a record whose
  // usage sums several requests says so in one: whoever reads the record or the requests reads
  // those. A warning of any other code changes nothing the reader keeps, and is never read.
  ['warning', (reads, _named, telling, _allowed, actedOn) => (actedOn && ((telling && reads.families.has('tool_call')) || reads.decisions || reads.requests) ? Passing.Read : Passing.Silent)],
  ['usage', (reads) => (reads.requests ? Passing.Read : Passing.Silent)],
])
// The rest of the control plane the reader understands and projects into no family.
for (const name of CONTROL_PLANE_EVENTS) if (!RULES.has(name)) RULES.set(name, () => Passing.Silent)

const NAMES = [...RULES.keys()]
const NAME_BYTES: readonly Uint8Array[] = NAMES.map((name) => Buffer.from(name, 'utf8'))
const WARNING_AT = NAMES.indexOf('warning')
const DECIDED_AT = NAMES.indexOf('tool.decided')
/** The warning codes a check over calls reads. */
const TELLING_WARNINGS: readonly string[] = [UNCLASSIFIED_TOOL, SUBAGENT_CALLS_UNSEEN, PROCESS_INPUT_UNSEEN, NESTED_CALLS_UNSEEN]
const TELLING = TELLING_WARNINGS.map((code) => Buffer.from(code, 'utf8'))
/** Every warning code the event-stream reader keeps anything of: the telling ones, refusals, requests unmarked. */
const ACTED_ON_WARNINGS: readonly string[] = [...TELLING_WARNINGS, ...REFUSAL_WARNINGS, REQUESTS_UNMARKED]
const ACTED_ON = ACTED_ON_WARNINGS.map((code) => Buffer.from(code, 'utf8'))
// The one spelling of a decision the scan takes as certainly not a denial; any other is read whole.
const ALLOWED = Buffer.from('{"decision":"allow"}', 'utf8')

/** How the line whose envelope is `scan` may be passed over by a sink that reads `reads`. */
export function passingOf(scan: EnvelopeScan, reads: IrReads): Passing {
  const at = scan.eventIn(NAME_BYTES)
  if (at === -1) return Passing.Read
  // Only a warning's code and a decision's spelling are asked of: every other line is spared the comparisons.
  const warning = at === WARNING_AT
  return (RULES.get(NAMES[at] as string) as Rule)(
    reads,
    scan.named,
    warning && TELLING.some((code) => scan.codeIs(code)),
    at === DECIDED_AT && scan.decisionIs(ALLOWED),
    warning && ACTED_ON.some((code) => scan.codeIs(code)),
  )
}

/**
 * Whether a line must be read whole as soon as its event's name is known, whatever else it says:
 * an unknown name, or one whose rule reads it named or not, classified or not.
 */
export function readWholeByName(reads: IrReads): (scan: EnvelopeScan) => boolean {
  const flags = [true, false]
  const whole = NAMES.map((name) => {
    const rule = RULES.get(name) as Rule
    return flags.every((named) => flags.every((telling) => flags.every((allowed) => flags.every((actedOn) => rule(reads, named, telling, allowed, actedOn) === Passing.Read))))
  })
  return (scan) => {
    const at = scan.eventIn(NAME_BYTES)
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
  const passing = rule(reads, typeof fields['name'] === 'string', typeof code === 'string' && TELLING_WARNINGS.includes(code), !denied, typeof code === 'string' && ACTED_ON_WARNINGS.includes(code))
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
