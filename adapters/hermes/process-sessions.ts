import { asString, isObject } from '../shared/fields.js'
import { startsByLine, type TypingDialect } from '../shared/typed-sessions.js'

// The `process` actions that send text to a running process's stdin (`submit` adds Enter).
const TYPING_ACTIONS: ReadonlySet<string> = new Set(['write', 'submit'])

/** The session a `terminal` answer says it left running: `{"output": "Background process started", "session_id": "proc_…"}`. */
function backgroundSession(output: unknown): string | undefined {
  if (typeof output !== 'string' || !output.includes('"session_id"')) return undefined
  try {
    const answer: unknown = JSON.parse(output)
    return isObject(answer) ? asString(answer['session_id']) : undefined
  } catch {
    return undefined
  }
}

/**
 * hermes' background processes: `terminal {command, background: true}` leaves one running under
 * the `session_id` its answer names, and `process {action: write|submit, session_id, data}` types
 * into it.
 */
export const HERMES_TYPING: TypingDialect = {
  starts: startsByLine('terminal', 'command'),
  lineTool: 'terminal',
  lineKey: 'command',
  runningSession: backgroundSession,
  types: 'process',
  sessionOf: (input) => asString(input['session_id']),
  typedText: (input) => (TYPING_ACTIONS.has(asString(input['action']) ?? '') ? asString(input['data']) : undefined),
}
