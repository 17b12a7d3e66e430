import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a subagent ran whose calls its stream does not hold (the
 * harness wrote them to the subagent's own file). The stream then proves no closure; the checker
 * names this warning as the reason an absence over it is unknown.
 */
export const SUBAGENT_CALLS_UNSEEN = 'subagent_calls_unseen'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for the subagent that call `callId` started, whose calls are in `where`. */
export function subagentCallsUnseenWarning(callId: string, where: string): Warning {
  return {
    event: 'warning',
    code: SUBAGENT_CALLS_UNSEEN,
    message: `a subagent started by call ${callId} ran apart from this stream (its calls are in ${where}), so this stream does not prove it holds every call of the run`,
  }
}

/** Whether the warning's message is the one `subagentCallsUnseenWarning` wrote for call `callId`. */
export function subagentWarningNames(message: string, callId: string): boolean {
  return message.startsWith(`a subagent started by call ${callId} ran apart from this stream (`)
}
