import { asString, asU64, isObject } from '../shared/fields.js'
import { interactiveProgram } from '../shared/interactive.js'
import { classifyCall, type ToolOperationTable } from '../shared/operations.js'
import { textContent } from '../shared/session.js'

// What 0.169's `exec_command` answers when it yields before the process ends.
const RUNNING = /Process running with session ID (\d+)/

/**
 * The processes a Codex rollout's `exec_command` calls left running, by the session id their
 * output names, so a `write_stdin` call can be read for what it sent: to an interactive shell
 * (`bash`, `zsh -i`…) its characters are command lines, and name programs and files as a shell
 * call's line does. To anything else (a REPL, a prompt) they are that program's input.
 */
export class TerminalSessions {
  private readonly commands = new Map<string, string>()
  private readonly shells = new Set<number>()

  constructor(private readonly table: ToolOperationTable) {}

  /** A call is made: an `exec_command`'s line is kept until its output says whether it is still running. */
  called(callId: string, name: string, input: unknown): void {
    if (name !== 'exec_command' || !isObject(input)) return
    const cmd = asString(input['cmd'])
    if (cmd !== undefined) this.commands.set(callId, cmd)
  }

  /** A call's output: a process left running under a session id is a shell's when its line is only a shell. */
  answered(callId: string, output: unknown): void {
    const cmd = this.commands.get(callId)
    if (cmd === undefined) return
    this.commands.delete(callId)
    const text = typeof output === 'string' ? output : textContent(output)
    // Most outputs are of a process that ended: a plain search rules them out before the pattern.
    const running = text === undefined || !text.includes('Process running') ? null : RUNNING.exec(text)
    if (running && interactiveProgram(cmd) === 'shell') this.shells.add(Number(running[1]))
  }

  /** The subjects a `write_stdin` call's characters name, when they went to an interactive shell; none otherwise. */
  subjectsOf(name: string, input: unknown): string[] {
    if (name !== 'write_stdin' || !isObject(input)) return []
    const session = asU64(input['session_id'])
    const chars = asString(input['chars'])
    if (session === undefined || chars === undefined || !this.shells.has(session)) return []
    return classifyCall(this.table, 'exec_command', { cmd: chars }).subjects
  }
}
