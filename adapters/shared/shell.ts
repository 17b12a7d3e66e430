/**
 * Just enough of POSIX shell word splitting to say which programs a command line starts: quotes,
 * backslashes, and the operators that separate simple commands. Substitutions and redirections
 * are not interpreted; a line this cannot split yields the programs it could read.
 */

/** One simple command: the program (basename of its first word) and its words after it. */
export interface SimpleCommand {
  program: string
  args: string[]
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', '|&', '\n'])
const WRAPPER_SHELLS = new Set(['bash', 'sh', 'zsh', 'dash'])
const PLAIN_READERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more', 'wc'])
const MAX_DEPTH = 3

/** Splits a line into words and operator tokens. */
export function shellTokens(line: string): string[] {
  const tokens: string[] = []
  let word = ''
  let inWord = false
  // Runs of ordinary characters are added to the word as one slice, not a character at a time.
  let run = -1
  const length = line.length
  for (let i = 0; i < length; i++) {
    const c = line.charCodeAt(i)
    if (!isSpecial(c) || (c === 0x5c && i + 1 === length)) {
      if (run === -1) run = i
      inWord = true
      continue
    }
    if (run !== -1) {
      word += line.slice(run, i)
      run = -1
    }
    if (c === 0x27) {
      const end = line.indexOf("'", i + 1)
      word += end === -1 ? line.slice(i + 1) : line.slice(i + 1, end)
      inWord = true
      i = end === -1 ? length : end
    } else if (c === 0x22) {
      inWord = true
      let from = i + 1
      for (i++; i < length && line.charCodeAt(i) !== 0x22; i++) {
        if (line.charCodeAt(i) === 0x5c && i + 1 < length && isEscapableInDoubleQuotes(line.charCodeAt(i + 1))) {
          word += line.slice(from, i)
          i++
          from = i
        }
      }
      word += line.slice(from, i)
    } else if (c === 0x5c) {
      word += line[i + 1]
      inWord = true
      i++
    } else if (c === 0x20 || c === 0x09) {
      if (inWord) tokens.push(word)
      word = ''
      inWord = false
    } else {
      // A newline or one of ; & |, alone or doubled into an operator.
      if (inWord) tokens.push(word)
      word = ''
      inWord = false
      const two = line.slice(i, i + 2)
      if (two === '&&' || two === '||' || two === '|&') {
        tokens.push(two)
        i++
      } else tokens.push(line[i] as string)
    }
  }
  if (run !== -1) word += line.slice(run)
  if (inWord) tokens.push(word)
  return tokens
}

/** Quotes, a backslash, blanks, a newline and the operator characters; everything else is part of a word. */
function isSpecial(c: number): boolean {
  return c === 0x27 || c === 0x22 || c === 0x5c || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x3b || c === 0x26 || c === 0x7c
}

/** The characters a backslash escapes inside double quotes: " \ $ ` and a newline. */
function isEscapableInDoubleQuotes(c: number): boolean {
  return c === 0x22 || c === 0x5c || c === 0x24 || c === 0x60 || c === 0x0a
}

function basename(word: string): string {
  const slash = word.lastIndexOf('/')
  return slash === -1 ? word : word.slice(slash + 1)
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

function commandsOfWords(words: string[], depth: number, out: SimpleCommand[]): void {
  let start = 0
  while (start < words.length && ASSIGNMENT.test(words[start] as string)) start++
  const first = words[start]
  if (first === undefined || first.length === 0) return
  const program = basename(first)
  const args = words.slice(start + 1)
  // `bash -lc '<script>'`: the script is what runs.
  if (WRAPPER_SHELLS.has(program) && depth < MAX_DEPTH) {
    const flag = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg))
    const script = flag === -1 ? undefined : args[flag + 1]
    if (script !== undefined) {
      collect(shellTokens(script), depth + 1, out)
      return
    }
  }
  out.push({ program, args })
}

function collect(tokens: string[], depth: number, out: SimpleCommand[]): void {
  let words: string[] = []
  for (const token of tokens) {
    if (SEPARATORS.has(token)) {
      commandsOfWords(words, depth, out)
      words = []
    } else words.push(token)
  }
  commandsOfWords(words, depth, out)
}

/** The simple commands a shell line (or an argv) starts, wrappers such as `bash -lc` unwrapped. */
export function commandsOfShellLine(line: string | readonly string[]): SimpleCommand[] {
  const out: SimpleCommand[] = []
  if (typeof line === 'string') collect(shellTokens(line), 0, out)
  else commandsOfWords([...line], 0, out)
  return out
}

/** The files a plain reading command names (`cat a b`, `head -n 1 a`); none for anything else. */
export function filesReadBy(command: SimpleCommand): string[] {
  if (!PLAIN_READERS.has(command.program)) return []
  const files: string[] = []
  for (let i = 0; i < command.args.length; i++) {
    const arg = command.args[i] as string
    if (arg.startsWith('-')) {
      // `-n 1`, `-c 10`: the option's value is not a file.
      if (/^-[nc]$/.test(arg)) i++
      continue
    }
    if (/[<>*?$`]/.test(arg) || arg.length === 0) continue
    files.push(arg)
  }
  return files
}
