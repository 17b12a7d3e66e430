/**
 * Programs whose job is to read whole trees and print what they find in them: searchers beyond
 * grep and ripgrep (`ag KEY`, `ack KEY`, `ugrep -r KEY`), `fd … -x cat`, which runs a program on
 * what it finds, secret scanners (`trufflehog filesystem .`, `gitleaks detect`) and the packers
 * that put a repository into a prompt (`repomix`, `files-to-prompt .`). Each reads everything
 * under the folders it is given, or under where it runs when it is given none; `.` is everything
 * here for them, as for an archiver. `unreadOperands` gives what this names as words.
 */
import { readArguments, subcommandOf, given, valuesOf, type OptionGrammar } from './command-arguments.js'
import { EVERYTHING_HERE, everythingUnder, foldersOrHere, VISIBLE_HERE } from './shell-folder.js'
import type { SimpleCommand } from './shell.js'

const NOTHING: readonly string[] = []

interface TreeSearcher {
  readonly grammar: OptionGrammar
  /** Whether it skips hidden files where it runs, as ripgrep does, unless told to search them. */
  readonly skipsHidden?: RegExp
  /** Whether it goes down only when told to (`ugrep -r`); else always. */
  readonly recursive?: RegExp
}

const SEARCHERS: ReadonlyMap<string, TreeSearcher> = new Map([
  ['ag', { grammar: { valued: 'ABCGgmpW', valuedLong: ['--after', '--before', '--context', '--file-search-regex', '--ignore', '--ignore-dir', '--max-count', '--depth', '--path-to-ignore', '--pager', '--width'] }, skipsHidden: /^(?:--hidden|-[a-zA-Z]*u|--unrestricted|--all-types|-a)$/ }],
  ['pt', { grammar: { valued: 'ABCGg', valuedLong: ['--after', '--before', '--context', '--file-search-regexp', '--ignore', '--depth', '--output-encode'] }, skipsHidden: /^(?:--hidden|-[a-zA-Z]*U|--skip-vcs-ignores)$/ }],
  ['sift', { grammar: { valued: 'ABCefmnx', valuedLong: ['--after-context', '--before-context', '--context', '--regexp', '--file', '--exclude-path', '--include-path', '--ext', '--exclude-ext', '--type', '--max-count'] } }],
  ['ack', { grammar: { valued: 'ABCm', valuedLong: ['--type', '--ignore-dir', '--ignore-file', '--output', '--max-count', '--after-context', '--before-context', '--context', '--match'] } }],
  ['ugrep', { grammar: { valued: 'ABCefgmtMNOKJ', valuedLong: ['--regexp', '--file', '--glob', '--max-count', '--file-type', '--include', '--exclude', '--include-dir', '--exclude-dir', '--context', '--after-context', '--before-context'] }, recursive: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/ }],
  ['rga', { grammar: { valued: 'ABCegjmMt', valuedLong: ['--regexp', '--glob', '--type', '--max-count', '--context', '--after-context', '--before-context', '--rga-adapters'] }, skipsHidden: /^(?:--hidden|-[a-zA-Z]*[u.][a-zA-Z.]*|--no-ignore(?:-[a-z-]+)?)$/ }],
])

/** A searcher's pattern first, then the folders it goes down through; a piped searcher reads what it is fed. */
function searched(command: SimpleCommand, searcher: TreeSearcher): readonly string[] {
  if (searcher.recursive !== undefined && !command.args.some((arg) => searcher.recursive?.test(arg) === true)) return NOTHING
  const read = readArguments(command.args, searcher.grammar)
  const folders = given(read, '-e', '-f', '--regexp', '--file') ? read.operands : read.operands.slice(1)
  if (folders.length === 0 && (command.stdin !== undefined || command.piped === true)) return NOTHING
  const hidden = searcher.skipsHidden !== undefined && !command.args.some((arg) => searcher.skipsHidden?.test(arg) === true)
  return foldersOrHere(folders, hidden ? VISIBLE_HERE : EVERYTHING_HERE)
}

/** `fd [pattern] [path…] -x prog`: what it finds, under its paths or here (hidden files only with `-H`), is given to a program. */
function foundAndRun(args: readonly string[]): readonly string[] {
  const run = args.findIndex((arg) => /^(?:-x|--exec|-X|--exec-batch)$/.test(arg))
  if (run === -1) return NOTHING
  const read = readArguments(args.slice(0, run), { valued: 'edtEScj', valuedLong: ['--extension', '--max-depth', '--min-depth', '--exact-depth', '--type', '--exclude', '--size', '--changed-within', '--changed-before', '--owner', '--threads', '--base-directory', '--search-path', '--ignore-file', '--color'] })
  const hidden = !given(read, '-H', '--hidden', '-u', '--unrestricted')
  const folders = [...read.operands.slice(1), ...valuesOf(read, '--search-path')]
  return foldersOrHere(folders, hidden ? VISIBLE_HERE : EVERYTHING_HERE)
}

/** `trufflehog filesystem d`, `trufflehog git file://.`: the folders it scans. */
function trufflehogReads(args: readonly string[]): readonly string[] {
  const sub = subcommandOf(args, ['--config', '--concurrency', '--results', '--log-level'])
  const operands = readArguments(sub.args, { valuedLong: ['--include-paths', '--exclude-paths', '--since-commit', '--branch', '--max-depth'] }).operands
  if (sub.name === 'filesystem') return operands.map(everythingUnder)
  return sub.name === 'git' && operands.some((operand) => operand.startsWith('file://')) ? [EVERYTHING_HERE] : NOTHING
}

/** `gitleaks detect [--source d]`, `gitleaks dir [d]`, `gitleaks git [d]`: the repository or folder it scans, here without one. */
function gitleaksReads(args: readonly string[]): readonly string[] {
  const sub = subcommandOf(args, ['-c', '--config', '--log-level', '-r', '--report-path', '-f', '--report-format'])
  if (!['detect', 'protect', 'dir', 'directory', 'files', 'file', 'git'].includes(sub.name)) return NOTHING
  const read = readArguments(sub.args, { valued: 'scrfb', valuedLong: ['--source', '--config', '--report-path', '--report-format', '--baseline-path', '--log-opts', '--log-level', '--redact', '--max-target-megabytes', '--gitleaks-ignore-path'] })
  return foldersOrHere([...valuesOf(read, '-s', '--source'), ...read.operands])
}

/** A reader of whole trees given its paths as operands (`repomix src`, `files-to-prompt .`), after its subcommand where it has one; here with none. */
function pathsOrHere(grammar: OptionGrammar, subcommand?: string): (args: readonly string[]) => readonly string[] {
  return (args) => {
    if (subcommand !== undefined && args[0] !== subcommand) return NOTHING
    return foldersOrHere(readArguments(subcommand === undefined ? args : args.slice(1), grammar).operands)
  }
}

const SEMGREP_GRAMMAR: OptionGrammar = { valued: 'cfe', valuedLong: ['--config', '--lang', '--pattern', '--exclude', '--include', '--output', '--json-output', '--sarif-output', '--severity', '--timeout', '--jobs', '--max-target-bytes', '--baseline-commit'] }

/** `semgrep scan [paths]`, `semgrep ci`, `semgrep --config auto [paths]`: the code it scans, here without a path. */
function semgrepReads(args: readonly string[]): readonly string[] {
  if (args[0] === 'scan' || args[0] === 'ci') return foldersOrHere(readArguments(args.slice(1), SEMGREP_GRAMMAR).operands)
  const read = readArguments(args, SEMGREP_GRAMMAR)
  return given(read, '--config', '-c', '-e', '--pattern') ? foldersOrHere(read.operands) : NOTHING
}

const READERS: ReadonlyMap<string, (args: readonly string[]) => readonly string[]> = new Map([
  ['fd', foundAndRun],
  ['fdfind', foundAndRun],
  ['trufflehog', trufflehogReads],
  ['gitleaks', gitleaksReads],
  ['detect-secrets', pathsOrHere({ valuedLong: ['--baseline', '--exclude-files', '--exclude-lines', '--exclude-secrets', '--word-list', '--cores'] }, 'scan')],
  ['repomix', pathsOrHere({ valued: 'oc', valuedLong: ['--output', '--include', '--ignore', '--style', '--config', '--remote', '--header-text', '--instruction-file-path', '--token-count-encoding'] })],
  ['files-to-prompt', pathsOrHere({ valued: 'eo', valuedLong: ['--extension', '--ignore', '--output'] })],
  ['code2prompt', pathsOrHere({ valued: 'iteO', valuedLong: ['--include', '--exclude', '--template', '--encoding', '--output', '--output-file'] })],
  ['semgrep', semgrepReads],
])

/** What a program that reads whole trees reads beyond its words: everything under the folders it works through (see the file's comment). */
export function treeRead(command: SimpleCommand): readonly string[] {
  const searcher = SEARCHERS.get(command.program)
  if (searcher !== undefined) return searched(command, searcher)
  const reader = READERS.get(command.program)
  return reader === undefined ? NOTHING : reader(command.args)
}
