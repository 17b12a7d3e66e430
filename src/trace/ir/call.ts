import { classifyCall, type ToolOperationTable } from '../../../adapters/shared/operations.js'
import { POWERSHELL_TOOLS, posixReadable } from '../../../adapters/shared/powershell.js'
import { filesWrittenBy, unreadOperands } from '../../../adapters/shared/shell.js'
import { filesWrittenByCodeText } from '../../../adapters/shared/shell-writers.js'
import { asFolder, EVERYTHING_HERE, everythingUnder, joinFolder } from '../../../adapters/shared/shell-folder.js'
import { mayHaveOtherForms, otherPathForms } from './path-forms.js'
import { writeSortedJson } from '../../events/json.js'
import type { ToolCall } from './types.js'

/**
 * The argument names a recorded path lives under. Which key holds a path is the same question on
 * every harness; which tool is a write is the rendering's question and is never guessed here.
 */
const PATH_ARGUMENTS = ['file_path', 'notebook_path', 'path'] as const

/** `file:<path>` for each path argument the input names, taken as the caller wrote it. */
export function subjectsFromInput(input: Record<string, unknown>): string[] {
  const subjects: string[] = []
  for (const key of PATH_ARGUMENTS) {
    const value = input[key]
    if (typeof value === 'string') subjects.push(`file:${value}`)
  }
  return subjects
}

// What a shell expands, globs or escapes in a program's name (adapters write `proc:` as the line wrote it):
// `$`, a backtick, `*`, `?`, a backslash, a bracket class, a brace list or range.
const EXPANDED_PROGRAM = /[$`*?\\]|\[.*\]|\{.*(?:,|\.\.).*\}/

/**
 * The programs among a call's `proc:` subjects that its line named only through an expansion, a
 * glob or an escape (`proc:$TOOL`, `proc:$(which rm)`, `proc:r*`): nobody reading the line can
 * tell which program ran, so a selector by subject cannot rule the call out. `[` alone is the test program.
 */
export function unnamedPrograms(subjects: readonly string[]): string[] {
  const unnamed: string[] = []
  for (const subject of subjects) {
    if (!subject.startsWith('proc:')) continue
    const program = subject.slice(5)
    if (EXPANDED_PROGRAM.test(program)) unnamed.push(program)
  }
  return unnamed
}

/** A call's `argv` joined by spaces (top level, or under `arguments` on a three-verb surface). */
export function joinedArgv(input: Record<string, unknown>): string | null {
  let argv = input['argv']
  if (argv === undefined) {
    const nested = input['arguments']
    if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) argv = (nested as Record<string, unknown>)['argv']
  }
  if (!Array.isArray(argv)) return null
  const words = argv.filter((word): word is string => typeof word === 'string')
  return words.length > 0 ? words.join(' ') : null
}

// The other names a shell call's line goes by: Codex's `exec_command {cmd}`, Terminus's `keystrokes`.
const SHELL_LINE_ARGUMENTS = ['cmd', 'keystrokes'] as const
// What a call typed into a running process: Codex's `write_stdin {chars}`, OpenClaw's `process`
// `{data}` (write), `{text}` (paste) and `{literal}` (send-keys).
const TYPED_ARGUMENTS = ['chars', 'data', 'text', 'literal'] as const

/**
 * The value of one argument, where the call carries it. An absent `command` falls back to the
 * argv, and on a shell call to its line under the name its harness gives it (`cmd`,
 * `keystrokes`, what Codex's `write_stdin` or OpenClaw's `process` typed into a shell): a row about commands reads `args.command` on every harness, and a line it
 * could not find would never match, so an absence would pass a run that ran the command.
 */
export function callArgument(call: ToolCall, field: string): unknown {
  if (Object.hasOwn(call.input, field)) return call.input[field]
  if (field !== 'command') return undefined
  if (call.joinedArgv !== null) return call.joinedArgv
  if (!call.operations.includes('shell')) return undefined
  for (const key of SHELL_LINE_ARGUMENTS) if (typeof call.input[key] === 'string') return call.input[key]
  // What Codex's `write_stdin` or OpenClaw's `process` typed is a line only where its reader read it
  // as one (into a shell, so it named a program): typed into a REPL, `import pytest` runs no pytest.
  if (!call.subjects.some((subject) => subject.startsWith('proc:'))) return undefined
  for (const key of TYPED_ARGUMENTS) if (typeof call.input[key] === 'string') return call.input[key]
  return undefined
}

// The arguments an MCP tool takes a command line under: Desktop Commander's `start_process
// {command}`, a shell server's `run_command {command}` or `execute {cmd}`.
const MCP_COMMAND_ARGUMENTS = ['command', 'cmd'] as const
// Reads such a line as a shell call's: its programs, and the files they and its redirections name.
const AS_SHELL: ToolOperationTable = { tools: { mcp: 'shell' }, pathKeys: [], commandKeys: MCP_COMMAND_ARGUMENTS }

/**
 * An MCP call given a command line, as it would read had its harness named it a shell call: the
 * `shell` operation, and the programs and files its line names as subjects. Whether the tool ran
 * the line nobody can tell from the call. Null for any other call.
 */
export function mcpCallAsShell(call: ToolCall): ToolCall | null {
  if (!call.operations.includes('mcp.call') || call.operations.includes('shell')) return null
  if (!MCP_COMMAND_ARGUMENTS.some((key) => typeof call.input[key] === 'string')) return null
  const { subjects } = classifyCall(AS_SHELL, 'mcp', call.input)
  if (!subjects.some((subject) => subject.startsWith('proc:'))) return null
  // Its own spellings are asked afresh: the line's files are subjects the call's memo never held.
  return { ...call, operations: [...call.operations, 'shell'], subjects: [...call.subjects, ...subjects.filter((subject) => !call.subjects.includes(subject))], otherSubjects: null }
}

/** The compact, key-sorted JSON of a call's input: what the census measures and repetition compares. */
export function compactInput(input: Record<string, unknown>): string {
  return writeSortedJson(input)
}

/** Byte-identical `(tool, input)` calls share this key. */
export function repetitionKey(call: ToolCall): string {
  return `${call.name} ${compactInput(call.input)}`
}

/** Reads a call's input: an object's entries, anything else as `{}`. */
export function inputObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

const wordsOfCall = new WeakMap<ToolCall, readonly string[]>()

// An MCP call's arguments are read this deep for the strings they hold.
const MCP_ARGUMENT_DEPTH = 4
// The arguments that set the folder a shell call runs in (Codex's `workdir`, Gemini CLI's `dir_path`…).
const SHELL_FOLDER_ARGUMENTS = ['workdir', 'cwd', 'dir_path', 'directory', 'working_directory'] as const
// The arguments that choose a search's or a reader's files by path glob: Claude Code's and pi's
// `Grep {glob}`, Gemini CLI's and opencode's `grep {include}`, Gemini CLI's `read_many_files {include}`
// (`paths` in older releases). A glob names no file, so no reader gives it as a subject.
const PATH_FILTER_ARGUMENTS = ['glob', 'include', 'paths'] as const

/**
 * The words a call named where no reader can tell which files it touched: a shell call's
 * words for programs whose operands are not read as files (see `unreadOperands`), or the code
 * its tool runs (`execute_code {code}`), and the folder it ran in (`workdir`); every string an
 * MCP call's arguments hold (`move_file {source, destination}`); the folder a search or a
 * listing works through, and the path globs that choose a search's, a listing's or a reader's
 * files (`Grep {glob}`, `Glob {pattern}`, `read_many_files {include}`); none for any other call.
 * Read on first asking, once per call: only a selector by a file subject that missed the call asks.
 */
export function wordsUnread(call: ToolCall): readonly string[] {
  const known = wordsOfCall.get(call)
  if (known !== undefined) return known
  let words: readonly string[] = []
  if (call.operations.includes('shell')) {
    const { start, folders } = shellFolders(call)
    const line = shellLine(call)
    const code = line === undefined ? codeRun(call) : undefined
    // Code the tool runs (`execute_code {code}`) is one word, as `python3 -c` code is: a path inside it is matched on its own.
    words = line !== undefined ? unreadOperands(line, start) : code !== undefined ? (start !== '' ? [start, code] : [code]) : start !== '' ? [start] : []
    // Every path the line names is inside the folder the call ran in, as after a `cd`.
    for (const folder of folders) if (!words.includes(folder)) words = [folder, ...words]
  } else if (call.operations.includes('mcp.call')) {
    words = stringsIn(call.input, MCP_ARGUMENT_DEPTH)
  } else if (call.operations.includes('search') || call.operations.includes('dir.list')) {
    words = folderWalkWords(call)
  } else if (call.operations.includes('file.read')) {
    // The globs that choose a reader's files, as its tool expands them (`read_many_files {include}`).
    words = [...new Set(PATH_FILTER_ARGUMENTS.flatMap((key) => stringOrStrings(call.input[key])))]
  }
  wordsOfCall.set(call, words)
  return words
}

// Tools classed `search` that search no folder: Claude Code's search of its deferred tools, a language server's queries.
const SEARCHES_NO_FOLDER: ReadonlySet<string> = new Set(['ToolSearch', 'lsp'])

/**
 * What a search or a listing went through. A search reads everything under the folder its path
 * names (`x/**`), and one given no path searches the session's folder (`./**`): Claude Code's
 * `Grep` runs ripgrep there with `--hidden`, so `.engineering/` too. A listing names what lies in
 * the folder (`x/`). The globs that choose their files narrow that (a listing's `pattern`, a
 * search's `glob`/`include`): each is read under the folder, and at any depth where it names no
 * folder, as ripgrep's `--glob` and Claude Code's `Glob` match it (`*.ts`: any `.ts` file below); a glob
 * that leaves files out (`!*.md`) narrows nothing.
 */
function folderWalkWords(call: ToolCall): string[] {
  const lists = call.operations.includes('dir.list')
  const folders = call.subjects.flatMap((subject) => (subject.startsWith('file:') ? [subject.slice(5)] : []))
  const globs = (lists ? ['pattern', ...PATH_FILTER_ARGUMENTS] : PATH_FILTER_ARGUMENTS).flatMap((key) => stringOrStrings(call.input[key])).flatMap(globsOf)
  const chosen = globs.filter((glob) => !glob.startsWith('!'))
  const roots = folders.length > 0 ? folders : lists || SEARCHES_NO_FOLDER.has(call.name) ? [] : ['']
  const words = new Set<string>()
  if (chosen.length > 0 && chosen.length === globs.length) for (const root of roots.length > 0 ? roots : ['']) for (const glob of chosen) words.add(globUnder(root, glob))
  else
    for (const root of roots) {
      words.add(lists ? (root.endsWith('/') || root === '' ? root : `${root}/`) : root === '' ? EVERYTHING_HERE : everythingUnder(root))
      // A search's path may be the one file it reads (`Grep {path: ".env"}`).
      if (!lists) words.add(root)
    }
  words.delete('')
  return [...words]
}

/** The globs one argument holds: Claude Code's `Grep {glob}` takes several, split at blanks and at commas outside braces. */
function globsOf(value: string): string[] {
  return value.split(/\s+/).flatMap((piece) => (piece.includes('{') && piece.includes('}') ? [piece] : piece.split(','))).filter((glob) => glob.length > 0)
}

/** A glob read under the folder it chooses files in: at any depth where it names no folder. */
function globUnder(root: string, glob: string): string {
  const placed = glob.includes('/') ? glob : `**/${glob}`
  return root === '' ? placed : joinFolder(root, placed)
}

/** A shell call's line: a string, or an argv; undefined where it carries neither. */
export function shellLine(call: ToolCall): string | readonly string[] | undefined {
  const line = callArgument(call, 'command')
  const read = typeof line === 'string' ? line : Array.isArray(line) && line.every((word) => typeof word === 'string') ? (line as string[]) : undefined
  // A PowerShell line's `\` are separators, which the POSIX reader would take for escapes.
  return read !== undefined && POWERSHELL_TOOLS.has(call.name) ? posixReadable(read) : read
}

/**
 * The folder a shell call's line ran in (`''`: where the run started): its `workdir`, inside where a
 * kept shell's earlier `cd` left it; and every folder its arguments name.
 */
function shellFolders(call: ToolCall): { start: string; folders: readonly string[] } {
  const kept = call.shellStart
  let folders: string[] | undefined
  for (const key of SHELL_FOLDER_ARGUMENTS) {
    const folder = call.input[key]
    if (typeof folder === 'string' && folder.length > 0) (folders ??= []).push(asFolder(joinFolder(kept, folder)))
  }
  return folders === undefined ? { start: kept, folders: NONE } : { start: folders[0] as string, folders }
}

// An empty list shared by every call that has none (no folder argument, no line).
const NONE: readonly string[] = []

/**
 * The files a shell call's line writes, creates or removes (`filesWrittenBy`), in the folder it
 * ran in, or the paths quoted in code its tool runs that calls something that writes
 * (`filesWrittenByCodeText`); none for any other call. Read on first asking, once per call (kept
 * on the call): only a selector by a file operation or subject that missed a shell call asks.
 */
export function filesWritten(call: ToolCall): readonly string[] {
  if (call.writtenFiles !== null) return call.writtenFiles
  const line = call.operations.includes('shell') ? shellLine(call) : undefined
  const code = line === undefined && call.operations.includes('shell') ? codeRun(call) : undefined
  if (line !== undefined) call.writtenFiles = filesWrittenBy(line, shellFolders(call).start, POWERSHELL_TOOLS.has(call.name))
  else call.writtenFiles = code === undefined ? NONE : filesWrittenByCodeText(code)
  return call.writtenFiles
}

// The argument a shell call's tool takes code under, where it runs code and no line: hermes'
// `execute_code {code}`, OpenHands' `execute_ipython_cell {code}`.
const CODE_ARGUMENT = 'code'

/** The code a shell call runs that is no shell line; undefined for a call with a line, or none. */
function codeRun(call: ToolCall): string | undefined {
  const code = call.input[CODE_ARGUMENT]
  return typeof code === 'string' && code.length > 0 ? code : undefined
}

/**
 * The other spellings of a call's `file:` subjects (`otherPathForms`: `/w/src/a.ts` as `src/a.ts`
 * in a session opened in `/w`, `./src/a.ts` as `src/a.ts`), for a selector that names the file
 * another way. Read on first asking, once per call (kept on the call).
 */
export function otherSubjects(call: ToolCall): readonly string[] {
  if (call.otherSubjects !== null) return call.otherSubjects
  let forms: string[] | undefined
  let folder: string | undefined
  for (const subject of call.subjects) {
    if (!subject.startsWith('file:') || !mayHaveOtherForms(subject.slice(5), call.cwd)) continue
    folder ??= callFolder(call)
    for (const form of otherPathForms(subject.slice(5), call.cwd, folder)) {
      const other = `file:${form}`
      if (!call.subjects.includes(other) && !(forms ??= []).includes(other)) forms.push(other)
    }
  }
  call.otherSubjects = forms ?? NONE
  return call.otherSubjects
}

/** The other spellings of a word a call gave as a path (`otherPathForms`), in the folder its line ran in. */
export function otherWordForms(call: ToolCall, word: string): readonly string[] {
  return mayHaveOtherForms(word, call.cwd) ? otherPathForms(word, call.cwd, callFolder(call)) : NONE
}

/** Where a call's relative paths start: a shell call's folder (`shellFolders`), `''` for any other call. */
function callFolder(call: ToolCall): string {
  return call.operations.includes('shell') ? shellFolders(call).start : ''
}

/** A string argument, or a list argument's strings: each non-empty one. */
function stringOrStrings(value: unknown): string[] {
  const items = Array.isArray(value) ? (value as unknown[]) : [value]
  return items.filter((item): item is string => typeof item === 'string' && item.length > 0)
}

/** The distinct non-empty strings a JSON value holds, `depth` levels down. */
function stringsIn(value: unknown, depth: number, into: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.length > 0 && !into.includes(value)) into.push(value)
  } else if (depth > 0 && value !== null && typeof value === 'object') {
    for (const item of Array.isArray(value) ? value : Object.values(value)) stringsIn(item, depth - 1, into)
  }
  return into
}
