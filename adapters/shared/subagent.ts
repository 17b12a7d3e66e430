import { subagentCallsUnseenWarning } from '../../src/events/subagent-calls-unseen.js'
import type { CloseReason, Emission } from '../../src/events/types.js'

/**
 * One stream's subagents whose calls it does not carry: once a call spawns one (`subagent.spawn`)
 * the stream says so, once, and its closure no longer stands.
 */
export class UnseenSubagents {
  private spawned = false

  /** `where`: the file or session that holds a subagent's calls instead, for the warning. */
  constructor(private readonly where: string) {}

  /** The events, with the warning after them the first time one of them spawns a subagent. */
  watch(events: Emission[]): Emission[] {
    if (this.spawned) return events
    const spawn = events.find((event) => event.event === 'tool.requested' && event.operations?.includes('subagent.spawn') === true)
    if (spawn?.event !== 'tool.requested') return events
    return [...events, this.announce(spawn.call_id)]
  }

  /** The warning for a subagent the stream announced by other means (a background task's start). */
  announce(callId: string, where: string = this.where): Emission {
    this.spawned = true
    return subagentCallsUnseenWarning(callId, where)
  }

  /** The stream's closure, unless a subagent ran apart from it. */
  closure(closed: CloseReason | null): CloseReason | null {
    return this.spawned ? null : closed
  }
}
