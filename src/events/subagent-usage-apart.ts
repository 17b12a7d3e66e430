import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a subagent ran whose model requests the run's terminal
 * record leaves out of its `usage`: Claude Code's `result` sums the main conversation's requests
 * in `usage`, while its `modelUsage` and `total_cost_usd` count every agent's (2.1.328, a
 * foreground and a background `Agent` alike, measured on the real binary). A total read off that
 * `usage` is then a lower bound on the run's; the checker names this warning as the reason a
 * ceiling on it is unknown.
 */
export const SUBAGENT_USAGE_APART = 'subagent_usage_apart'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for the subagent the call `callId` started, once. */
export function subagentUsageApartWarning(callId: string): Warning {
  return {
    event: 'warning',
    code: SUBAGENT_USAGE_APART,
    message: `the subagent started by call ${callId} made model requests that the terminal record's usage leaves out (its model_usage and total cost count them): a token total read off usage is a lower bound on the run's`,
  }
}
