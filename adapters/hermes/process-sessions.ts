import { asString, isObject } from '../shared/fields.js'
import { startsByLine, type TypingDialect } from '../shared/typed-sessions.js'

// The `process` actions that send text to a running process's stdin (`submit` adds Enter).
const TYPING_ACTIONS: ReadonlySet<string> = new Set(['write', 'submit'])


/**
 * hermes' background processes: `terminal {command, background: true}` leaves one running under
 * the `session_id` its answer names, and `process {action: write|submit, session_id, data}` types
 * into it.
 */
export const HERMES_TYPING: TypingDialect = {
  startsShell: startsByLine('terminal', 'command'),
  lineTool: 'terminal',
  lineKey: 'command',
  // Given the row's answer (`hermesAnswer`): `{"output": "Background process started", "session_id": "proc_…"}`.
  runningSession: (answer) => (isObject(answer) ? asString(answer['session_id']) : undefined),
  types: 'process',
  sessionOf: (input) => asString(input['session_id']),
  typedText: (input) => (TYPING_ACTIONS.has(asString(input['action']) ?? '') ? asString(input['data']) : undefined),
}
