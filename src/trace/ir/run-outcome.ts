import { boolAt, f64At, textAt, u64At } from './json.js'
import type { RunOutcome } from './types.js'

/** The terminal-record fields every reader takes under the same names. */
export type RunOutcomeScalars = Pick<
  RunOutcome,
  | 'isError'
  | 'subtype'
  | 'stopReason'
  | 'terminalReason'
  | 'apiErrorStatus'
  | 'numTurns'
  | 'durationMs'
  | 'durationApiMs'
  | 'ttftMs'
  | 'timeToRequestMs'
  | 'totalCostUsd'
>

/**
 * Reads the scalar half of a run outcome: metaharness's `session.ended` and Claude Code's `result`
 * spell these eleven fields alike; only denials, subagents and usage differ between them.
 */
export function runOutcomeScalars(value: unknown): RunOutcomeScalars {
  return {
    isError: boolAt(value, 'is_error'),
    subtype: textAt(value, 'subtype'),
    stopReason: textAt(value, 'stop_reason'),
    terminalReason: textAt(value, 'terminal_reason'),
    apiErrorStatus: textAt(value, 'api_error_status'),
    numTurns: u64At(value, 'num_turns'),
    durationMs: u64At(value, 'duration_ms'),
    durationApiMs: u64At(value, 'duration_api_ms'),
    ttftMs: u64At(value, 'ttft_ms'),
    timeToRequestMs: u64At(value, 'time_to_request_ms'),
    totalCostUsd: f64At(value, 'total_cost_usd'),
  }
}
