import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when its record does not mark the model requests: Codex
 * `exec --json` reports usage once per Codex turn and Gemini CLI's stream-json once per run, each
 * summing however many requests the agent made. Each `usage` of such a stream stands for at least
 * one request, not exactly one; the checker names this warning as the reason a count of requests
 * is a lower bound and a per-request series is unknown.
 */
export const REQUESTS_UNMARKED = 'requests_unmarked'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for a record of `format` whose usage figures are `summed` (say over what). */
export function requestsUnmarkedWarning(format: string, summed: string): Warning {
  return {
    event: 'warning',
    code: REQUESTS_UNMARKED,
    message: `${format} gives no usage per model request: its usage is summed ${summed}, so each usage here stands for one request or more`,
  }
}
