import { readShellLine, SHELLS } from './shell.js'

/**
 * A line that only starts a program reading what to do from its terminal: a shell with no
 * script (`bash`, `zsh -i`, `sh -s`), or an interpreter with none (`python3`, `node`). What the
 * run sends it later (Codex's `write_stdin`) is the model's own commands or code, in calls a
 * stream may not carry. A shell fed by a pipe (`curl … | sh`) reads the pipe, not the run.
 */
const INTERPRETERS = new Set(['python', 'python3', 'node', 'ruby', 'irb', 'perl', 'php', 'lua', 'R', 'julia', 'ghci', 'psql', 'sqlite3', 'mysql', 'redis-cli', 'bc'])
// Options after which a shell reads no command: it prints and exits.
const PRINTING = new Set(['--version', '--help', '-h', '-V'])

// A shell or interpreter named as a word and not followed by a script flag. A line without one
// (every `bash -lc '<command>'` a harness runs, but for a shell as the command) is not read again.
const NAMED = new RegExp(`(?:^|[\\s/'"(;&|])(?:${[...SHELLS, ...INTERPRETERS].join('|')})(?![\\w.-])(?!\\s+-[a-zA-Z]*c\\b)`)

/** What kind of program reading its terminal a line starts: `shell`, `interpreter`, or undefined for none. */
export function interactiveProgram(line: string): 'shell' | 'interpreter' | undefined {
  if (!NAMED.test(line)) return undefined
  const commands = readShellLine(line).commands
  const only = commands.length === 1 ? commands[0] : undefined
  if (!only) return undefined
  const { program, args } = only
  if (SHELLS.has(program) && args.every((arg) => arg.startsWith('-') && !PRINTING.has(arg))) return 'shell'
  if (INTERPRETERS.has(program) && args.every((arg) => arg === '-i')) return 'interpreter'
  return undefined
}
