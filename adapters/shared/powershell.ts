/**
 * Claude Code's `PowerShell` tool (on Windows) runs PowerShell lines, which the POSIX shell reader
 * reads with two differences made here: `\` is PowerShell's path separator, never an escape (its
 * escape is the backtick), and the cmdlets that write files are PowerShell's own.
 */
export const POWERSHELL_TOOLS: ReadonlySet<string> = new Set(['PowerShell'])

/**
 * A PowerShell line as the POSIX reader should see it: each `\` read as `/`, so
 * `Remove-Item src\generated\out.js` keeps its separators instead of losing them to escapes.
 */
export function posixReadable(line: string): string
export function posixReadable(line: readonly string[]): readonly string[]
export function posixReadable(line: string | readonly string[]): string | readonly string[]
export function posixReadable(line: string | readonly string[]): string | readonly string[] {
  return typeof line === 'string' ? line.replace(/\\/g, '/') : line.map((word) => word.replace(/\\/g, '/'))
}

/**
 * The cmdlets, and their usual aliases, that write, create, remove, copy to or move the files
 * they are given, in lower case (PowerShell's names are case-insensitive). Every file a command
 * names is taken as written: `-Path`, `-Destination` and positional operands alike, and a
 * `-Value`'s text too, which can only leave a row unknown, never decide it.
 */
export const POWERSHELL_WRITERS: ReadonlySet<string> = new Set([
  'remove-item', 'ri', 'del', 'erase', 'rd', 'rmdir',
  'set-content', 'sc', 'add-content', 'ac', 'clear-content', 'clc', 'out-file', 'tee-object',
  'new-item', 'ni', 'copy-item', 'cpi', 'copy', 'move-item', 'mi', 'move', 'rename-item', 'rni', 'ren',
])
