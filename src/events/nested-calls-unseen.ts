import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a call ran code that called tools whose calls its stream
 * does not carry (Qwen Code's `exec` in code mode: its JavaScript calls `tools.run_shell_command`,
 * and `--output-format stream-json` shows only the `exec`). The stream then proves no closure; the
 * checker names this warning as the reason an absence over it is unknown.
 */
export const NESTED_CALLS_UNSEEN = 'nested_calls_unseen'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for call `callId` of `tool`, whose nested calls are in `where`. */
export function nestedCallsUnseenWarning(callId: string, tool: string, where: string): Warning {
  return {
    event: 'warning',
    code: NESTED_CALLS_UNSEEN,
    message: `call ${callId} (${tool}) ran code that called tools, and those calls are in ${where}, not in this stream, so this stream does not prove it holds every call of the run`,
  }
}

/** Whether the warning's message is the one `nestedCallsUnseenWarning` wrote for call `callId`. */
export function nestedWarningNames(message: string, callId: string): boolean {
  return message.startsWith(`call ${callId} (`) && message.includes(') ran code that called tools, and those calls are in ')
}
