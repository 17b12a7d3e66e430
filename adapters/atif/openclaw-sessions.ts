import { asString } from '../shared/fields.js'
import { textContent } from '../shared/session.js'
import { startsByLine, type TypingDialect } from '../shared/typed-sessions.js'

// What OpenClaw's `exec` answers when it leaves the command running in the background.
const RUNNING = /Command still running \(session ([^,\s)]+)/

/**
 * What OpenClaw's `process` actions type into a running session (`write`'s `data`, `paste`'s
 * `text`, `send-keys`' `literal`), by action. `submit` sends Enter; `send-keys`' key names and hex
 * bytes are keys, not words.
 */
const TYPED: Readonly<Record<string, string>> = { write: 'data', paste: 'text', 'send-keys': 'literal' }

/**
 * OpenClaw's sessions: an `exec {command}` may be left running (`Command still running (session
 * salty-nudibranch, pid 1173)`), and `process {action, sessionId}` types into it.
 */
export const OPENCLAW_TYPING: TypingDialect = {
  startsShell: startsByLine('exec', 'command'),
  lineTool: 'exec',
  lineKey: 'command',
  runningSession: (output) => RUNNING.exec(textContent(output) ?? '')?.[1],
  types: 'process',
  sessionOf: (input) => asString(input['sessionId']),
  typedText(input) {
    const key = TYPED[asString(input['action']) ?? '']
    return key === undefined ? undefined : asString(input[key])
  },
}
