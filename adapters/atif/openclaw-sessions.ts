import { asString, isObject } from '../shared/fields.js'
import { interactiveProgram } from '../shared/interactive.js'
import { classifyCall, type ToolOperationTable } from '../shared/operations.js'
import { textContent } from '../shared/session.js'

// What OpenClaw's `exec` answers when it leaves the command running in the background.
const RUNNING = /Command still running \(session ([^,\s)]+)/

/**
 * What OpenClaw's `process` actions type into a running session (`write`'s `data`, `paste`'s
 * `text`, `send-keys`' `literal`), by action. `submit` sends Enter; `send-keys`' key names and hex
 * bytes are keys, not words.
 */
const TYPED: Readonly<Record<string, string>> = { write: 'data', paste: 'text', 'send-keys': 'literal' }

/** The text a `process` call typed into its session, or undefined for an action that types nothing (poll, log, kill…). */
export function typedText(input: unknown): string | undefined {
  if (!isObject(input)) return undefined
  const key = TYPED[asString(input['action']) ?? '']
  return key === undefined ? undefined : asString(input[key])
}

/**
 * The sessions an OpenClaw trajectory's `exec` calls left running, by the session id their
 * output names, so a `process` call can be read for what it typed: into an interactive shell
 * (`bash`, `zsh -i`…) its text is command lines, and names programs and files as an `exec` line
 * does; into anything else (a REPL, a prompt) it is that program's input. Codex's `write_stdin`
 * is read the same way (`TerminalSessions`).
 */
export class OpenClawSessions {
  private readonly commands = new Map<string, string>()
  private readonly shells = new Set<string>()

  constructor(private readonly table: ToolOperationTable) {}

  /** A call is made: an `exec`'s line is kept until its output says whether it is still running. */
  called(callId: string, name: string, input: unknown): void {
    if (name !== 'exec' || !isObject(input)) return
    const command = asString(input['command'])
    if (command !== undefined) this.commands.set(callId, command)
  }

  /** A call's output: a session left running is a shell's when its line is only a shell. */
  answered(callId: string, output: unknown): void {
    const command = this.commands.get(callId)
    if (command === undefined) return
    this.commands.delete(callId)
    const running = RUNNING.exec(textContent(output) ?? '')
    if (running && interactiveProgram(command) === 'shell') this.shells.add(running[1] as string)
  }

  /** The subjects a `process` call's text names, when it went to an interactive shell; none otherwise. */
  subjectsOf(name: string, input: unknown): string[] {
    if (name !== 'process' || !isObject(input)) return []
    const session = asString(input['sessionId'])
    const text = typedText(input)
    if (session === undefined || text === undefined || !this.shells.has(session)) return []
    return classifyCall(this.table, 'exec', { command: text }).subjects
  }
}
