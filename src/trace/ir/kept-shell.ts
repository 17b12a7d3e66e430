import { mayMoveFolder, readShellLine } from '../../../adapters/shared/shell.js'
import { keptFolderTools, keptShellName, placeAfterAll, STARTING_PLACE, type ShellPlace } from '../../../adapters/shared/shell-folder.js'
import { shellLine } from './call.js'
import type { ToolCall } from './types.js'

/**
 * The shells of one stream that keep their folder from call to call (Claude Code's `Bash`: `cd
 * .engineering` in one call, and the next call's `rm notes.md` removes `.engineering/notes.md`).
 * Each call of such a tool (`keptFolderTools`, by the adapter that wrote its session) is given the
 * folder its shell (`keptShellName`) was in when it started, and its `cd`s move the shell for the
 * calls after. One shell per tool for the whole stream, sessions and subagents alike: a folder
 * carried where it was not only adds words a check cannot rule out, never removes one. Memory is
 * one place per shell.
 */
export class KeptShells {
  private readonly places = new Map<string, ShellPlace>()
  // The last adapter asked about, and its tools: a stream names one adapter for all its calls.
  private adapter: string | null = null
  private tools: ReadonlySet<string> | undefined = undefined

  /** Gives `call` the folder its kept shell was in, if its tool keeps one in a session `adapter` wrote. */
  place(call: ToolCall, adapter: string | null): void {
    if (adapter !== this.adapter) {
      this.adapter = adapter
      this.tools = keptFolderTools(adapter)
    }
    if (this.tools === undefined || !this.tools.has(call.name) || !call.operations.includes('shell')) return
    const name = keptShellName(call.name, call.input)
    const place = this.places.get(name) ?? STARTING_PLACE
    call.shellStart = place.folder
    const line = shellLine(call)
    // A line that names no folder change leaves the shell where it was, unread.
    if (line === undefined || !mayMoveFolder(line)) return
    this.places.set(name, placeAfterAll(readShellLine(line).commands, place))
  }
}
