import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes when a process the run started was still running at the end of
 * the stream, so input could have been written to it by calls the stream does not carry (Codex's
 * `write_stdin`, which `codex exec --json` never prints). The stream then proves no closure; the
 * checker names this warning as the reason an absence over it is unknown.
 */
export const PROCESS_INPUT_UNSEEN = 'process_input_unseen'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for the process call `callId` started (`command`), whose input went where this stream does not show. */
export function processInputUnseenWarning(callId: string, command: string, where: string): Warning {
  return {
    event: 'warning',
    code: PROCESS_INPUT_UNSEEN,
    message: `the process call ${callId} started (${JSON.stringify(command)}) was still running when the stream ended, and what the run wrote to it is in ${where}, not here, so this stream does not prove it holds every command of the run`,
  }
}
