/**
 * What a shell line runs and which files it names, read from its tokens (`shell-lexer.ts`) the way
 * a shell would find its commands: through pipelines, lists, subshells, `if`/`for`/`while`/`case`,
 * command and process substitutions, `bash -c` scripts and scripts fed to a shell on its stdin,
 * and the programs that run another program (`sudo`, `env`, `timeout`, `xargs`, `find -exec`…).
 * A here-document's body is data, not commands, unless a shell reads it. Nothing is expanded: a
 * program named by `$VAR` is read as written.
 */
import { POWERSHELL_WRITERS } from './powershell.js'
import { lexShell, type ShellRedirection, type ShellToken } from './shell-lexer.js'
import { findCommands, handsStdinOn, wrappedCommands } from './shell-wrappers.js'
import { sedScriptFiles, sedScripts } from './sed-script.js'
import { filesWrittenByProgram, OUTPUT_OPTION_PATTERN, WRITER_NAMES_PATTERN } from './shell-writers.js'
import { filesGitShows } from './git-shows.js'
import { treeRead } from './tree-readers.js'
import { entersFolder, EVERYTHING_HERE, everythingUnder, FolderWalk, isRelativePath, joinFolder, movesFolder, VISIBLE_HERE, withoutTrailingSlashes } from './shell-folder.js'

/** One simple command: the program (basename of its first word) and its words after it. */
export interface SimpleCommand {
  program: string
  args: string[]
  /**
   * What the line feeds its stdin and spells out (a here-document's body, a here-string, what
   * `echo` pipes in), where any: a shell runs it, an interpreter may (`python3 - <<'PY'`).
   */
  stdin?: string[]
  /** A pipe feeds its stdin from a program whose output no reader can see (`find … | rg x`). */
  piped?: true
  /** The file the program was run from, where the line named it by a path (`./scripts/clean.sh`, `.venv/bin/python`). */
  path?: string
}

/** Everything one line runs and names. */
export interface ShellLineReading {
  /** Every simple command, in the order the shell starts them (a substitution before its command). */
  readonly commands: SimpleCommand[]
  /** The files its redirections name (`> out.txt`, `2>> log`, `< in.txt`), as written; none that expands. */
  readonly files: string[]
  /** The redirection targets the shell expands or globs (`> "$OUT"`, `> .store/*.md`): which files they are is the shell's to decide. */
  readonly expandedFiles: string[]
  /** The redirection targets it writes (`>`, `>>`, `>|`, `&>`, `<>`, `>&` to a file), named or expanded, as written. */
  readonly writtenFiles: string[]
}

/** Shells, read as the script they run: every harness wraps its lines in one (`bash -lc`). */
export const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish'])
// Words that open or go on with a compound command, after which a command starts.
const COMPOUND_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}'])
// Words that open a compound command whose next words are not commands.
const OPENING_WORDS = new Set(['for', 'select', 'case', 'esac', '[[', 'function'])
const NO_STDIN: readonly string[] = []
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/
const FILE_DESCRIPTOR = /^(?:[0-9]+|-)$/
// Where output is thrown away or sent on, not a file the line touches.
const STREAM_DEVICES = /^\/dev\/(?:null|stdin|stdout|stderr|tty|fd\/[0-9]+)$/
// Scripts in scripts (a substitution in a `bash -c` line in a `sudo`…) are read this deep.
const MAX_DEPTH = 8
// `-c`, `-lc`, `-ec`…: the next word is the script.
const SCRIPT_FLAG = /^-[a-zA-Z]*c[a-zA-Z]*$/

// Where the reader is inside a compound command whose words are not commands.
type Place = 'command' | 'for-words' | 'case-word' | 'case-pattern' | 'test-words'

/** A program word without its folder (`/usr/bin/cat` is `cat`). */
export function basename(word: string): string {
  const slash = word.lastIndexOf('/')
  return slash === -1 ? word : word.slice(slash + 1)
}

/** Reads one script's tokens into `into`. */
function readTokens(tokens: readonly ShellToken[], depth: number, into: ShellLineReading): void {
  // Both emptied, not replaced, as each command ends.
  const words: string[] = []
  // Here-document bodies and here-strings: the command's stdin, a script when the command is a shell.
  const stdin: string[] = []
  let place: Place = 'command'
  let openCases = 0
  let redirection: ShellRedirection | undefined
  let functionName = false
  // The command being read has a pipe for stdin, from a program whose output no reader can see.
  let unreadInput = false

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as ShellToken
    if (token.kind === 'word' && token.substitutions.length > 0 && depth < MAX_DEPTH) for (const script of token.substitutions) readScript(script, depth + 1, into)
    if (token.kind === 'redirection') {
      redirection = token
      if (token.body !== undefined) stdin.push(token.body)
      if (depth < MAX_DEPTH) for (const script of token.bodySubstitutions ?? []) readScript(script, depth + 1, into)
      continue
    }
    if (redirection) {
      const target = redirection
      redirection = undefined
      if (token.kind === 'word') {
        readRedirectionTarget(target.operator, token.text, token.expands, stdin, into)
        continue
      }
    }
    if (place !== 'command') {
      if (token.kind !== 'word' || token.quoted) {
        if (place === 'case-pattern' && token.kind === 'operator' && token.text === ')') place = 'command'
        continue
      }
      if (place === 'for-words' && token.text === 'do') place = 'command'
      else if (place === 'case-word' && token.text === 'in') place = 'case-pattern'
      else if (place === 'case-pattern' && token.text === 'esac') {
        openCases -= 1
        place = 'command'
      } else if (place === 'test-words' && token.text === ']]') place = 'command'
      continue
    }
    if (token.kind === 'arithmetic') {
      finishCommand(words, stdin, depth, into, unreadInput)
      unreadInput = false
      continue
    }
    if (token.kind === 'operator') {
      const next = tokens[t + 1]
      if (token.text === '(' && words.length === 1 && next?.kind === 'operator' && next.text === ')') {
        // `name() { …; }` defines a function: its name runs nothing now.
        words.length = 0
        t += 1
        continue
      }
      // What the command writes into a pipe is the next one's stdin: a printer's words, or unread output.
      const piped = token.text === '|' || token.text === '|&' ? printedText(words) : undefined
      finishCommand(words, stdin, depth, into, unreadInput)
      unreadInput = piped === null
      if (typeof piped === 'string') stdin.push(piped)
      if ((token.text === ';;' || token.text === ';&' || token.text === ';;&') && openCases > 0) place = 'case-pattern'
      continue
    }
    if (words.length === 0) {
      if (functionName) {
        functionName = false
        continue
      }
      if (!token.quoted) {
        if (COMPOUND_WORDS.has(token.text)) continue
        if (token.text === 'for' || token.text === 'select') {
          place = 'for-words'
          continue
        }
        if (token.text === 'case') {
          openCases += 1
          place = 'case-word'
          continue
        }
        if (token.text === 'esac' && openCases > 0) {
          openCases -= 1
          continue
        }
        if (token.text === '[[') {
          place = 'test-words'
          continue
        }
        if (token.text === 'function') {
          functionName = true
          continue
        }
      }
      if (token.text.includes('=') && ASSIGNMENT.test(token.text)) continue
    }
    words.push(token.text)
  }
  finishCommand(words, stdin, depth, into, unreadInput)
}

/** The simple command whose words and stdin were gathered, read; both lists emptied for the next. */
function finishCommand(words: string[], stdin: string[], depth: number, into: ShellLineReading, unreadInput: boolean): void {
  if (words.length > 0) readCommand(words, stdin, depth, into, unreadInput)
  words.length = 0
  stdin.length = 0
}

/**
 * What a command writes into a pipe, where its words say: `echo`'s words, a `printf` format with no
 * conversion; null for any other program's output (or a word that expands), which no reader sees.
 */
function printedText(words: readonly string[]): string | null {
  const first = words[0]
  const args = words.slice(1)
  if (first === undefined || args.some((arg) => /[$`]/.test(arg))) return null
  const program = basename(first)
  const escapes = (text: string): string => text.replace(/\\n/g, '\n').replace(/\\t/g, '\t')
  if (program === 'echo') {
    let i = 0
    while (i < args.length && /^-[neE]+$/.test(args[i] as string)) i++
    return escapes(args.slice(i).join(' '))
  }
  if (program === 'printf' && args.length === 1 && !(args[0] as string).includes('%')) return escapes(args[0] as string)
  return null
}

function readRedirectionTarget(operator: string, target: string, expands: boolean, stdin: string[], into: ShellLineReading): void {
  if (operator === '<<' || operator === '<<-') return
  if (operator === '<<<') {
    stdin.push(target)
    return
  }
  if ((operator === '<&' || operator === '>&') && FILE_DESCRIPTOR.test(target)) return
  if (target.length === 0 || STREAM_DEVICES.test(target)) return
  if (operator !== '<' && operator !== '<&' && !into.writtenFiles.includes(target)) into.writtenFiles.push(target)
  if (expands || /[*?]/.test(target)) {
    if (!into.expandedFiles.includes(target)) into.expandedFiles.push(target)
    return
  }
  if (!into.files.includes(target)) into.files.push(target)
}

/**
 * The program a shell runs when it reads its script from a pipe no reader can see into (`curl … |
 * sh`): named only as this expansion, so a selector by program cannot rule the call out.
 */
export const PIPED_SCRIPT = '$(stdin)'

// A program's word that is a path to run (`./x.sh`, `$HOME/bin/x`), not text that only holds a `/` (a stray JSON fragment).
const RUN_PATH = /^[^\s'"{}()<>|;&]+$/

/** One simple command: a shell's or `eval`'s script read in its place, a wrapper's program beside it. */
function readCommand(words: readonly string[], stdin: readonly string[], depth: number, into: ShellLineReading, unreadInput = false): void {
  const first = words[0] as string
  if (first.length === 0) return
  const program = basename(first)
  const args = words.slice(1)
  if (depth < MAX_DEPTH) {
    if (SHELLS.has(program)) {
      let script: string | undefined
      for (let i = 0; i < args.length - 1; i++) {
        if (SCRIPT_FLAG.test(args[i] as string)) {
          script = args[i + 1]
          break
        }
      }
      if (script !== undefined) {
        readScript(script, depth + 1, into)
        return
      }
      // `bash <<'EOF' … EOF`, `sh -s <<< "…"`, `echo 'rm x' | sh`: no script file, so the shell runs its stdin.
      if (args.every((arg) => arg.startsWith('-'))) {
        if (stdin.length > 0) {
          for (const text of stdin) readScript(text, depth + 1, into)
          return
        }
        if (unreadInput) {
          into.commands.push({ program, args }, { program: PIPED_SCRIPT, args: [] })
          return
        }
      }
    }
    if (program === 'eval' && args.length > 0) {
      readScript(args.join(' '), depth + 1, into)
      return
    }
  }
  const command: SimpleCommand = stdin.length > 0 ? { program, args, stdin: [...stdin] } : { program, args }
  if (unreadInput) command.piped = true
  if (program !== first && RUN_PATH.test(first)) command.path = first
  into.commands.push(command)
  if (depth >= MAX_DEPTH) return
  for (const inner of wrappedCommands(program, args)) {
    if (typeof inner === 'string') readScript(inner, depth + 1, into)
    else if (inner.length > 0) {
      // `curl … | sudo sh`, `sudo bash <<'EOF'`: the program a wrapper runs reads the wrapper's stdin.
      const handed = handsStdinOn(program)
      readCommand(inner, handed ? stdin : NO_STDIN, depth + 1, into, handed && unreadInput)
    }
  }
}

/**
 * A line of plain words — letters, digits and `_ . / , : @ % + ~ -` (and `=` past the first
 * word), split by blanks, with no quote, operator, expansion or redirection — as its words; else
 * undefined. Most lines a harness runs are plain (`cat src/a.ts`, `ls -la`), and skip the lexer.
 */
function plainWords(script: string): string[] | undefined {
  const words: string[] = []
  let start = -1
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i)
    if (c === 0x20 || c === 0x09) {
      if (start !== -1) words.push(script.slice(start, i))
      start = -1
      continue
    }
    const plain =
      (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2c || c === 0x3a ||
      c === 0x40 || c === 0x25 || c === 0x2b || c === 0x7e || c === 0x2d || (c === 0x3d && words.length > 0)
    if (!plain) return undefined
    if (start === -1) start = i
  }
  if (start !== -1) words.push(script.slice(start))
  return words
}

function readScript(script: string, depth: number, into: ShellLineReading): void {
  const words = plainWords(script)
  if (words !== undefined) {
    const first = words[0]
    if (first === undefined) return
    if (!COMPOUND_WORDS.has(first) && !OPENING_WORDS.has(first)) {
      readCommand(words, NO_STDIN, depth, into)
      return
    }
  }
  readTokens(lexShell(script), depth, into)
}

/** The commands a shell line (or an argv) runs and the files its redirections name. */
export function readShellLine(line: string | readonly string[]): ShellLineReading {
  const into: ShellLineReading = { commands: [], files: [], expandedFiles: [], writtenFiles: [] }
  if (typeof line === 'string') readScript(line, 0, into)
  else if (line.length > 0) readCommand(line, NO_STDIN, 0, into)
  return into
}

/** The simple commands a shell line (or an argv) starts, wrappers such as `bash -lc` unwrapped. */
export function commandsOfShellLine(line: string | readonly string[]): SimpleCommand[] {
  return readShellLine(line).commands
}

// The quoting a wrapper adds around a script that holds quotes: `'"'"'` and `'\''` for a `'`, `\"` for a `"`.
const ESCAPED_QUOTE = /'"'"'|'\\''|\\"/

/**
 * The script of a line that only runs a shell on one (Codex's `/bin/bash -lc '<script>'`), read
 * as the shell reads it, where the wrapper escaped a quote in it (`git commit -m '"'"'WIP'"'"'`);
 * undefined for any other line, whose text is the script as written.
 */
export function wrappedScriptOf(line: string): string | undefined {
  if (!ESCAPED_QUOTE.test(line)) return undefined
  const tokens = lexShell(line)
  if (tokens.length < 3 || tokens.some((token) => token.kind !== 'word')) return undefined
  const words = tokens.map((token) => (token as Extract<ShellToken, { kind: 'word' }>).text)
  if (!SHELLS.has(basename(words[0] as string))) return undefined
  const flag = words.findIndex((word, index) => index > 0 && SCRIPT_FLAG.test(word))
  return flag === -1 || flag !== words.length - 2 ? undefined : words[flag + 1]
}

/** Splits a line into its words (quotes removed) and operator tokens, here-document bodies left out. */
export function shellTokens(line: string): string[] {
  const texts: string[] = []
  for (const token of lexShell(line)) {
    if (token.kind === 'word' || token.kind === 'operator') texts.push(token.text)
    else if (token.kind === 'redirection') texts.push(token.operator)
  }
  return texts
}

/**
 * How a program's operands name files. Short options in `valued` take a value (the rest of their
 * cluster, or the next word), a file itself for those in `valuedFiles`; `leading` operands come
 * before the files (`chmod 644 f`), unless one of `leadingDroppedBy` is given (`sed -e s/a/b/ f`).
 */
interface FileOperands {
  readonly valued?: string
  /** Letters that, given alone, take the next word as a suffix when it is empty or starts with `.` (BSD `sed -i '' …`). */
  readonly suffixed?: string
  readonly valuedFiles?: string
  readonly leading?: number
  readonly leadingDroppedBy?: readonly string[]
  /** Long options that take the next word as their value when given no `=` (`rg --type ts`). */
  readonly valuedLong?: readonly string[]
  /** The options whose value is a path glob choosing which files are read (`rg -g '.store/*'`): short letters, long names. */
  readonly pathGlobs?: { readonly short: string; readonly long: readonly string[] }
}

const GREP_OPERANDS: FileOperands = {
  valued: 'ABCDdem',
  valuedFiles: 'f',
  leading: 1,
  leadingDroppedBy: ['-e', '-f', '--regexp', '--file'],
  valuedLong: ['--regexp', '--include', '--exclude', '--exclude-dir', '--max-count', '--context', '--after-context', '--before-context', '--label', '--color', '--colour', '--binary-files', '--devices', '--directories', '--group-separator'],
}

/**
 * The programs whose operands are files by definition: the plain readers and searchers, and the
 * coreutils that create, copy, move, link, change or remove the files they are given. What any other program
 * does with its words (`git rm x`, `python s.py x`) is its own, and is not read.
 */
const FILE_OPERANDS: ReadonlyMap<string, FileOperands> = new Map<string, FileOperands>([
  ['cat', {}],
  ['head', { valued: 'nc' }],
  ['tail', { valued: 'nc' }],
  ['nl', { valued: 'bdfhilnsvw' }],
  ['less', {}],
  ['more', {}],
  ['wc', {}],
  ['tee', {}],
  ['rm', {}],
  ['rmdir', {}],
  ['unlink', {}],
  ['touch', { valued: 'dt', valuedFiles: 'r' }],
  ['mkdir', { valued: 'm' }],
  ['cp', { valued: 'S', valuedFiles: 't' }],
  ['mv', { valued: 'S', valuedFiles: 't' }],
  ['ln', { valued: 'S', valuedFiles: 't' }],
  ['install', { valued: 'mogS', valuedFiles: 't' }],
  ['truncate', { valued: 's', valuedFiles: 'r' }],
  ['shred', { valued: 'ns' }],
  ['chmod', { leading: 1, leadingDroppedBy: ['--reference'] }],
  ['chown', { leading: 1, leadingDroppedBy: ['--reference'] }],
  ['chgrp', { leading: 1, leadingDroppedBy: ['--reference'] }],
  // The searchers read the files they are given; the pattern is the first operand unless `-e` or `-f` gives it.
  ['grep', GREP_OPERANDS],
  ['egrep', GREP_OPERANDS],
  ['fgrep', GREP_OPERANDS],
  // `rg --files` lists the files it would search: no pattern, every operand a path.
  [
    'rg',
    {
      valued: 'ABCEMTdegjmrt',
      valuedFiles: 'f',
      leading: 1,
      leadingDroppedBy: ['-e', '-f', '--regexp', '--file', '--files'],
      valuedLong: ['--regexp', '--type', '--type-not', '--type-add', '--glob', '--iglob', '--max-count', '--max-depth', '--context', '--after-context', '--before-context', '--replace', '--encoding', '--threads', '--max-filesize', '--sort', '--sortr', '--color', '--colors', '--engine', '--pre', '--pre-glob'],
      pathGlobs: { short: 'g', long: ['--glob', '--iglob'] },
    },
  ],
  // The script is the first operand unless `-e` or `-f` gives it; `-f` names a script file.
  ['sed', { valued: 'el', valuedFiles: 'f', suffixed: 'i', leading: 1, leadingDroppedBy: ['-e', '-f', '--expression', '--file'], valuedLong: ['--expression', '--line-length'] }],
])

// `dd if=in of=out`: its files are named by these operands.
const DD_FILE_OPERAND = /^(?:if|of)=(.+)$/

/** A word that names a file as written: no glob or expansion in it, no stream device (`/dev/null`), not `find -exec`'s `{}`. */
function namesFileAsWritten(word: string): boolean {
  return word.length > 0 && word !== '{}' && !/[<>*?$`]/.test(word) && !STREAM_DEVICES.test(word)
}

/**
 * The files a command names by its operands, as written: each operand of a program whose operands
 * are files (`cat a b`, `head -n 1 a`, `cp a b`, `rm -rf d`, `tee -a log`, `sed -i s/x/y/ f`,
 * `dd of=out`), and the file an option of such a program names (`cp -t dir`). None for any other
 * program, and none that a shell would expand.
 */
export function filesNamedBy(command: SimpleCommand): string[] {
  return readOperands(command).files.filter(namesFileAsWritten)
}

/** A command's words in a file's place, as written (a shell may expand them), and the path globs it reads by. */
interface OperandReading {
  readonly files: string[]
  readonly globs: string[]
}

// Long options that name a file, by themselves or with the next word (`cp --target-directory dist a`).
const FILE_OPTION = /^--(?:target-directory|reference|file)$/

/**
 * Reads a command's options and operands once, as the program takes them (see `FileOperands`):
 * every word in a file's place, distinct and non-empty, whether or not a shell would expand it
 * (`rm .store/*`); and the values of the options that are path globs (`rg -g '.engineering/*'`),
 * but for one that excludes (`-g '!d/*'`), which chooses nothing. The leading operands (a pattern,
 * a mode) are dropped once the whole line is read, unless an option gave them (`grep -e x f`).
 */
function readOperands(command: SimpleCommand): OperandReading {
  if (command.program === 'dd') {
    const files = command.args.flatMap((arg) => {
      const file = DD_FILE_OPERAND.exec(arg)?.[1]
      return file !== undefined && file.length > 0 ? [file] : []
    })
    return { files, globs: [] }
  }
  const operands = FILE_OPERANDS.get(command.program)
  if (operands === undefined) return { files: [], globs: [] }
  const valued = operands.valued ?? ''
  const valuedFiles = operands.valuedFiles ?? ''
  const drops = operands.leadingDroppedBy ?? []
  const globs: string[] = []
  const takeGlob = (glob: string | undefined): void => {
    if (glob !== undefined && glob.length > 0 && !glob.startsWith('!')) globs.push(glob)
  }
  // In line order; an operand (not an option's file) may turn out to be a leading one.
  const found: { file: string; operand: boolean }[] = []
  let leadingGiven = false
  let optionsEnded = false
  for (let i = 0; i < command.args.length; i++) {
    const arg = command.args[i] as string
    if (!optionsEnded && arg === '--') {
      optionsEnded = true
      continue
    }
    if (!optionsEnded && arg.startsWith('--')) {
      const equals = arg.indexOf('=')
      const name = equals === -1 ? arg : arg.slice(0, equals)
      if (drops.includes(name)) leadingGiven = true
      const takesNext = FILE_OPTION.test(name) || operands.valuedLong?.includes(name) === true
      const value = equals !== -1 ? arg.slice(equals + 1) : takesNext ? command.args[++i] : undefined
      if (FILE_OPTION.test(name) && value !== undefined) found.push({ file: value, operand: false })
      if (operands.pathGlobs?.long.includes(name)) takeGlob(value)
      continue
    }
    if (!optionsEnded && arg.startsWith('-') && arg.length > 1) {
      const next = command.args[i + 1]
      if (arg.length === 2 && operands.suffixed?.includes(arg[1] as string) && next !== undefined && (next === '' || next.startsWith('.'))) {
        i++
        continue
      }
      // A cluster (`-rf`, `-n1`, `-tdir`): the first letter that takes a value takes the rest, or the next word.
      for (let c = 1; c < arg.length; c++) {
        const letter = arg[c] as string
        if (drops.includes(`-${letter}`)) leadingGiven = true
        if (!valued.includes(letter) && !valuedFiles.includes(letter)) continue
        const value = c + 1 < arg.length ? arg.slice(c + 1) : command.args[++i]
        if (value !== undefined && valuedFiles.includes(letter)) found.push({ file: value, operand: false })
        if (operands.pathGlobs?.short.includes(letter)) takeGlob(value)
        break
      }
      continue
    }
    found.push({ file: arg, operand: true })
  }
  let leading = leadingGiven ? 0 : (operands.leading ?? 0)
  const files: string[] = []
  for (const { file, operand } of found) {
    if (operand && leading > 0) leading -= 1
    else if (file.length > 0 && !files.includes(file)) files.push(file)
  }
  return { files, globs }
}

/** A brace list or range a shell expands (`{a,b}`, `{1..3}`); not `{}` (find's) nor `{x}`. */
export const BRACE_LIST = /\{[^{}]*(?:,|\.\.)[^{}]*\}/
// What a shell expands that `namesFileAsWritten` lets through: a home folder, a brace list or range.
const EXPANDED_AS_WRITTEN = new RegExp(`^~|${BRACE_LIST.source}`)
// `find`'s actions on what it finds: it removes it, runs a program on it, or writes its names to a file.
const FIND_ACTIONS = /^-(?:delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/

/** Whether `find` removes what it finds (`-delete`) or runs a program that writes on it (`-exec rm {} +`, `-exec sed -i … {} ;`). */
function findWrites(args: readonly string[]): boolean {
  if (args.includes('-delete')) return true
  return findCommands(args).some(([program = '', ...words]) => {
    const name = basename(program)
    return WRITES_EVERY_FILE.has(name) || WRITES_DESTINATION.has(name) || (name === 'sed' && words.some((word) => IN_PLACE.test(word)))
  })
}

/** `find`'s starting points: its words before the first option or expression (`.` when there are none). */
export function findStartingPoints(args: readonly string[]): string[] {
  const points: string[] = []
  let i = 0
  // Its own options come first: `-H`, `-L`, `-P`, `-O3`, `-D tree`.
  while (i < args.length && /^-(?:[HLP]|O[0-9]*|D)$/.test(args[i] as string)) i += args[i] === '-D' ? 2 : 1
  for (; i < args.length; i++) {
    const arg = args[i] as string
    if (arg.startsWith('-') || arg === '(' || arg === '!') break
    points.push(arg)
  }
  return points.length > 0 ? points : ['.']
}

// The options that set the folder a program works in: `git -C`, `make -C`/`--directory`, `tar -C`,
// `npm --prefix`, `pnpm --dir`, `yarn --cwd`, `uv --directory`.
const FOLDER_OPTIONS: ReadonlySet<string> = new Set(['-C', '--directory', '--dir', '--cwd', '--prefix', '--chdir'])

/** The folders a command's options say it works in (`-C src`, `--directory=src`). */
function optionFolders(args: readonly string[]): string[] {
  const folders: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    const equals = arg.indexOf('=')
    const value = FOLDER_OPTIONS.has(arg) ? args[i + 1] : equals > 2 && FOLDER_OPTIONS.has(arg.slice(0, equals)) ? arg.slice(equals + 1) : undefined
    if (value !== undefined && value.length > 0 && !value.startsWith('-')) folders.push(value)
  }
  return folders
}

// Programs whose words are data they print, never files they open.
const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf'])
// Programs whose file operand may be a folder they work through (`rm -rf d`, `cp -r a d`, `grep -r x d`).
const THROUGH_FOLDERS: ReadonlySet<string> = new Set(['rm', 'cp', 'mv', 'ln', 'chmod', 'chown', 'chgrp', 'grep', 'egrep', 'fgrep', 'rg'])
// The options that send a program down through the folders it is given (`rm -rf`, `cp -a`, `grep -R`, `chmod -R`).
const GOES_DOWN: ReadonlyMap<string, RegExp> = new Map([
  ['rm', /^(?:-[a-zA-Z]*[rR]|--recursive$)/],
  ['cp', /^(?:-[a-zA-Z]*[rRa]|--recursive$|--archive$)/],
  ['grep', /^(?:-[a-zA-Z]*[rR]|--recursive$|--dereference-recursive$)/],
  ['egrep', /^(?:-[a-zA-Z]*[rR]|--recursive$|--dereference-recursive$)/],
  ['fgrep', /^(?:-[a-zA-Z]*[rR]|--recursive$|--dereference-recursive$)/],
  ['chmod', /^(?:-[a-zA-Z]*R|--recursive$)/],
  ['chown', /^(?:-[a-zA-Z]*R|--recursive$)/],
  ['chgrp', /^(?:-[a-zA-Z]*R|--recursive$)/],
])

/** Whether a program goes down through the folders it is given: `rg` and `mv` always, the others by an option. */
function goesDown(command: SimpleCommand): boolean {
  if (command.program === 'rg' || command.program === 'mv') return true
  const option = GOES_DOWN.get(command.program)
  return option !== undefined && command.args.some((arg) => option.test(arg))
}

const GREPS: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep'])
// ripgrep's options that search hidden or ignored files too (`--hidden`, `-.`, `-u`…`-uuu`, `--no-ignore…`).
const RG_SEARCHES_ALL = /^(?:--hidden|--unrestricted|--no-ignore(?:-[a-z-]+)?|-[a-zA-Z]*[u.][a-zA-Z.]*)$/

/**
 * The folder a searcher given no path goes down through, as everything under it: GNU `grep -r`
 * searches where it runs (`grep -r KEY` is `grep -r KEY .`), and so does ripgrep (`rg x`, `rg
 * --files`), which skips hidden files there (`VISIBLE_HERE`) unless told to search them (`rg
 * --hidden`, `rg -uu`): then `.env` too. Undefined where it was given a path, or reads what it is piped.
 */
function searchedWithoutPath(command: SimpleCommand, files: readonly string[]): string | undefined {
  if (files.length > 0) return undefined
  // ripgrep fed text or a program's output (`echo x | rg x`, `find … | rg x`) searches that.
  if (command.program === 'rg') return command.stdin !== undefined || command.piped === true ? undefined : command.args.some((arg) => RG_SEARCHES_ALL.test(arg)) ? EVERYTHING_HERE : VISIBLE_HERE
  return GREPS.has(command.program) && goesDown(command) ? EVERYTHING_HERE : undefined
}

/**
 * Whether a program reads everything under the folders it is given, whatever a `.gitignore`
 * says: an archive it creates (`tar -c`, `zip -r`, `7z a`), a tree it copies elsewhere (`rsync
 * -a`, `scp -r`) or an image's build context (`docker build .`). Given `.`, that is the session's
 * whole folder, `.env` and all.
 */
function archivesFolders(command: SimpleCommand): boolean {
  const first = command.args[0] ?? ''
  switch (command.program) {
    case 'tar':
      // `tar czf x .` (bundled, no dash), `tar -czf`, `tar --create`; `r` and `u` append.
      return /^[a-zA-Z]*[cru][a-zA-Z]*$/.test(first) || command.args.some((arg) => /^-[a-zA-Z]*[cru][a-zA-Z]*$/.test(arg) || arg === '--create' || arg === '--append' || arg === '--update')
    case 'zip':
      return command.args.some((arg) => /^-[a-zA-Z0-9]*[rR][a-zA-Z0-9]*$/.test(arg) || arg === '--recurse-paths')
    case '7z':
    case '7za':
    case '7zz':
      return first === 'a' || first === 'u'
    case 'rsync':
      return command.args.some((arg) => /^-[a-zA-Z]*[ar][a-zA-Z]*$/.test(arg) || arg === '--archive' || arg === '--recursive')
    case 'scp':
      return command.args.some((arg) => /^-[a-zA-Z0-9]*r[a-zA-Z0-9]*$/.test(arg))
    // `docker build .` sends its whole context to the daemon, whatever a `.gitignore` says (a `.dockerignore` decides).
    case 'docker':
    case 'podman':
    case 'buildah':
      return first === 'build' || first === 'bud' || (['buildx', 'image', 'builder'].includes(first) && command.args[1] === 'build')
    default:
      return false
  }
}

/** Whether a word names the folder the shell is in: `.`, `./`. */
function isHere(word: string): boolean {
  return word === '.' || word === './'
}

// A word that names a file by `@` (or `<`), alone or as a field's value: `@body.json`, `file=@.env;type=text/plain`, `data=<in.txt`.
const FILE_REFERENCE = /(?:^|=)[@<]([^\s;@<>=]+)/

// Options whose value is a message for people (`git commit -m …`, `-am …`, `gh pr create --body …`), not a path.
const MESSAGE_OPTIONS: ReadonlySet<string> = new Set(['--message', '--body', '--title', '--description', '--note'])
const MESSAGE_CLUSTER = /^-[a-zA-Z]*m$/

/**
 * The words a line gives to programs whose operands are not read as files (`filesNamedBy` reads
 * the rest): what `git rm x` or `python3 s.py x` does with `x` is the program's own, so a selector
 * that `file:x` would match cannot rule the call out. A folder `cd` enters is given as `x/`, since
 * the paths after it are inside it, and so is a file operand of a program that works through
 * folders (`rm -rf d` gives `d/`), and so is the path glob a searcher reads by (`rg -g 'd/*'`).
 * What such a program reads on its stdin from the line (`python3 - <<'PY' … PY`) is one word more,
 * and so is a file operand or a redirection target the shell expands (`rm .engineering/*`, `>
 * "$OUT"`). Nothing for what a printer prints, nor a message for people (`git commit -m …`).
 *
 * `start` is the folder the line ran in (`x/`; `''` for where the run started): a `workdir`, or
 * where an earlier call's `cd` left a shell that keeps its folder. It is a word itself, and every
 * path the line names in a folder other than the start is given again as that folder's
 * (`cd src && rm generated/out.js` gives `src/generated/out.js`): its subject names it as written.
 */
export function unreadOperands(line: string | readonly string[], start = ''): string[] {
  const words: string[] = []
  const reading = readShellLine(line)
  const add = (word: string): void => {
    if (word.length > 0 && !words.includes(word)) words.push(word)
  }
  add(start)
  const walk = new FolderWalk(start)
  const inFolder = (path: string): void => {
    const joined = walk.inFolder(path)
    if (joined !== undefined) add(joined)
  }
  for (const command of reading.commands) {
    // A program run by its path is a file the shell reads to run it (`./.engineering/clean.sh`), as `sh`'s script operand is.
    if (command.path !== undefined) {
      add(command.path)
      inFolder(command.path)
    }
    const namesFiles = command.program === 'dd' || FILE_OPERANDS.has(command.program)
    if (namesFiles) {
      const { files, globs } = readOperands(command)
      // An operand the shell expands names no file as written (`rm .engineering/*`, `rm $F`, `cat
      // src/{a,b}.ts`, `rm ~/x`): which files it is, is the shell's to decide.
      for (const file of files) if ((!namesFileAsWritten(file) || EXPANDED_AS_WRITTEN.test(file)) && file !== '{}' && !STREAM_DEVICES.test(file)) add(file)
      for (const file of files) if (file !== '{}' && !STREAM_DEVICES.test(file)) inFolder(file)
      // `sed '/x/r .env' f`: the files its script reads in, which are no operands.
      if (command.program === 'sed') {
        for (const file of sedScripts(command.args).flatMap((script) => sedScriptFiles(script).read)) {
          add(file)
          inFolder(file)
        }
      }
      if (THROUGH_FOLDERS.has(command.program)) {
        // Its subjects name the operands; what lies in one that is a folder is touched too (`d/`),
        // and everything under it where the program goes down through folders (`rm -rf src`: `src/**`).
        const down = goesDown(command)
        for (const file of files) {
          if (file === '{}' || STREAM_DEVICES.test(file) || (!down && (!namesFileAsWritten(file) || file.endsWith('/')))) continue
          const folder = down ? everythingUnder(file) : `${file}/`
          add(folder)
          inFolder(folder)
        }
        for (const glob of globs) {
          // ripgrep matches a glob that names no folder at any depth, as a `.gitignore` line.
          const placed = command.program === 'rg' && !glob.includes('/') ? `**/${glob}` : glob
          add(placed)
          inFolder(placed)
        }
        // Everything here, once a `cd` moved the shell, is everything there; a glob narrows it to what it chooses.
        const searched = globs.length > 0 ? undefined : searchedWithoutPath(command, files)
        if (searched !== undefined) add(walk.inFolder(searched) ?? searched)
      }
    }
    if (!namesFiles && !PRINTERS.has(command.program)) {
      // `git -C src rm generated/out.js`: the program works in the folder its option names, and so do its words.
      const folders = optionFolders(command.args)
      const inOptionFolders = (word: string): void => {
        for (const folder of folders) if (isRelativePath(word) && word !== folder) add(joinFolder(walk.folder, joinFolder(folder, word)))
      }
      for (let i = 0; i < command.args.length; i++) {
        const arg = command.args[i] as string
        if (MESSAGE_OPTIONS.has(arg) || MESSAGE_CLUSTER.test(arg)) {
          i++
          continue
        }
        const equals = arg.indexOf('=')
        if (equals > 2 && arg.startsWith('--') && MESSAGE_OPTIONS.has(arg.slice(0, equals))) continue
        // `cd .engineering && rm notes.md`: what follows works inside the folder, as `.engineering/…`.
        if (entersFolder(command.program)) add(!arg.startsWith('-') && !arg.endsWith('/') ? `${arg}/` : arg)
        // A folder the line names (`eslint --fix src/`) is given as a path: what lies under it is read as under `src`.
        else add(withoutTrailingSlashes(arg))
        if (!movesFolder(command)) inFolder(arg)
        inOptionFolders(arg)
        // `curl -d @.env`, `curl -F file=@.env`, `gh api -F body=@notes.md`: the file whose contents it sends.
        const referenced = FILE_REFERENCE.exec(arg)?.[1]
        if (referenced !== undefined) {
          add(referenced)
          if (!movesFolder(command)) inFolder(referenced)
        }
      }
      // What it reads on its stdin is its own too: the script `python3 - <<'PY'` runs, the diff `git apply <<'EOF'` applies.
      for (const text of command.stdin ?? []) add(text)
      // `ag KEY`, `fd -x cat`, `trufflehog filesystem .`: everything under the folders a reader of whole trees goes through.
      for (const folder of treeRead(command)) add(walk.inFolder(folder) ?? folder)
      // `git show HEAD:.env`, `git diff`, `git grep KEY`: the files whose contents git prints that its words do not name.
      if (command.program === 'git') {
        for (const shown of filesGitShows(command.args)) {
          if (shown === EVERYTHING_HERE) add(walk.inFolder(EVERYTHING_HERE) ?? EVERYTHING_HERE)
          else {
            add(shown)
            inFolder(shown)
          }
        }
      }
      // `tar czf /tmp/all.tgz .`, `rsync -a ./ host:x`: everything here, which `.` alone is not read as.
      if (command.args.some(isHere) && archivesFolders(command)) add(walk.inFolder(EVERYTHING_HERE) ?? EVERYTHING_HERE)
      // `find src -delete`, `find . -exec rm {} +`: it acts on everything under the folders it starts from.
      if (command.program === 'find' && command.args.some((arg) => FIND_ACTIONS.test(arg))) {
        for (const below of findStartingPoints(command.args).map(everythingUnder)) {
          add(below)
          inFolder(below)
        }
      }
    }
    walk.step(command)
    add(walk.folder)
  }
  for (const target of reading.expandedFiles) add(target)
  for (const target of [...reading.files, ...reading.expandedFiles]) for (const joined of walk.inEveryFolder(target)) add(joined)
  return words
}

// Programs that write, create or remove every file they are given (`mv` removes its sources).
const WRITES_EVERY_FILE: ReadonlySet<string> = new Set(['tee', 'touch', 'truncate', 'shred', 'rm', 'rmdir', 'unlink', 'mv'])
// Programs that write the last file they are given, or into the folder `-t` names (`cp a b`, `ln -s a b`).
const WRITES_DESTINATION: ReadonlySet<string> = new Set(['cp', 'ln', 'install'])
const TARGET_DIRECTORY = /^(?:-[a-zA-Z]*t|--target-directory)/
// `sed -i`, `sed --in-place`: it edits the files it is given instead of printing them.
export const IN_PLACE = /^(?:-[a-zA-Z]*i|--in-place)/
const DD_OUTPUT = /^of=(.+)$/
// A write redirection, or the name of a program above or in `shell-writers.ts`, anywhere in the line (a wrapper's script included).
const MAY_WRITE = new RegExp(`>|\\b(?:tee|touch|truncate|shred|rm|rmdir|unlink|mv|cp|ln|install|sed|dd|${WRITER_NAMES_PATTERN})\\b|-delete\\b|${OUTPUT_OPTION_PATTERN}`)

// A `cd`, `pushd` or `popd` anywhere in the line.
const MAY_MOVE = /\b(?:cd|pushd|popd)\b/

function lineText(line: string | readonly string[]): string {
  return typeof line === 'string' ? line : line.join(' ')
}

/** Whether a line may write a file: most lines a harness runs neither redirect nor name a program that writes. */
function mayWrite(line: string | readonly string[]): boolean {
  return MAY_WRITE.test(lineText(line))
}

/** Whether a line may move its shell to another folder: most lines name no `cd`, `pushd` or `popd`. */
export function mayMoveFolder(line: string | readonly string[]): boolean {
  return MAY_MOVE.test(lineText(line))
}

/** The files one command writes, creates or removes, as written: none for a program not known to. */
function writtenOperands(command: SimpleCommand, powershell: boolean): string[] {
  if (command.program === 'dd') return command.args.flatMap((arg) => DD_OUTPUT.exec(arg)?.[1] ?? [])
  // A cmdlet's parameters are named (`-Path x`) or positional: every word that is no parameter's name may be a file it writes.
  if (powershell && POWERSHELL_WRITERS.has(command.program.toLowerCase())) return command.args.filter((arg) => arg.length > 0 && !arg.startsWith('-'))
  const writes = WRITES_EVERY_FILE.has(command.program) || WRITES_DESTINATION.has(command.program) || (command.program === 'sed' && command.args.some((arg) => IN_PLACE.test(arg)))
  // What the program's own rule names: a `sed -i` script may write with `w` as well.
  const own = filesWrittenByProgram(command)
  if (!writes) return [...own]
  const files = readOperands(command).files.filter((file) => file !== '{}' && !STREAM_DEVICES.test(file))
  // Without `-t`, the sources are read and the last operand is written.
  const written = WRITES_DESTINATION.has(command.program) && !command.args.some((arg) => TARGET_DIRECTORY.test(arg)) ? files.slice(-1) : files
  // `rm -rf *`: a glob the shell expands may be a folder, and what lies under it goes too.
  if (!goesDown(command)) return [...written, ...own]
  return [...written, ...written.filter((file) => !namesFileAsWritten(file)).map(everythingUnder), ...own]
}

/**
 * The files a shell line writes, creates or removes, as written (`> out.txt`, `tee log`, `sed -i
 * … f`, `cp a b`'s `b`, `rm x`, `dd of=x`), and each again inside the folder the line was in when
 * it named it (see `unreadOperands` for `start`). A target the shell expands is given as written
 * (`> "$OUT"`, `rm .store/*`). None for what a program not known to write does with its words.
 * `powershell`: the line is PowerShell's (`posixReadable` already), and its cmdlets that write count.
 */
export function filesWrittenBy(line: string | readonly string[], start = '', powershell = false): string[] {
  const written: string[] = []
  if (!powershell && !mayWrite(line)) return written
  const reading = readShellLine(line)
  const add = (file: string): void => {
    if (file.length > 0 && !written.includes(file)) written.push(file)
  }
  const walk = new FolderWalk(start)
  for (const command of reading.commands) {
    // `find src -delete`, `find . -exec rm {} +`: what it removes or changes lies anywhere under where it starts.
    const found = command.program === 'find' && findWrites(command.args) ? findStartingPoints(command.args).map(everythingUnder) : []
    for (const file of [...writtenOperands(command, powershell), ...found]) {
      const joined = walk.inFolder(file)
      // Everything here, once a `cd` moved the shell, is everything there: not all of where the run started.
      if (joined === undefined || file !== EVERYTHING_HERE) add(file)
      if (joined !== undefined) add(joined)
    }
    walk.step(command)
  }
  for (const target of reading.writtenFiles) {
    add(target)
    for (const joined of walk.inEveryFolder(target)) add(joined)
  }
  return written
}
