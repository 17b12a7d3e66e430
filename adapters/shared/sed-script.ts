/**
 * The files a sed script names itself: `r f` and `R f` read `f` into the output, `w f`, `W f` and
 * the `s///w f` flag write to it (`sed -n '/ERROR/w errors.log' app.log`). The script is no
 * operand, so the line's words do not name them. The name runs to the end of its line, as GNU sed
 * reads it; `/dev/stdout` and `/dev/stderr` are streams, not files.
 */
import { given, readArguments, valuesOf } from './command-arguments.js'

/** The scripts `sed` runs: each `-e` (`--expression`) text, or its first operand where neither that nor `-f` gave one. */
export function sedScripts(args: readonly string[]): readonly string[] {
  const read = readArguments(args, { valued: 'efl', attached: 'i', valuedLong: ['--expression', '--file', '--line-length'] })
  const expressions = valuesOf(read, '-e', '--expression')
  if (expressions.length > 0 || given(read, '-f', '--file')) return expressions
  return read.operands.slice(0, 1)
}

export interface SedScriptFiles {
  readonly read: readonly string[]
  readonly written: readonly string[]
}

const STREAMS = /^\/dev\/(?:stdout|stderr|stdin)$/
// Commands that take no argument, or only a number (`q5`, `l 70`).
const BARE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'q', 'Q', 'l', 'L'])

/** Reads one sed script (`-e` text or the first operand), command by command; stops at what it cannot read. */
export function sedScriptFiles(script: string): SedScriptFiles {
  const read: string[] = []
  const written: string[] = []
  let i = 0
  const restOfLine = (): string => {
    const end = script.indexOf('\n', i)
    const text = script.slice(i, end === -1 ? script.length : end)
    i = end === -1 ? script.length : end + 1
    return text.trim()
  }
  const name = (into: string[]): void => {
    const file = restOfLine()
    if (file.length > 0 && !STREAMS.test(file) && !into.includes(file)) into.push(file)
  }
  // Past a delimited part (`/re/`, `s`'s pattern and replacement), honouring `\` escapes; false where it never closes.
  const delimited = (delimiter: string): boolean => {
    for (; i < script.length; i++) {
      const char = script[i] as string
      if (char === '\\') i++
      else if (char === delimiter) {
        i++
        return true
      }
    }
    return false
  }
  const address = (): boolean => {
    const char = script[i]
    if (char === '/') {
      i++
      if (!delimited('/')) return false
    } else if (char === '\\') {
      const delimiter = script[i + 1]
      i += 2
      if (delimiter === undefined || !delimited(delimiter)) return false
    } else if (char === '$') i++
    else if (char !== undefined && /[0-9+~]/.test(char)) while (i < script.length && /[0-9+~]/.test(script[i] as string)) i++
    // Regex address flags (`/x/I`, `/x/M`).
    while (script[i] === 'I' || script[i] === 'M') i++
    return true
  }
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i] as string)) i++
    if (i >= script.length) break
    if (!address()) break
    if (script[i] === ',') {
      i++
      if (!address()) break
    }
    while (script[i] === ' ' || script[i] === '\t' || script[i] === '!') i++
    const command = script[i++]
    if (command === undefined) break
    if (command === '{' || command === '}') continue
    if (command === '#' || command === ':' || command === 'a' || command === 'i' || command === 'c' || command === 'e') {
      // A comment, a label, text to append, insert or change, a command to run: to the end of the line.
      restOfLine()
      continue
    }
    if (command === 'r' || command === 'R') name(read)
    else if (command === 'w' || command === 'W') name(written)
    else if (command === 's' || command === 'y') {
      const delimiter = script[i++]
      if (delimiter === undefined || !delimited(delimiter) || !delimited(delimiter)) break
      if (command === 'y') continue
      while (i < script.length && /[gpiImMe0-9]/.test(script[i] as string)) i++
      if (script[i] === 'w') {
        i++
        name(written)
      }
    } else if (command === 'b' || command === 't' || command === 'T') {
      // A label runs to the next `;` or line.
      while (i < script.length && script[i] !== ';' && script[i] !== '\n') i++
    } else if (BARE.has(command)) {
      while (i < script.length && /[0-9 ]/.test(script[i] as string)) i++
    } else break
  }
  return { read, written }
}
