import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a subagent made model requests the stream may not all show:
 * Claude Code 2.1.328 and Qwen Code 0.24.4 stream a foreground agent's requests but not its last,
 * whose answer reaches the run as the agent call's result (3 request records streamed for the 4
 * requests the provider answered, measured on both binaries). A count of the run's requests is
 * then a lower bound; the checker names this warning as the reason a ceiling on it is unknown.
 */
export const SUBAGENT_REQUESTS_UNSEEN = 'subagent_requests_unseen'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for the subagent the call `callId` started, once. */
export function subagentRequestsUnseenWarning(callId: string): Warning {
  return {
    event: 'warning',
    code: SUBAGENT_REQUESTS_UNSEEN,
    message: `the subagent started by call ${callId} made model requests this stream may not all show (its last answers the call): a count of the run's requests is a lower bound`,
  }
}
