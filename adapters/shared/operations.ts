import { asArray, asString, isObject } from './fields.js'
import { filesInPatch } from './patch-files.js'
import { POWERSHELL_TOOLS, posixReadable } from './powershell.js'
import { filesNamedBy, readShellLine } from './shell.js'

/** The neutral operations a trace spec names, so one spec judges every harness alike. */
export const OPERATIONS = [
  'file.read',
  'file.write',
  'file.edit',
  'dir.list',
  'search',
  'shell',
  'web.read',
  'mcp.call',
  'skill.load',
  'subagent.spawn',
  'task.todo',
] as const

export type Operation = (typeof OPERATIONS)[number]

/** One harness's tool vocabulary: which tool performs which operation, and where its arguments say what it touches. */
export interface ToolOperationTable {
  /** Tool name → operation, as the harness names its tools in its own record. */
  readonly tools: Readonly<Record<string, Operation>>
  /** Name prefixes for families of tools (`mcp__` → `mcp.call`). */
  readonly prefixes?: readonly (readonly [string, Operation])[]
  /**
   * Tools the harness has that perform none of the neutral operations (asking the user, leaving
   * plan mode…), each with the reason: classified, with no operation — unlike a tool nobody knows.
   */
  readonly inert?: Readonly<Record<string, string>>
  /**
   * Tools that only invoke another tool named in their arguments (Qwen Code's `tool_call`, through
   * which the model calls its deferred tools): where the name and input keys hold them, the call is
   * read as the tool it invoked, by name and input, since that is what ran.
   */
  readonly dispatchers?: Readonly<Record<string, { readonly nameKey: string; readonly inputKey: string }>>
  /**
   * Calls the harness runs as another tool, whatever their name says (Codex applies an
   * `exec_command` that is only an `apply_patch` here-document itself, in no shell): the tool and
   * input that ran, read in the call's place, or undefined for a call that ran as named.
   */
  readonly intercept?: (name: string, input: unknown) => { name: string; input: unknown } | undefined
  /**
   * Tools whose argument says what a call does (OpenHands' `str_replace_editor {command: "view"}`
   * reads, `create` writes, `str_replace` edits): the operation by that argument's value, in the
   * place of the tool's own, where the value is one of these.
   */
  readonly operationByArgument?: Readonly<Record<string, ArgumentOperations>>
  /** Argument keys that hold a file or directory path, in preference order. */
  readonly pathKeys: readonly string[]
  /**
   * Argument keys that hold a list of paths or path globs (Gemini CLI's `read_many_files
   * {include}`, `paths` in older releases): each entry that is a path, not a glob, is a subject.
   */
  readonly pathListKeys?: readonly string[]
  /** Argument keys that hold a shell line (a string) or an argv (a list of strings). */
  readonly commandKeys: readonly string[]
}

/** Which argument of a tool says what a call does, and the operation of each of its values. */
export interface ArgumentOperations {
  readonly key: string
  readonly operations: Readonly<Record<string, Operation>>
}

/** The file editor Anthropic's models are trained on, as OpenHands (`str_replace_editor`, `file_editor`) and others offer it: `view` reads, `create` writes, the rest edit. */
export const EDITOR_COMMANDS: ArgumentOperations = {
  key: 'command',
  operations: { view: 'file.read', create: 'file.write', str_replace: 'file.edit', insert: 'file.edit', undo_edit: 'file.edit' },
}

/** What a call does and to what: `operations` and `file:`/`proc:` `subjects`, both possibly empty. */
export interface CallClassification {
  operations: Operation[]
  subjects: string[]
  /** Whether the table knows the tool (an operation, or listed as inert). */
  known: boolean
}

// A path list's entry with one of these is a glob: which files it names is the tool's to find.
const PATH_GLOB = /[*?[\]{}]/


/** The tool a call ran and its input: what the harness intercepted it as, a dispatcher's named tool and arguments (a JSON text decoded), or the call as it is. */
export function dispatchedCall(table: ToolOperationTable, name: string, input: unknown): { name: string; input: unknown } {
  const intercepted = table.intercept?.(name, input)
  if (intercepted) return intercepted
  const dispatcher = Object.hasOwn(table.dispatchers ?? {}, name) ? table.dispatchers?.[name] : undefined
  if (!dispatcher || !isObject(input)) return { name, input }
  const inner = asString(input[dispatcher.nameKey])
  if (inner === undefined || inner === '') return { name, input }
  const raw = input[dispatcher.inputKey]
  if (typeof raw !== 'string') return { name: inner, input: raw ?? {} }
  try {
    return { name: inner, input: JSON.parse(raw) as unknown }
  } catch {
    return { name: inner, input: raw }
  }
}

function operationOf(table: ToolOperationTable, name: string, input: unknown): Operation | undefined {
  // Own keys only: a tool named `constructor` is not the table's prototype.
  const byArgument = Object.hasOwn(table.operationByArgument ?? {}, name) ? table.operationByArgument?.[name] : undefined
  const value = byArgument !== undefined && isObject(input) ? asString(input[byArgument.key]) : undefined
  if (byArgument !== undefined && value !== undefined && Object.hasOwn(byArgument.operations, value)) return byArgument.operations[value]
  const direct = Object.hasOwn(table.tools, name) ? table.tools[name] : undefined
  if (direct) return direct
  for (const [prefix, operation] of table.prefixes ?? []) if (name.startsWith(prefix)) return operation
  return undefined
}

function shellLineOf(input: Record<string, unknown>, keys: readonly string[]): string | string[] | undefined {
  for (const key of keys) {
    const value = input[key]
    if (typeof value === 'string') return value
    const list = asArray(value)
    if (list && list.every((item) => typeof item === 'string')) return list as string[]
  }
  return undefined
}

function pushUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value)
}

/**
 * Classifies one call: the operation its tool performs, and the subjects its arguments name —
 * `file:<path as written>` for a path argument, `proc:<program>` for each program a shell line
 * starts, plus `file:` subjects for the files a redirection names and the file operands of a program
 * whose operands are files (`cat`, `cp`, `rm`, `tee`… see `filesNamedBy`).
 */
export function classifyCall(table: ToolOperationTable, name: string, input: unknown): CallClassification {
  const operation = operationOf(table, name, input)
  const operations: Operation[] = operation ? [operation] : []
  const subjects: string[] = []
  const known = operation !== undefined || Object.hasOwn(table.inert ?? {}, name)
  if (!isObject(input)) return { operations, subjects, known }
  if (operation !== 'shell' && operation !== 'web.read' && operation !== 'mcp.call') {
    for (const key of table.pathKeys) {
      const path = asString(input[key])
      if (path !== undefined && path.length > 0) {
        pushUnique(subjects, `file:${path}`)
        break
      }
    }
    for (const key of table.pathListKeys ?? []) {
      for (const entry of asArray(input[key]) ?? []) if (typeof entry === 'string' && entry.length > 0 && !PATH_GLOB.test(entry)) pushUnique(subjects, `file:${entry}`)
    }
  }
  if (operation === 'file.edit' || operation === 'file.write') {
    // Codex's `apply_patch` carries its body as `input` (or `patch`), opencode's as `patchText`.
    const patch = asString(input['patch']) ?? asString(input['input']) ?? asString(input['patchText'])
    if (patch !== undefined) for (const file of filesInPatch(patch)) pushUnique(subjects, `file:${file}`)
  }
  if (operation === 'shell') {
    const written = shellLineOf(input, table.commandKeys)
    // A PowerShell line's `\` are separators, which the POSIX reader would take for escapes.
    const line = written !== undefined && POWERSHELL_TOOLS.has(name) ? posixReadable(written) : written
    if (line !== undefined) {
      const reading = readShellLine(line)
      for (const command of reading.commands) {
        pushUnique(subjects, `proc:${command.program}`)
        for (const file of filesNamedBy(command)) pushUnique(subjects, `file:${file}`)
      }
      for (const file of reading.files) pushUnique(subjects, `file:${file}`)
    }
  }
  return { operations, subjects, known }
}
