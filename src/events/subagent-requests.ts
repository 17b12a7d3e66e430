import type { Emission } from './types.js'

/**
 * The `warning`s an adapter writes when a subagent made model requests that a record of the run
 * does not fully show, once per subagent (named by the call that started it). The checker reads
 * each as the reason a ceiling on a count or a total is unknown.
 *
 * - `subagent_requests_unseen`: the stream may not show them all. Claude Code 2.1.328 and Qwen Code
 *   0.24.4 stream a foreground agent's requests but not its last, whose answer reaches the run as
 *   the agent call's result (3 request records streamed for the 4 requests the provider answered,
 *   measured on both binaries): a count of the run's requests is a lower bound.
 * - `subagent_usage_apart`: the terminal record's `usage` leaves them out. Claude Code's `result`
 *   sums the main conversation's requests there, while its `modelUsage` and `total_cost_usd` count
 *   every agent's (2.1.328, a foreground and a background `Agent` alike; Qwen Code 0.24.4 sums them
 *   all): a total read off that `usage` is a lower bound.
 */
export const SUBAGENT_REQUESTS_UNSEEN = 'subagent_requests_unseen'
export const SUBAGENT_USAGE_APART = 'subagent_usage_apart'

type Warning = Extract<Emission, { event: 'warning' }>

function subagentWarning(code: string, callId: string, what: string): Warning {
  return { event: 'warning', code, message: `the subagent started by call ${callId} made model requests ${what}` }
}

/** The stream may not show every request of the subagent `callId` started. */
export function subagentRequestsUnseenWarning(callId: string): Warning {
  return subagentWarning(SUBAGENT_REQUESTS_UNSEEN, callId, "this stream may not all show (its last answers the call): a count of the run's requests is a lower bound")
}

/** The terminal record's usage leaves out the requests of the subagent `callId` started. */
export function subagentUsageApartWarning(callId: string): Warning {
  return subagentWarning(SUBAGENT_USAGE_APART, callId, "that the terminal record's usage leaves out (its model_usage and total cost count them): a token total read off usage is a lower bound on the run's")
}
