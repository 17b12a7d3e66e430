import { readShellLine } from '../../../adapters/shared/shell.js'
import { keptFolderTools, keptShellName, placeAfterAll, STARTING_PLACE, type ShellPlace } from '../../../adapters/shared/shell-folder.js'
import { shellLine } from './call.js'
import type { ToolCall } from './types.js'

/**
 * One shell that keeps its folder from call to call (Claude Code's `Bash`: `cd .engineering` in
 * one call, and the next call's `rm notes.md` removes `.engineering/notes.md`). It holds its
 * calls in order and works out the folder each ran in only when a check asks, from the `cd`s of
 * the calls before it.
 */
export class KeptShell {
  private readonly calls: ToolCall[] = []
  // places[i]: where the shell was when call i started; grown on asking.
  private readonly places: ShellPlace[] = [STARTING_PLACE]

  /** Adds the next call; returns its place in the shell. */
  add(call: ToolCall): number {
    this.calls.push(call)
    return this.calls.length - 1
  }

  /** The folder the `index`th call ran in: `''` where the shell started, else `x/`. */
  folderOf(index: number): string {
    for (let i = this.places.length - 1; i < index; i++) {
      const line = shellLine(this.calls[i] as ToolCall)
      const place = this.places[i] as ShellPlace
      this.places.push(line === undefined ? place : placeAfterAll(readShellLine(line).commands, place))
    }
    return (this.places[index] as ShellPlace).folder
  }
}

/** Where one call ran in a kept shell. */
export interface KeptShellCall {
  readonly shell: KeptShell
  readonly index: number
}

/**
 * The shell calls of one stream that share a shell keeping its folder: each call of such a tool
 * (`keptFolderTools`, by the adapter that wrote its session) is put in its shell (`keptShellName`).
 * One shell for the whole stream, sessions and subagents alike: a folder carried where it was not
 * only adds words a check cannot rule out, never removes one.
 */
export class KeptShells {
  private readonly shells = new Map<string, KeptShell>()
  // The last adapter asked about, and its tools: a stream names one adapter for all its calls.
  private adapter: string | null = null
  private tools: ReadonlySet<string> | undefined = undefined

  /** Puts `call` in its kept shell if its tool keeps one in a session `adapter` wrote. */
  place(call: ToolCall, adapter: string | null): void {
    if (adapter !== this.adapter) {
      this.adapter = adapter
      this.tools = keptFolderTools(adapter)
    }
    if (this.tools === undefined || !this.tools.has(call.name) || !call.operations.includes('shell')) return
    const name = keptShellName(call.name, call.input)
    let shell = this.shells.get(name)
    if (shell === undefined) this.shells.set(name, (shell = new KeptShell()))
    call.keptShell = { shell, index: shell.add(call) }
  }
}
