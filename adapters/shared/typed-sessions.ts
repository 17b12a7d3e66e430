import type { Emission } from '../../src/events/types.js'
import { asString, isObject, type JsonObject } from './fields.js'
import { interactiveProgram } from './interactive.js'
import { classifyCall, type ToolOperationTable } from './operations.js'

/**
 * How one harness leaves a process running and types into it: Codex's `exec_command` and
 * `write_stdin`, OpenClaw's `exec` and `process`, hermes' `terminal` and `process`, dsh's
 * `terminal_open` and `terminal_send`.
 */
export interface TypingDialect {
  /** Whether a call may leave running a process that reads its terminal as a shell (`bash`, `zsh -i`), for a later call to type into. */
  startsShell(name: string, input: JsonObject): boolean
  /** The session a call's output says its process was left running under; undefined when it ended. */
  runningSession(output: unknown): string | undefined
  /** The tool that types into a running process. */
  readonly types: string
  /** The session a typing call names, and the text it typed (undefined for an action that types nothing: a poll, a kill). */
  sessionOf(input: JsonObject): string | undefined
  typedText(input: JsonObject): string | undefined
  /** The shell tool, and its argument, a typed line is read as: it names programs and files as that tool's line does. */
  readonly lineTool: string
  readonly lineKey: string
}

/** A dialect's `startsShell` where the starting call is a shell tool's line: one that only starts a shell (`interactiveProgram`). */
export function startsByLine(tool: string, key: string): TypingDialect['startsShell'] {
  return (name, input) => {
    const line = name === tool ? asString(input[key]) : undefined
    return line !== undefined && interactiveProgram(line) === 'shell'
  }
}

/**
 * The processes a transcript's calls left running, by the session their output names, so a call
 * that types into one can be read for what it sent: into an interactive shell (`bash`, `zsh -i`…)
 * its text is command lines, and names programs and files as the shell tool's line does; into
 * anything else (a REPL, a prompt) it is that program's input.
 */
export class TypedSessions {
  // The calls that may have left a shell running, until their output says whether they did.
  private readonly starting = new Set<string>()
  private readonly shells = new Set<string>()

  constructor(
    private readonly table: ToolOperationTable,
    private readonly dialect: TypingDialect,
  ) {}

  /**
   * A call is made, its events classified: one that may leave a shell running is kept until its
   * output says whether it did, and one that typed into a shell gets what it typed as subjects.
   */
  called(callId: string, name: string, input: unknown, events: Emission[]): Emission[] {
    if (!isObject(input)) return events
    if (this.dialect.startsShell(name, input)) this.starting.add(callId)
    const typed = this.subjectsOf(name, input)
    const requested = events.at(-1)
    if (typed.length === 0 || requested?.event !== 'tool.requested') return events
    const subjects = requested.subjects ?? []
    for (const subject of typed) if (!subjects.includes(subject)) subjects.push(subject)
    requested.subjects = subjects
    return events
  }

  /** A call's output: the session a shell was left running under is one whose typed text is shell lines. */
  answered(callId: string, output: unknown): void {
    if (!this.starting.delete(callId)) return
    const session = this.dialect.runningSession(output)
    if (session !== undefined) this.shells.add(session)
  }

  /** The subjects a typing call's text names, when it went to an interactive shell; none otherwise. */
  private subjectsOf(name: string, input: JsonObject): string[] {
    if (name !== this.dialect.types) return []
    const session = this.dialect.sessionOf(input)
    const text = this.dialect.typedText(input)
    if (session === undefined || text === undefined || !this.shells.has(session)) return []
    return classifyCall(this.table, this.dialect.lineTool, { [this.dialect.lineKey]: text }).subjects
  }
}
