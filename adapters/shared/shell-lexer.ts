/**
 * A POSIX shell script read as tokens, as far as saying what it runs needs: words with their
 * quotes removed, operators, redirections with their here-document bodies, and the scripts that
 * command and process substitutions hold. Nothing is expanded and nothing is run. Every input is
 * read to its end in one pass: an unclosed quote or substitution runs to the end of the text.
 */

export interface ShellWord {
  readonly kind: 'word'
  /** The word with quotes and escapes removed; parameter expansions and globs as written. */
  readonly text: string
  /** Whether any part was quoted or escaped: a quoted `if` is no reserved word, nor `\;` an operator. */
  readonly quoted: boolean
  /** Whether the shell changes the word before passing it on: an unquoted `$`, `` ` `` or glob. */
  readonly expands: boolean
  /** The scripts of the `$(…)`, `` `…` ``, `<(…)` and `>(…)` in the word, in order. */
  readonly substitutions: readonly string[]
}

export interface ShellOperator {
  readonly kind: 'operator'
  /** `&&`, `||`, `;`, `;;`, `;&`, `;;&`, `|`, `|&`, `&`, `(`, `)` or a newline. */
  readonly text: string
}

/** `((…))`: an arithmetic command, which runs no program. */
export interface ShellArithmetic {
  readonly kind: 'arithmetic'
}

export interface ShellRedirection {
  readonly kind: 'redirection'
  /** `<`, `>`, `>>`, `>|`, `<>`, `<&`, `>&`, `&>`, `&>>`, `<<`, `<<-` or `<<<`; the word after it is its target. */
  readonly operator: string
  /** A here-document's body (`<<`, `<<-`), once the line that opened it has ended. */
  body?: string
  /** The scripts of the substitutions a here-document with an unquoted delimiter expands. */
  bodySubstitutions?: readonly string[]
}

export type ShellToken = ShellWord | ShellOperator | ShellArithmetic | ShellRedirection

const SPACE = 0x20
const TAB = 0x09
const NEWLINE = 0x0a
const SINGLE = 0x27
const DOUBLE = 0x22
const BACKSLASH = 0x5c
const BACKTICK = 0x60
const DOLLAR = 0x24
const HASH = 0x23
const OPEN = 0x28
const CLOSE = 0x29
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const LESS = 0x3c
const GREATER = 0x3e
const AMPERSAND = 0x26
const BAR = 0x7c
const SEMICOLON = 0x3b

/** Characters that end a run of ordinary word characters. */
function isSpecial(c: number): boolean {
  return (
    c === SPACE || c === TAB || c === NEWLINE || c === SINGLE || c === DOUBLE || c === BACKSLASH || c === BACKTICK || c === DOLLAR ||
    c === OPEN || c === CLOSE || c === LESS || c === GREATER || c === AMPERSAND || c === BAR || c === SEMICOLON ||
    c === 0x2a || c === 0x3f || c === 0x5b
  )
}

/** The characters a backslash escapes inside double quotes: " \ $ ` and a newline. */
function isEscapableInDoubleQuotes(c: number): boolean {
  return c === DOUBLE || c === BACKSLASH || c === DOLLAR || c === BACKTICK || c === NEWLINE
}

interface PendingHereDocument {
  readonly redirection: ShellRedirection
  readonly delimiter: string
  readonly stripTabs: boolean
  readonly expands: boolean
}

/** A here-document's body from `start` (the line after the one that opened it) and where the text goes on. */
export function readHereDocument(text: string, start: number, delimiter: string, stripTabs: boolean): { body: string; end: number } {
  let at = start
  while (at < text.length) {
    const newline = text.indexOf('\n', at)
    const lineEnd = newline === -1 ? text.length : newline
    let line = text.slice(at, lineEnd)
    if (stripTabs) line = line.replace(/^\t+/, '')
    if (line === delimiter) return { body: text.slice(start, at), end: newline === -1 ? text.length : newline + 1 }
    at = lineEnd + 1
  }
  return { body: text.slice(start), end: text.length }
}

/** A here-document delimiter word at `start`: its text with quotes removed, whether any part was quoted, and its end. */
function readDelimiter(text: string, start: number): { delimiter: string; quoted: boolean; end: number } {
  let i = start
  while (i < text.length && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++
  let delimiter = ''
  let quoted = false
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === SINGLE || c === DOUBLE) {
      const close = text.indexOf(text[i] as string, i + 1)
      const end = close === -1 ? text.length : close
      delimiter += text.slice(i + 1, end)
      quoted = true
      i = end
    } else if (c === BACKSLASH && i + 1 < text.length) {
      delimiter += text[i + 1]
      quoted = true
      i++
    } else if (c === SPACE || c === TAB || c === NEWLINE || c === SEMICOLON || c === AMPERSAND || c === BAR || c === LESS || c === GREATER || c === OPEN || c === CLOSE) break
    else delimiter += text[i]
  }
  return { delimiter, quoted, end: i }
}

/**
 * Where the construct opened just before `start` closes — `$(` or `(` by `)`, `${` by `}`, a
 * double quote or a backtick by its own — skipping quotes, nested substitutions and here-document
 * bodies; the index just past the closer, or the text's end when it never closes. Iterative, so
 * nesting of any depth costs one pass.
 */
export function endOfConstruct(text: string, start: number, opener: 'paren' | 'brace' | 'double' | 'backtick'): number {
  const stack: ('paren' | 'brace' | 'double' | 'backtick')[] = [opener]
  const hereDocuments: { delimiter: string; stripTabs: boolean }[] = []
  let i = start
  while (i < text.length) {
    const top = stack[stack.length - 1]
    const c = text.charCodeAt(i)
    if (c === BACKSLASH) {
      i += 2
      continue
    }
    if (top === 'backtick') {
      if (c === BACKTICK) stack.pop()
      i++
    } else if (top === 'double') {
      if (c === DOUBLE) stack.pop()
      else if (c === BACKTICK) stack.push('backtick')
      else if (c === DOLLAR && text.charCodeAt(i + 1) === OPEN) {
        stack.push('paren')
        i++
      } else if (c === DOLLAR && text.charCodeAt(i + 1) === OPEN_BRACE) {
        stack.push('brace')
        i++
      }
      i++
    } else {
      // Code: inside `$(…)`, `(…)` or `${…}`.
      if (c === SINGLE) {
        const close = text.indexOf("'", i + 1)
        i = close === -1 ? text.length : close + 1
        continue
      }
      if (c === DOUBLE) stack.push('double')
      else if (c === BACKTICK) stack.push('backtick')
      else if (c === OPEN) stack.push('paren')
      else if (c === DOLLAR && text.charCodeAt(i + 1) === OPEN_BRACE) {
        stack.push('brace')
        i++
      } else if (c === CLOSE && top === 'paren') stack.pop()
      else if (c === CLOSE_BRACE && top === 'brace') stack.pop()
      else if (c === LESS && text.charCodeAt(i + 1) === LESS && text.charCodeAt(i + 2) !== LESS && top === 'paren') {
        const stripTabs = text.charCodeAt(i + 2) === 0x2d
        const read = readDelimiter(text, i + (stripTabs ? 3 : 2))
        if (read.delimiter.length > 0) hereDocuments.push({ delimiter: read.delimiter, stripTabs })
        i = read.end
        continue
      } else if (c === NEWLINE && hereDocuments.length > 0) {
        let at = i + 1
        for (const document of hereDocuments.splice(0)) at = readHereDocument(text, at, document.delimiter, document.stripTabs).end
        i = at
        continue
      }
      i++
    }
    if (stack.length === 0) return i
  }
  return text.length
}

/** The scripts of the command substitutions in text the shell expands as it would inside double quotes (an unquoted here-document). */
export function substitutionsInExpandedText(text: string): string[] {
  const scripts: string[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === BACKSLASH) i++
    else if (c === BACKTICK) {
      const end = endOfConstruct(text, i + 1, 'backtick')
      scripts.push(text.slice(i + 1, end - 1))
      i = end - 1
    } else if (c === DOLLAR && text.charCodeAt(i + 1) === OPEN) {
      const end = endOfConstruct(text, i + 2, 'paren')
      if (text.charCodeAt(i + 2) !== OPEN) scripts.push(text.slice(i + 2, end - 1))
      i = end - 1
    }
  }
  return scripts
}

const NO_SUBSTITUTIONS: string[] = []

const OPERATORS = ['&&', '||', ';;&', ';;', ';&', ';', '|&', '|', '&', '(', ')']
const REDIRECTIONS = ['<<<', '<<-', '<<', '<>', '<&', '<', '&>>', '&>', '>>', '>|', '>&', '>']

function longestAt(text: string, at: number, candidates: readonly string[]): string {
  for (const candidate of candidates) if (text.startsWith(candidate, at)) return candidate
  return text[at] as string
}

/** Reads a script into tokens. */
export function lexShell(text: string): ShellToken[] {
  return new ShellLexer(text).lex()
}

/** One pass over one script; the word being read is held in fields so no closure is made per call. */
class ShellLexer {
  private readonly tokens: ShellToken[] = []
  private readonly pending: PendingHereDocument[] = []
  // The redirection whose target the next word is, when that target is a here-document delimiter.
  private delimiterFor: { redirection: ShellRedirection; stripTabs: boolean } | undefined
  private word = ''
  private inWord = false
  private quoted = false
  private expands = false
  // Shared until a word holds a substitution: most words hold none.
  private substitutions: string[] = NO_SUBSTITUTIONS

  constructor(private readonly text: string) {}

  private flush(): void {
    if (!this.inWord) return
    const { word, quoted } = this
    if (this.delimiterFor) {
      this.pending.push({ redirection: this.delimiterFor.redirection, delimiter: word, stripTabs: this.delimiterFor.stripTabs, expands: !quoted })
      this.delimiterFor = undefined
    }
    this.tokens.push({ kind: 'word', text: word, quoted, expands: this.expands, substitutions: this.substitutions })
    this.word = ''
    this.inWord = false
    this.quoted = false
    this.expands = false
    this.substitutions = NO_SUBSTITUTIONS
  }

  private substitute(scripts: readonly string[]): void {
    if (scripts.length === 0) return
    if (this.substitutions === NO_SUBSTITUTIONS) this.substitutions = []
    this.substitutions.push(...scripts)
  }

  /** At a newline: the bodies of the here-documents its line opened, and where the script goes on. */
  private readHereDocuments(at: number): number {
    for (const document of this.pending.splice(0)) {
      const read = readHereDocument(this.text, at, document.delimiter, document.stripTabs)
      document.redirection.body = read.body
      if (document.expands) document.redirection.bodySubstitutions = substitutionsInExpandedText(read.body)
      at = read.end
    }
    return at
  }

  /** A double-quoted part from the quote at `start`; the index of its closing quote (or the end). */
  private doubleQuoted(start: number): number {
    const { text } = this
    const length = text.length
    this.inWord = true
    this.quoted = true
    let from = start + 1
    let i = from
    for (; i < length; i++) {
      const d = text.charCodeAt(i)
      if (d === DOUBLE) break
      if (d === BACKSLASH && i + 1 < length && isEscapableInDoubleQuotes(text.charCodeAt(i + 1))) {
        this.word += text.slice(from, i)
        i++
        from = i
      } else if (d === BACKTICK || (d === DOLLAR && (text.charCodeAt(i + 1) === OPEN || text.charCodeAt(i + 1) === OPEN_BRACE))) {
        const backtick = d === BACKTICK
        const paren = !backtick && text.charCodeAt(i + 1) === OPEN
        const open = backtick ? i + 1 : i + 2
        const end = endOfConstruct(text, open, backtick ? 'backtick' : paren ? 'paren' : 'brace')
        if (backtick || (paren && text.charCodeAt(open) !== OPEN)) this.substitute([text.slice(open, end - 1)])
        else if (!paren) this.substitute(substitutionsInExpandedText(text.slice(open, end - 1)))
        this.expands = true
        i = end - 1
      } else if (d === DOLLAR) this.expands = true
    }
    this.word += text.slice(from, Math.min(i, length))
    return i
  }

  /** A `` `…` `` or `<(…)` at `start` (its opener `openerLength` long): a script that runs, kept in the word as written; the index of its last character. */
  private substitution(start: number, openerLength: number, closer: 'backtick' | 'paren'): number {
    const end = endOfConstruct(this.text, start + openerLength, closer)
    this.substitute([this.text.slice(start + openerLength, end - 1)])
    this.word += this.text.slice(start, end)
    this.inWord = true
    this.expands = true
    return end - 1
  }

  /** A `$` at `start`: a substitution, a parameter, `$'…'` or a plain dollar; the index of its last character. */
  private dollar(start: number): number {
    const { text } = this
    const next = text.charCodeAt(start + 1)
    this.inWord = true
    this.expands = true
    if (next === OPEN || next === OPEN_BRACE) {
      const end = endOfConstruct(text, start + 2, next === OPEN ? 'paren' : 'brace')
      if (next === OPEN && text.charCodeAt(start + 2) !== OPEN) this.substitute([text.slice(start + 2, end - 1)])
      else if (next === OPEN_BRACE) this.substitute(substitutionsInExpandedText(text.slice(start + 2, end - 1)))
      this.word += text.slice(start, end)
      return end - 1
    }
    if (next === SINGLE) {
      // $'…': ANSI-C quoting, where a backslash escapes the quote.
      let end = start + 2
      while (end < text.length && text.charCodeAt(end) !== SINGLE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1
      this.word += text.slice(start + 2, Math.min(end, text.length))
      this.quoted = true
      this.expands = false
      return end
    }
    this.word += '$'
    return start
  }

  lex(): ShellToken[] {
    const { text, tokens } = this
    const length = text.length
    let run = -1
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i)
      if (!isSpecial(c)) {
        if (run === -1) {
          if (c === HASH && !this.inWord) {
            // A comment, to the end of its line.
            const newline = text.indexOf('\n', i)
            i = (newline === -1 ? length : newline) - 1
            continue
          }
          run = i
          this.inWord = true
        }
        continue
      }
      if (run !== -1) {
        this.word += text.slice(run, i)
        run = -1
      }
      if (c === SPACE || c === TAB) {
        this.flush()
      } else if (c === NEWLINE) {
        this.flush()
        tokens.push({ kind: 'operator', text: '\n' })
        i = this.readHereDocuments(i + 1) - 1
      } else if (c === SINGLE) {
        const close = text.indexOf("'", i + 1)
        const end = close === -1 ? length : close
        this.word += text.slice(i + 1, end)
        this.inWord = true
        this.quoted = true
        i = end
      } else if (c === DOUBLE) {
        i = this.doubleQuoted(i)
      } else if (c === BACKSLASH) {
        if (text.charCodeAt(i + 1) === NEWLINE) {
          // A line continuation joins the lines.
          i++
          continue
        }
        this.word += i + 1 < length ? text[i + 1] : '\\'
        this.inWord = true
        if (i + 1 < length) this.quoted = true
        i++
      } else if (c === BACKTICK) {
        i = this.substitution(i, 1, 'backtick')
      } else if (c === DOLLAR) {
        i = this.dollar(i)
      } else if (c === 0x2a || c === 0x3f || c === 0x5b) {
        this.word += text[i]
        this.inWord = true
        this.expands = true
      } else if ((c === LESS || c === GREATER) && text.charCodeAt(i + 1) === OPEN) {
        // <(…) and >(…): process substitution, a word whose script runs.
        i = this.substitution(i, 2, 'paren')
      } else if (c === LESS || c === GREATER || (c === AMPERSAND && text.charCodeAt(i + 1) === GREATER)) {
        // A word of digits right before the operator is its file descriptor, not an argument.
        if (this.inWord && !this.quoted && !this.expands && /^[0-9]+$/.test(this.word)) {
          this.word = ''
          this.inWord = false
        }
        this.flush()
        const operator = longestAt(text, i, REDIRECTIONS)
        const redirection: ShellRedirection = { kind: 'redirection', operator }
        tokens.push(redirection)
        if (operator === '<<' || operator === '<<-') this.delimiterFor = { redirection, stripTabs: operator === '<<-' }
        i += operator.length - 1
      } else if (c === OPEN && this.inWord && text.charCodeAt(i + 1) !== CLOSE) {
        // A parenthesis inside a word: a glob group (zsh's `src/(a|b)`, bash's `@(…)`) or an array
        // assignment (`list=(a b)`), part of the word either way.
        const end = endOfConstruct(text, i + 1, 'paren')
        this.word += text.slice(i, end)
        this.expands = true
        i = end - 1
      } else if (c === OPEN && !this.inWord && text.charCodeAt(i + 1) === OPEN && startsCommand(tokens)) {
        // The scan starts on the second `(`, so it ends past both closing parentheses.
        const end = endOfConstruct(text, i + 1, 'paren')
        tokens.push({ kind: 'arithmetic' })
        i = end - 1
      } else {
        this.flush()
        const operator = longestAt(text, i, OPERATORS)
        tokens.push({ kind: 'operator', text: operator })
        i += operator.length - 1
      }
    }
    if (run !== -1) this.word += text.slice(run)
    this.flush()
    return tokens
  }
}

/** Whether a token after these would stand where a command starts. */
function startsCommand(tokens: readonly ShellToken[]): boolean {
  const last = tokens[tokens.length - 1]
  if (last === undefined) return true
  if (last.kind === 'operator') return last.text !== ')'
  return last.kind === 'word' && !last.quoted && (last.text === 'if' || last.text === 'while' || last.text === 'until' || last.text === 'then' || last.text === 'do' || last.text === 'else' || last.text === '!' || last.text === 'for')
}
