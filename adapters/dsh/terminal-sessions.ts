import { asString } from '../shared/fields.js'
import { textContent } from '../shared/session.js'
import type { TypingDialect } from '../shared/typed-sessions.js'

// What `terminal_open` answers: `started terminal session pty-1 (main)`.
const STARTED = /started terminal session (\S+)/

/**
 * dsh's terminals: `terminal_open {type: 'shell'}` starts a shell on a pty under the session its
 * answer names, and `terminal_send {sessionId, text}` types a line into it (`cd` and `export`
 * carry over to the next). Another `type` (a REPL) reads its own language.
 */
export const DSH_TYPING: TypingDialect = {
  startsShell: (name, input) => name === 'terminal_open' && (asString(input['type']) ?? 'shell') === 'shell',
  runningSession: (output) => STARTED.exec(textContent(output) ?? '')?.[1],
  types: 'terminal_send',
  sessionOf: (input) => asString(input['sessionId']),
  typedText: (input) => asString(input['text']),
  lineTool: 'bash',
  lineKey: 'command',
}
