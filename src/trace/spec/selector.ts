import { compareCodePoints } from '../../events/json.js'
import { callArgument, filesWritten, mcpCallAsShell, otherSubjects, otherWordForms, wordsUnread } from '../ir/call.js'
import { everythingUnder } from '../../../adapters/shared/shell-folder.js'
import { wrappedScriptOf } from '../../../adapters/shared/shell.js'
import { absolutePathOf, pathsBelowFolders } from '../ir/path-forms.js'
import type { ToolCall } from '../ir/types.js'
import { literalTokens, shellGlobMayName, shellMayChange, specGlobTokens, type Token } from './glob-overlap.js'
import { describeMatcher, matchesRecorded, matchesText } from './matcher.js'
import type { CallSelector, FieldMatcher } from './model.js'

/** Whether a call is in the selector's scope: its name is in `tools` or an operation in `operations` (both empty: every call). */
function inScope(selector: CallSelector, call: ToolCall): boolean {
  const tools = selector.tools
  const operations = selector.operations ?? []
  if (tools.length === 0 && operations.length === 0) return true
  if (tools.length > 0 && tools.includes(call.name)) return true
  return operations.length > 0 && call.operations.some((operation) => operations.includes(operation))
}

/**
 * Whether every `args` matcher holds on what was recorded. A list of words (a command given as
 * argv, `["git", "push"]`) is also read as the words joined by spaces, as a shell line would name
 * them: its JSON text alone never contains `git push`. A path argument is also read as its other
 * spellings (`otherWordForms`: `/w/src/a.ts` is `src/a.ts` in a session opened in `/w`). A shell
 * line that wraps its script in a shell (`/bin/bash -lc '…'`, as Codex's `exec --json` records
 * every command) is also read as that script, so `git commit -m 'WIP'` is seen where the wrapper
 * wrote `'git commit -m '"'"'WIP'"'"''`.
 */
function argsHold(selector: CallSelector, call: ToolCall): boolean {
  for (const field in selector.args) {
    const value = callArgument(call, field)
    if (value === undefined) return false
    const matcher = selector.args[field] as FieldMatcher
    if (matchesRecorded(matcher, value)) continue
    if (isWordList(value) && matchesText(matcher, value.join(' '))) continue
    if (typeof value === 'string' && PATH_ARGUMENTS.has(field) && otherWordForms(call, value).some((form) => matchesText(matcher, form))) continue
    if (typeof value === 'string' && call.operations.includes('shell') && matchesWrappedScript(matcher, value)) continue
    return false
  }
  return true
}

/**
 * Whether a shell line that only runs a shell on a script, its quotes escaped by the wrapper
 * (`wrappedScriptOf`), matches as that script. Asked only of a matcher that names a quote or a
 * backslash: any other text of the script stands in the line as written.
 */
function matchesWrappedScript(matcher: FieldMatcher, line: string): boolean {
  if (!namesQuotes(matcher)) return false
  const script = wrappedScriptOf(line)
  return script !== undefined && matchesText(matcher, script)
}

const QUOTING = /['"\\]/

function namesQuotes(matcher: FieldMatcher): boolean {
  const text = 'exact' in matcher ? matcher.exact : 'contains' in matcher ? matcher.contains : 'glob' in matcher ? matcher.glob : 'regex' in matcher ? matcher.regex : matcher.equals
  return typeof text === 'string' && QUOTING.test(text)
}

// The arguments harnesses give a file's path under (Claude Code's `file_path`, opencode's `filePath`, Gemini CLI's `absolute_path`…).
const PATH_ARGUMENTS: ReadonlySet<string> = new Set(['file_path', 'filePath', 'notebook_path', 'path', 'absolute_path', 'dir_path'])

function isWordList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string')
}

/**
 * Whether a call is in scope: its name is in `tools` **or** one of its operations is in
 * `operations` (both empty selects every call); then any subject matches `subject`; then every
 * `args` matcher holds. A missing argument, subject or operation never matches.
 */
export function selectorMatches(selector: CallSelector, call: ToolCall): boolean {
  if (!inScope(selector, call)) return false
  if (selector.subject !== undefined && !subjectHolds(selector.subject, call)) return false
  return argsHold(selector, call)
}

/**
 * Whether one of the call's subjects matches, as recorded or spelled another way (`otherSubjects`:
 * `/w/src/a.ts` is `src/a.ts` in a session opened in `/w`), so `file:src/*` sees Claude Code's
 * absolute paths.
 */
function subjectHolds(matcher: FieldMatcher, call: ToolCall): boolean {
  return call.subjects.some((subject) => matchesRecorded(matcher, subject)) || otherSubjects(call).some((subject) => matchesRecorded(matcher, subject))
}

/**
 * Whether a call the selector did not match might have matched had its tool been classified: the
 * call is unclassified; the selector names operations, or names no tool and no operation but a
 * `subject` (every call is in its scope, and an unknown tool's line was never read for the
 * programs it starts); a name in `tools` sees the call as it is. Every `args` matcher must hold on
 * what was recorded, and a `subject` could hold (none was derived, or one matches). Such a call
 * leaves a count a lower bound and an absence undecided.
 */
export function selectorMightMatch(selector: CallSelector, call: ToolCall): boolean {
  if (!call.unclassified) return false
  const operations = selector.operations ?? []
  const bySubjectAlone = operations.length === 0 && selector.tools.length === 0 && selector.subject !== undefined
  if (operations.length === 0 && !bySubjectAlone) return false
  if (selector.tools.includes(call.name)) return false
  if (selector.subject !== undefined && call.subjects.length > 0 && !subjectHolds(selector.subject, call)) return false
  return argsHold(selector, call)
}

/**
 * Whether a call the selector did not match might have matched had its line named the program it
 * ran: the line named one only through an expansion (`$TOOL x`, see `unnamedPrograms`), the call
 * is in scope, every `args` matcher holds, and the `subject` matcher could hold on a `proc:` subject.
 */
export function selectorMightName(selector: CallSelector, call: ToolCall): boolean {
  if (call.unnamedPrograms.length === 0 || selector.subject === undefined || !mightMatchKind(selector.subject, 'proc:')) return false
  return inScope(selector, call) && argsHold(selector, call)
}

/**
 * The words a call named that a selector by subject would have matched as `file:` subjects, had a
 * reader known which files they touched (`wordsUnread`: a word `git rm x` or an MCP `move_file`
 * was given, a folder `cd` entered or `rm -rf` worked through): the call is in scope and every
 * `args` matcher holds. Empty for any call it can rule out.
 */
export function selectorMightTouch(selector: CallSelector, call: ToolCall): readonly string[] {
  const matcher = selector.subject
  if (matcher === undefined || !mightMatchKind(matcher, 'file:') || !inScope(selector, call) || !argsHold(selector, call)) return []
  const words = wordsNaming(matcher, wordsUnread(call), call)
  if (words.length > 0) return words
  // What the line writes touches it too, where no word names such a file (`npm install x` writes `package.json`; `git checkout -- .`, everything here).
  // Each as the path it is: a folder the line writes under is written so (`./**`), and `rm -f src` removes no folder.
  return filesWritten(call).filter((file) => mightName(matcher, file, call, false))
}

/**
 * The programs an MCP call's command line names, where the selector would have matched the call
 * had its harness named it a shell call (`mcpCallAsShell`): by `shell`, or by a program or file
 * its line names. Empty for any call it can rule out, and for a call it matches as it is.
 */
export function selectorMightRun(selector: CallSelector, call: ToolCall): readonly string[] {
  const asShell = mcpCallAsShell(call)
  if (asShell === null || !selectorMatches(selector, asShell)) return []
  return asShell.subjects.flatMap((subject) => (subject.startsWith('proc:') && !call.subjects.includes(subject) ? [subject.slice(5)] : []))
}

/**
 * The absolute paths among a call's subjects that a selector written relative (`file:src/*`) may
 * name, where the session named no folder it opened in (Codex `exec --json`, opencode's `run
 * --format json`, Gemini CLI's stream-json and session files, ATIF): a path matches if some folder it lies in could have been the session's
 * (`/x/src/a.ts` is `src/a.ts` in `/x`). With the folder known, `otherSubjects` reads them
 * exactly. Empty for any call it can rule out.
 */
export function selectorMightPlace(selector: CallSelector, call: ToolCall): readonly string[] {
  const matcher = selector.subject
  // Asked of every call a selector by subject misses: the cheapest questions first.
  if (call.cwd !== null || matcher === undefined || !call.subjects.some((subject) => absolutePathOf(subject) !== null)) return NONE
  if (!mightMatchKind(matcher, 'file:') || !inScope(selector, call) || !argsHold(selector, call)) return NONE
  let paths: string[] | undefined
  for (const subject of call.subjects) {
    const path = absolutePathOf(subject)
    // Each folder below the root (`/`, or a drive) could have been the session's.
    if (path !== null && pathsBelowFolders(path).some((tail) => matchesRecorded(matcher, `file:${tail}`))) (paths ??= []).push(subject.slice(5))
  }
  return paths ?? NONE
}

/**
 * Whether a call of a file operation named no file at all (hermes' `skill_manage {name}`, an
 * `apply_patch` whose body is unreadable, a stream that resolved no subject) nor any path glob,
 * where a selector by file subject would have matched it had it named the file: the call is in scope and every `args`
 * matcher holds. Which file it read or wrote nobody can tell, so the selector cannot rule it out.
 */
export function selectorMightOperateUnnamed(selector: CallSelector, call: ToolCall): boolean {
  if (!call.operations.some((operation) => FILE_OPERATIONS.includes(operation)) || call.subjects.some((subject) => subject.startsWith('file:'))) return false
  // A path glob that chose its files (`read_many_files {include}`) names them: `selectorMightTouch` reads it.
  return wordsUnread(call).length === 0 && inScope(selector, call) && argsHold(selector, call)
}

/** The words, or the paths inside a word of code, that may name a file the matcher matches. */
function wordsNaming(matcher: FieldMatcher, words: readonly string[], call: ToolCall): readonly string[] {
  if (words.length === 0) return words
  const touched: string[] = []
  for (const word of words) {
    // Code or a list (`open('.engineering/n.md','w')`, a here-document's script): a path inside it is matched, and named, on its own.
    const pieces = word.split(CODE_PUNCTUATION).filter((piece) => piece.length > 0)
    const named = pieces.length > 1 ? pieces.filter((piece) => mightName(matcher, piece, call, false)) : []
    // Text with blanks outside its substitutions (a message, a script) is a path only as written: its `$`, `` ` `` and `*` are its own.
    const whole = named.length === 0 && (isText(word) ? matchesRecorded(matcher, `file:${word}`) : mightName(matcher, word, call, true))
    for (const found of whole ? [word] : named) if (!touched.includes(found)) touched.push(found)
  }
  return touched
}

/** Whether a word is text, not a path: blanks outside its substitutions (`$(cat list)` is one word a shell splits). */
function isText(word: string): boolean {
  return /\s/.test(word) && /\s/.test(word.replace(SUBSTITUTIONS, ''))
}

const SUBSTITUTIONS = /\$\([^()]*\)|\$\{[^}]*\}|`[^`]*`/g

// The operations that put bytes in a file: what a shell line's writes are, though its harness names them `shell`.
const WRITING_OPERATIONS: readonly string[] = ['file.write', 'file.edit']
// The operations on a file a call names: one that names none could have been on any file.
const FILE_OPERATIONS: readonly string[] = ['file.read', ...WRITING_OPERATIONS]

/** Which file operations a selector names that a shell call's line may do: what `selectorMightOperate` asks of each call. */
export interface FileOperations {
  readonly writes: boolean
  readonly reads: boolean
}

/** The file operations a selector names (`file.write`, `file.edit`, `file.read`); null for none. Asked once per selector. */
export function fileOperationsOf(selector: CallSelector): FileOperations | null {
  const operations = selector.operations ?? []
  const writes = operations.some((operation) => WRITING_OPERATIONS.includes(operation))
  const reads = operations.includes('file.read')
  return writes || reads ? { writes, reads } : null
}

/**
 * The files a shell call read or wrote that a selector by a file operation (`operations`, from
 * `fileOperationsOf`) would have matched had its harness named the call's operation for them, not
 * `shell` alone. For `file.write` or `file.edit`, the files its line writes, creates or removes
 * count (`filesWritten`: `> out.txt`, `tee`, `sed -i`, `cp`'s destination, `rm`); for `file.read`,
 * every file its line names (its `file:` subjects: `cat .env`) and, under a `subject`, every word it
 * gives a program nobody reads (`python3 -c "open('.env')"`). The call is not in the selector's
 * scope, every `args` matcher holds, and the file matches `subject` (any file, without one). Empty
 * for any call it can rule out.
 */
export function selectorMightOperate(selector: CallSelector, operations: FileOperations, call: ToolCall): readonly string[] {
  if (!call.operations.includes('shell')) return NONE
  // The cheapest question first: most shell lines write nothing.
  const written = operations.writes ? filesWritten(call) : NONE
  if ((!operations.reads && written.length === 0) || inScope(selector, call) || !argsHold(selector, call)) return NONE
  const matcher = selector.subject
  const files: string[] = []
  const take = (file: string): void => {
    if ((matcher === undefined || mightName(matcher, file, call, true)) && !files.includes(file)) files.push(file)
  }
  for (const file of written) take(file)
  if (operations.reads) {
    for (const subject of call.subjects) if (subject.startsWith('file:')) take(subject.slice(5))
    if (matcher !== undefined) for (const word of wordsNaming(matcher, wordsUnread(call), call)) take(word)
  }
  return files
}

const NONE: readonly string[] = []

// MCP tools that only read, list or search what they are given (the reference filesystem server's,
// Desktop Commander's, Serena's): under a selector by a writing operation they are ruled out.
const MCP_READERS: ReadonlySet<string> = new Set([
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'search_files',
  'search_code',
  'get_file_info',
  'list_allowed_directories',
  'list_dir',
  'find_file',
  'search_for_pattern',
  'get_symbols_overview',
  'find_symbol',
  'find_referencing_symbols',
])

/**
 * The files an MCP call named — its `file:` subjects, and under a `subject` every word it gave its
 * tool (`wordsUnread`) — that a selector by a file operation would have matched had its harness
 * named the call's operation for them, not `mcp.call` alone: `mcp__filesystem__write_file {path}`,
 * Serena's `create_text_file`, Desktop Commander's `edit_block`. What the tool did with them only
 * its server knows. Under a selector by a writing operation alone, a tool known only to read is
 * ruled out. The call is not in the selector's scope and every `args` matcher holds; empty for any
 * call it can rule out.
 */
export function selectorMightHandOver(selector: CallSelector, operations: FileOperations, call: ToolCall): readonly string[] {
  if (!call.operations.includes('mcp.call') || inScope(selector, call) || !argsHold(selector, call)) return NONE
  if (!operations.reads && MCP_READERS.has(call.name.slice(call.name.lastIndexOf('__') + 2))) return NONE
  const matcher = selector.subject
  const named = call.subjects.flatMap((subject) => (subject.startsWith('file:') && (matcher === undefined || mightName(matcher, subject.slice(5), call, true)) ? [subject.slice(5)] : []))
  if (matcher === undefined) return named
  const words = wordsNaming(matcher, wordsUnread(call), call)
  return named.length === 0 ? words : [...new Set([...named, ...words])]
}

/**
 * What a search tool read that a selector by `file.read` would have matched had its harness named
 * the call `file.read`, not `search`: a search reads every file under the path it is given, as
 * `grep -r` does in a shell line, so `Grep {pattern, path: ".env"}` read `.env`, and one given no
 * path read the session's folder (`wordsUnread`'s folder words: `x/**`, `./**`, a glob under it).
 * A listing reads no file's contents. The call is not in the selector's scope and every `args`
 * matcher holds; empty for any call it can rule out.
 */
export function selectorMightSearch(selector: CallSelector, operations: FileOperations, call: ToolCall): readonly string[] {
  if (!operations.reads || !call.operations.includes('search') || inScope(selector, call) || !argsHold(selector, call)) return NONE
  const matcher = selector.subject
  return matcher === undefined ? wordsUnread(call) : wordsNaming(matcher, wordsUnread(call), call)
}

/**
 * Whether a word may name a file the matcher matches: as itself, or as a folder what lies under
 * which would match (`tar -C .engineering`); a glob, as any path it may expand to (`rm -rf .*`).
 * A whole word a program was given may be a folder it goes down through (`prettier --write src`
 * may rewrite `src/generated/out.js`); a piece of code or prose (`from heru.main import`) names at
 * most what lies in it.
 */
function mightName(matcher: FieldMatcher, word: string, call: ToolCall, whole: boolean): boolean {
  // The folder the shell is in, or its home, is no file: what lies in it is named by other words.
  if (word.length === 0 || ADDRESS.test(word) || A_FOLDER_ITSELF.test(word)) return false
  // As written, or spelled another way (`/w/.env` is `.env` in a session opened in `/w`); in a
  // session that named no folder, an absolute word below any folder that could have been it.
  if (mightNameAsWritten(matcher, word, whole) || otherWordForms(call, word).some((form) => mightNameAsWritten(matcher, form, whole))) return true
  // A path from a folder no reader of the line knows (`~/w/src/a.ts`, `$HOME/w/…`): that folder, or any
  // folder the path goes down through, could be the session's.
  const unknownFolder = FROM_UNKNOWN_FOLDER.exec(word)
  if (unknownFolder !== null) {
    const rest = word.slice(unknownFolder[0].length)
    if (mightNameAsWritten(matcher, rest, whole) || tailsNaming(matcher, `/${rest}`, whole)) return true
  }
  return call.cwd === null && tailsNaming(matcher, word, whole)
}

/** Whether an absolute path read from a folder below its root may name a file the matcher matches (`pathsBelowFolders`); never the folder's whole contents (`**`) alone. */
function tailsNaming(matcher: FieldMatcher, path: string, whole: boolean): boolean {
  return pathsBelowFolders(path).some((tail) => !tail.startsWith('**') && mightNameAsWritten(matcher, tail, whole))
}

function mightNameAsWritten(matcher: FieldMatcher, word: string, whole: boolean): boolean {
  if (matchesRecorded(matcher, `file:${word}`) || (PATH_SHAPED.test(word) && matchesRecorded(matcher, `file:${word}/`))) return true
  const tokens = matcherTokens(matcher)
  // Everything under it, matched by the selector's letters (`src` for `src/generated/*`, never `build` for `*.env`).
  if (whole && tokens !== undefined && PATH_SHAPED.test(word) && shellGlobMayName(everythingUnder(word), tokens)) return true
  if (!shellMayChange(word)) return false
  // A regex is matched as written; but a substitution (`$F`, `$(…)`) may be any path at all.
  return tokens !== undefined ? shellGlobMayName(word, tokens) : SUBSTITUTION.test(word)
}

/** A matcher as a pattern over subjects, for the glob overlap; undefined for a regex, whose words are matched as written. */
function matcherTokens(matcher: FieldMatcher): Token[] | undefined {
  if ('glob' in matcher) return specGlobTokens(matcher.glob)
  if ('exact' in matcher) return literalTokens(matcher.exact)
  if ('contains' in matcher) return [...specGlobTokens('*'), ...literalTokens(matcher.contains), ...specGlobTokens('*')]
  if ('equals' in matcher) return typeof matcher.equals === 'string' ? literalTokens(matcher.equals) : undefined
  return undefined
}

// An address is no file (`git clone https://…/x.git`), unless a `file://` one; a word with blanks or shell punctuation is no folder.
const ADDRESS = /^(?!file:)[a-zA-Z][a-zA-Z0-9+.-]*:\/\//
const PATH_SHAPED = /^[^\s|;&<>()'"`$*?]+[^/\s]$/
const SUBSTITUTION = /[$`]/
const A_FOLDER_ITSELF = /^(?:~|\$\{?(?:PWD|HOME)\}?)\/?$/
const FROM_UNKNOWN_FOLDER = /^(?:~[^/]*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)\//
// What separates a path from the code around it: blanks, quotes, brackets, commas and `=`. Not `|`:
// `tree -I 'node_modules|.git'` names a pattern, and its pieces no folders.
const CODE_PUNCTUATION = /[\s'"`()[\]{},=]+/

/** Whether a subject matcher could hold on some subject of a kind (`proc:`, `file:`); `contains` and `regex` are taken to. */
/** Whether a selector's `subject` may match `file:` subjects: asked once per selector by who asks `selectorMightTouch` or `selectorMightPlace` per call. */
export function selectsFilesBySubject(selector: CallSelector): boolean {
  return selector.subject !== undefined && mightMatchKind(selector.subject, 'file:')
}

// A glob's text before its first wildcard, kept per matcher: a check asks it of every call.
const globLiterals = new WeakMap<FieldMatcher, string>()

function globLiteral(matcher: FieldMatcher & { glob: string }): string {
  let literal = globLiterals.get(matcher)
  if (literal === undefined) {
    const wildcard = matcher.glob.search(/[*?]/)
    literal = wildcard === -1 ? matcher.glob : matcher.glob.slice(0, wildcard)
    globLiterals.set(matcher, literal)
  }
  return literal
}

function mightMatchKind(matcher: FieldMatcher, kind: string): boolean {
  if ('exact' in matcher) return matcher.exact.startsWith(kind)
  if ('equals' in matcher) return typeof matcher.equals === 'string' && matcher.equals.startsWith(kind)
  if ('glob' in matcher) {
    const literal = globLiteral(matcher)
    return literal.startsWith(kind) || kind.startsWith(literal)
  }
  return true
}

/** Whether the selector selects everything: what `tool.absent` refuses. */
export function isUnscoped(selector: CallSelector): boolean {
  return selector.tools.length === 0 && (selector.operations ?? []).length === 0 && selector.subject === undefined && Object.keys(selector.args).length === 0
}

/** Upstream's rendering: `Bash`, `Edit|Write`, `file.write or Write`, `Bash(command ~ "x")`. */
export function describeSelector(selector: CallSelector): string {
  const tools = selector.tools
  const operations = selector.operations ?? []
  let scope: string
  if (operations.length === 0) scope = tools.length === 0 ? 'any tool' : tools.join('|')
  else scope = tools.length === 0 ? operations.join('|') : `${operations.join('|')} or ${tools.join('|')}`
  const fields = sortedKeys(selector.args)
  if (fields.length === 0) return scope
  return `${scope}(${fields.map((field) => `${field} ${describeMatcher(selector.args[field] as FieldMatcher)}`).join(', ')})`
}

/** Keys in Rust's `BTreeMap` order (code point order; JavaScript would put integer-like keys first). */
export function sortedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).sort(compareCodePoints)
}
