/**
 * The folder a shell works in, as a line's `cd`, `pushd` and `popd` move it: where the paths a
 * later command names really are (`cd src && rm generated/out.js` removes `src/generated/out.js`).
 * Folders are written as a path and a trailing `/`, relative to where the shell started (`''`);
 * nothing is expanded, so `cd "$DIR"` leaves the shell in `$DIR/`, read as written.
 */
import type { SimpleCommand } from './shell.js'

/** Where a shell is: its folder, the one `cd -` returns to, and the folders `pushd` kept. */
export interface ShellPlace {
  readonly folder: string
  readonly previous: string
  readonly pushed: readonly string[]
}

/** A shell where it started. */
export const STARTING_PLACE: ShellPlace = { folder: '', previous: '', pushed: [] }

/** A path inside `folder`: a path from `/` or `~` is itself; `.` and `..` are resolved where they can be. */
export function joinFolder(folder: string, path: string): string {
  if (path.startsWith('/') || path.startsWith('~')) return path
  const parts = folder.split('/').filter((part) => part.length > 0)
  const absolute = folder.startsWith('/')
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop()
    else parts.push(part)
  }
  const joined = parts.join('/')
  const trailing = path.endsWith('/') && joined.length > 0 ? '/' : ''
  return `${absolute ? '/' : ''}${joined}${trailing}`
}

/** Everything under a folder, what a program that goes down through it may touch: `src/**` for `src` or `src/` (`/**` for `/`). */
export function everythingUnder(folder: string): string {
  return `${folder.replace(TRAILING_SLASHES, '')}/**`
}

/** A path without its trailing `/` (`src/` is `src`); `/` itself stays. */
export function withoutTrailingSlashes(path: string): string {
  return path.replace(TRAILING_SLASHES, '') || path
}

const TRAILING_SLASHES = /\/+$/

/** Everything under where a program works (`find . -delete`, `git pull`, `prettier --write .`): `./**`. */
export const EVERYTHING_HERE = everythingUnder('.')

/**
 * Everything here but what is hidden (a name that starts with `.`, or lies in such a folder), as
 * ripgrep searches it by default: `./**` but, as a `.gitignore` would say it, not `.*`. Spelt
 * without brackets, which a reader of code splits words at. `glob-overlap.ts` reads it.
 */
export const VISIBLE_SUFFIX = '**/!.*'
export const VISIBLE_HERE = `./${VISIBLE_SUFFIX}`

/**
 * Everything under each folder a program was given (`.` is everything here), or, given none,
 * everything under where it works (`here`, or what of it is visible): `7z x -od`, `meson compile -C
 * build`, `npx create-vite my-app`, `ack KEY src`.
 */
export function foldersOrHere(folders: readonly (string | undefined)[], here = EVERYTHING_HERE): string[] {
  const given = folders.filter((folder): folder is string => folder !== undefined)
  return given.length > 0 ? given.map(everythingUnder) : [here]
}

/** `path` as a folder: with its trailing `/`, or `''` for where the shell started. */
export function asFolder(path: string): string {
  if (path === '' || path === '.' || path === './') return ''
  return path.endsWith('/') ? path : `${path}/`
}

/** The folder operand of `cd` or `pushd`: the first word that is no option (after `--`, any word). */
function folderOperand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return args[i + 1]
    if (arg === '-' || !arg.startsWith('-')) return arg
  }
  return undefined
}

/** Whether the program enters the folder its operand names: `cd`, `pushd`. */
export function entersFolder(program: string): boolean {
  return program === 'cd' || program === 'pushd'
}

/** Whether the command moves the shell: `cd`, `pushd` or `popd`. */
export function movesFolder(command: SimpleCommand): boolean {
  return entersFolder(command.program) || command.program === 'popd'
}

// An address (`https://…`), an option, `find -exec`'s `{}`: words no folder holds.
const NOT_A_RELATIVE_PATH = /^(?:[/~-]|\{\}$|[a-zA-Z][a-zA-Z0-9+.-]*:)/

/** Whether a word is a path a folder change moves: relative, and no option or address. */
export function isRelativePath(word: string): boolean {
  return word.length > 0 && !NOT_A_RELATIVE_PATH.test(word)
}

/** Where the shell is after one command; the same place for a command that does not move it. */
export function placeAfter(command: SimpleCommand, place: ShellPlace): ShellPlace {
  const { folder, previous, pushed } = place
  if (command.program === 'popd') {
    if (pushed.length === 0) return place
    return { folder: pushed[pushed.length - 1] as string, previous: folder, pushed: pushed.slice(0, -1) }
  }
  if (command.program !== 'cd' && command.program !== 'pushd') return place
  const operand = folderOperand(command.args)
  // `cd` alone goes home; `cd -` back to the folder before.
  const next = operand === undefined ? '~/' : operand === '-' ? previous : asFolder(joinFolder(folder, operand))
  return { folder: next, previous: folder, pushed: command.program === 'pushd' ? [...pushed, folder] : pushed }
}

/**
 * A walk through one line's commands, in the order a shell runs them, from the folder the line
 * started in: where each path a command names really is. `step` after each command moves it.
 */
export class FolderWalk {
  private place: ShellPlace
  // Every folder the line was in: its redirections are not kept in order with its commands.
  private readonly folders: Set<string>

  constructor(start: string) {
    this.place = { ...STARTING_PLACE, folder: start }
    this.folders = new Set([start])
  }

  /** The folder the walk is in now (`''`: where the run started). */
  get folder(): string {
    return this.place.folder
  }

  /** A path the current command names, inside the folder it ran in; undefined where that is where the run started, or the word is no relative path. */
  inFolder(path: string): string | undefined {
    return this.place.folder !== '' && isRelativePath(path) ? joinFolder(this.place.folder, path) : undefined
  }

  /** Moves past one command. */
  step(command: SimpleCommand): void {
    this.place = placeAfter(command, this.place)
    this.folders.add(this.place.folder)
  }

  /** A path the line names out of its commands' order (a redirection target), inside every folder the line was in. */
  inEveryFolder(path: string): string[] {
    if (!isRelativePath(path)) return []
    return [...this.folders].filter((folder) => folder !== '').map((folder) => joinFolder(folder, path))
  }
}

/** Where the shell is after every command of a line, in the order it runs them. */
export function placeAfterAll(commands: readonly SimpleCommand[], place: ShellPlace): ShellPlace {
  let at = place
  for (const command of commands) at = placeAfter(command, at)
  return at
}

/**
 * The shell tools, by the adapter that wrote the session, that run every call in one shell that
 * keeps its folder. Claude Code's `Bash` does; Codex, opencode, pi, Gemini CLI and Qwen Code
 * start each call where the run started (both checked on the real binaries in
 * `test/e2e/shell-folder.test.ts`). Codex's `write_stdin` types into a process `exec_command` left
 * running, one per session id, which is a shell that keeps its folder when it is one. In an ATIF
 * trajectory the tool is its agent's: Claude Code's `Bash`, Terminus's keystrokes into one tmux
 * shell (`bash_command`), OpenHands's persistent bash session (`execute_bash`, `terminal`) and
 * OpenClaw's `process` typing into the session an `exec` left running (one per session id);
 * mini-swe-agent's `bash` runs each command on its own. hermes' `process` types into a process a
 * background `terminal` call left running, and dsh's `terminal_send` into a `terminal_open` shell,
 * one per session id.
 */
const KEPT_FOLDER_TOOLS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['claude', new Set(['Bash'])],
  ['codex', new Set(['write_stdin'])],
  ['atif', new Set(['Bash', 'bash_command', 'execute_bash', 'terminal', 'process'])],
  ['hermes', new Set(['process'])],
  ['dsh', new Set(['terminal_send'])],
])

// The argument that names the running process a tool types into (OpenClaw's `process` and dsh's `terminal_send` spell it `sessionId`, hermes' `session_id`).
const SESSION_KEYS: Readonly<Record<string, readonly string[]>> = { write_stdin: ['session_id'], process: ['sessionId', 'session_id'], terminal_send: ['sessionId'] }

/** The tools whose calls in a session `adapter` wrote share one shell that keeps its folder; undefined for none. */
export function keptFolderTools(adapter: string | null): ReadonlySet<string> | undefined {
  return adapter === null ? undefined : KEPT_FOLDER_TOOLS.get(adapter)
}

/** Which of a tool's kept shells a call ran in: Codex's `write_stdin` and OpenClaw's and hermes' `process` name their process's session; every other tool has one. */
export function keptShellName(tool: string, input: Readonly<Record<string, unknown>>): string {
  const keys = SESSION_KEYS[tool]
  if (keys === undefined) return tool
  const session = keys.map((key) => input[key]).find((value) => value !== undefined)
  return typeof session === 'number' || typeof session === 'string' ? `${tool} ${session}` : tool
}
