import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a process the run started could have been sent input by
 * calls the stream does not carry (Codex's `write_stdin`, which `codex exec --json` never prints):
 * one still running when the stream ended, or a shell or interpreter reading its input. The stream
 * then proves no closure; the checker names this warning as the reason an absence over it is unknown.
 */
export const PROCESS_INPUT_UNSEEN = 'process_input_unseen'

type Warning = Extract<Emission, { event: 'warning' }>

/** Why a process could have been sent input: it outlived the stream, or it reads its commands from its input. */
export type UnseenInput = 'running' | 'reading'

const WHY: Record<UnseenInput, string> = { running: 'was still running when the stream ended', reading: 'reads what to run from its input' }

/** The warning for the process call `callId` started (`command`), whose input went where this stream does not show. */
export function processInputUnseenWarning(callId: string, command: string, why: UnseenInput, where: string): Warning {
  return {
    event: 'warning',
    code: PROCESS_INPUT_UNSEEN,
    message: `the process call ${callId} started (${JSON.stringify(command)}) ${WHY[why]}, and what the run wrote to it is in ${where}, not here, so this stream does not prove it holds every command of the run`,
  }
}

/** Whether the warning's message is the one `processInputUnseenWarning` wrote for call `callId`. */
export function processWarningNames(message: string, callId: string): boolean {
  return message.startsWith(`the process call ${callId} started (`)
}
