// Text read out of a transcript, a manifest or a file name reaches a person's terminal through
// every text report. A terminal obeys what it is sent: ESC/OSC sequences retitle it, clear it or
// hide the rest of the report, `\r` overwrites a line, bidi overrides reorder what is read. So
// every text renderer passes its output through here; JSON output keeps its own escaping.

/** C0 controls but `\t` and `\n`, DEL, C1 controls, and the Unicode bidi and line-separator controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function escapeCharacter(character: string): string {
  const code = character.codePointAt(0) as number
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * `text` with every character a terminal would act on spelled as an escape (`\x1b`, `\r`→`\x0d`,
 * `\u202e`): what is left prints as itself, and lines break only where the report breaks them.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, escapeCharacter)
}

/** Text read out of a transcript, made safe for one terminal line: control characters shown as escapes. */
export function terminalSafe(text: string, max = 160): string {
  // eslint-disable-next-line no-control-regex
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => (char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
  return safe.length > max ? `${safe.slice(0, max)}…` : safe
}
