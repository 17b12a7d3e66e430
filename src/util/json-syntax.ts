/**
 * What is wrong with text `JSON.parse` refused, in the project's words: the engine's own message
 * echoes the input (raw bytes into a terminal) and changes between Node versions. Keeps the line and
 * column when the engine gave them.
 */
export function describeJsonSyntaxError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const where = /\(line (\d+) column (\d+)\)/.exec(message)
  const position = where ? undefined : /at position (\d+)/.exec(message)
  const at = where ? ` at line ${where[1]} column ${where[2]}` : position ? ` at offset ${position[1]}` : ''
  if (/end of JSON input|Unterminated string/.test(message)) return `the text ends inside a value${at}`
  if (/after JSON/.test(message)) return `more text follows the value${at}`
  if (/Bad control character/.test(message)) return `a control character inside a string${at}`
  if (/Bad escaped character|Bad Unicode escape/.test(message)) return `a bad escape inside a string${at}`
  if (/property name/.test(message)) return `a property name was expected${at}`
  const token = /^Unexpected token '(.{1,2}?)'/u.exec(message)
  if (token) return `unexpected character ${JSON.stringify(token[1])}${at}`
  return `not valid JSON${at}`
}
