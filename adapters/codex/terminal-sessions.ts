import { asU64 } from '../shared/fields.js'
import { textContent } from '../shared/session.js'
import { startsByLine, type TypingDialect } from '../shared/typed-sessions.js'

// What 0.169's `exec_command` answers when it yields before the process ends.
const RUNNING = /Process running with session ID (\d+)/

/**
 * Codex's processes: `exec_command {cmd}` may leave one running, under the session id its output
 * names, and `write_stdin {session_id, chars}` types into it.
 */
export const CODEX_TYPING: TypingDialect = {
  startsShell: startsByLine('exec_command', 'cmd'),
  lineTool: 'exec_command',
  lineKey: 'cmd',
  runningSession(output) {
    const text = typeof output === 'string' ? output : textContent(output)
    // Most outputs are of a process that ended: a plain search rules them out before the pattern.
    return text === undefined || !text.includes('Process running') ? undefined : RUNNING.exec(text)?.[1]
  },
  types: 'write_stdin',
  sessionOf: (input) => asU64(input['session_id'])?.toString(),
  typedText: (input) => (typeof input['chars'] === 'string' ? input['chars'] : undefined),
}
