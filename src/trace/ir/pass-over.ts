import { UNCLASSIFIED_TOOL } from '../../events/unclassified-tool.js'
import { CONTROL_PLANE_EVENTS } from './event-stream.js'
import type { EnvelopeScan } from './line-scan.js'
import type { IrFamily, IrReads } from './types.js'

/**
 * Which `metaharness.event/1` lines a check may pass over, from their envelope alone: a line is
 * passed over only when what the event-stream reader would make of it is something the sink does
 * not read. Anything not named here — the session's opening and close, `opaque`, `stream.closed`,
 * an unknown name — is always read whole, because every check reads those.
 */

/** What passing over a line leaves behind. */
export const Passing = {
  /** Read the line whole. */
  Read: 0,
  /** Pass over it: the reader would have emitted no IR event for it. */
  Silent: 1,
  /** Pass over it, but number it: the reader would have emitted one IR event the sink does not read. */
  Numbered: 2,
} as const
export type Passing = (typeof Passing)[keyof typeof Passing]

const bytes = (name: string) => Buffer.from(name, 'utf8')

// What each name becomes: an IR family (numbered), or a kind of control record (silent).
const TO_FAMILY: ReadonlyArray<readonly [string, IrFamily]> = [
  ['text', 'assistant_text'],
  ['thinking', 'assistant_thinking'],
  ['thinking.estimate', 'thinking_estimate'],
  ['injection', 'synthetic_injection'],
  ['tool.requested', 'tool_call'],
  ['tool.result', 'tool_result'],
  ['rate_limit', 'rate_limit'],
]
const DECIDED = 'tool.decided'
const WARNING = 'warning'
const USAGE = 'usage'
// Control-plane records the reader understands and projects into no family; two of them it reads.
const SILENT = [...CONTROL_PLANE_EVENTS].filter((name) => name !== DECIDED && name !== WARNING)

const NAMES: readonly Uint8Array[] = [...TO_FAMILY.map(([name]) => bytes(name)), ...SILENT.map(bytes), bytes(DECIDED), bytes(WARNING), bytes(USAGE)]
const FIRST_SILENT = TO_FAMILY.length
const AT_DECIDED = FIRST_SILENT + SILENT.length
const AT_WARNING = AT_DECIDED + 1
const AT_USAGE = AT_WARNING + 1
const TOOL_REQUESTED = TO_FAMILY.findIndex(([name]) => name === 'tool.requested')
const UNCLASSIFIED = bytes(UNCLASSIFIED_TOOL)

/** How the line whose envelope is `scan` may be passed over by a sink that reads `reads`. */
export function passingOf(scan: EnvelopeScan, reads: IrReads): Passing {
  const at = scan.eventIn(NAMES)
  if (at === -1) return Passing.Read
  if (at < FIRST_SILENT) {
    // A call without a name goes opaque, which every check reads.
    if (at === TOOL_REQUESTED && !scan.named) return Passing.Read
    return reads.families.has((TO_FAMILY[at] as readonly [string, IrFamily])[1]) ? Passing.Read : Passing.Numbered
  }
  if (at < AT_DECIDED) return Passing.Silent
  if (at === AT_DECIDED) return reads.decisions ? Passing.Read : Passing.Silent
  // Only an unclassified-tool warning changes what a later call's operations mean.
  if (at === AT_WARNING) return reads.families.has('tool_call') && scan.codeIs(UNCLASSIFIED) ? Passing.Read : Passing.Silent
  if (at === AT_USAGE) return reads.requests ? Passing.Read : Passing.Silent
  return Passing.Read
}
