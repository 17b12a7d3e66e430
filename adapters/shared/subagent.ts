import type { Emission } from '../../src/events/types.js'

/** The warning code of a stream that does not carry a subagent's calls. */
export const SUBAGENT_CALLS_UNSEEN = 'subagent_calls_unseen'

/**
 * The warning a reader gives when a subagent ran whose calls its stream does not hold (they are in
 * the subagent's own file): the stream then proves no closure, so an absence over it is unknown
 * instead of an `ok` over calls it never saw.
 */
export function subagentCallsUnseen(callId: string, where: string): Emission {
  return {
    event: 'warning',
    code: SUBAGENT_CALLS_UNSEEN,
    message: `a subagent started by call ${callId} ran apart from this stream (its calls are in ${where}), so this stream does not prove it holds every call of the run`,
  }
}

/** The id of the call among these events that spawns a subagent (`subagent.spawn`), if one does. */
export function subagentSpawnIn(events: readonly Emission[]): string | undefined {
  for (const event of events) if (event.event === 'tool.requested' && event.operations?.includes('subagent.spawn') === true) return event.call_id
  return undefined
}
