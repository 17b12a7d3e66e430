import { compareCodePoints } from '../../events/json.js'
import type { IrEvent } from '../ir/types.js'
import type { CallSelector } from '../spec/model.js'
import { fileOperationsOf, selectorMightHandOver, selectorMightMatch, selectorMightName, selectorMightOperate, selectorMightOperateUnnamed, selectorMightPlace, selectorMightRun, selectorMightSearch, selectorMightTouch, selectsFilesBySubject, type FileOperations } from '../spec/selector.js'
import type { UnknownReason } from './outcome.js'

const NONE: readonly string[] = []

/** The calls of one kind a selector could not rule out: each one's event index and what it names (a tool, programs). */
class Missed {
  readonly events: number[] = []
  private readonly names: (readonly string[])[] = []

  add(index: number, names: readonly string[]): void {
    this.events.push(index)
    this.names.push(names)
  }

  /** The events before `index`, and the sorted names they carry. */
  before(index: number): { events: number[]; names: string[] } {
    const events: number[] = []
    const names = new Set<string>()
    this.events.forEach((event, position) => {
      if (event >= index) return
      events.push(event)
      for (const name of this.names[position] as readonly string[]) names.add(name)
    })
    return { events, names: [...names].sort(compareCodePoints) }
  }
}

/**
 * The calls one selector could not see: unclassified calls that would have been in scope had
 * their tool been classified, shell calls whose line named its program only through an
 * expansion (`$TOOL x`) that a selector by subject would have matched had it named one, and calls
 * that named a word the selector would match as a file where no reader can tell which files they
 * touched (`git rm .engineering/notes.md`, `rm -rf .engineering`), and shell calls that read or
 * wrote a file a selector by a file operation would match (`cat > src/a.ts`, `cat .env`), and calls
 * of a file operation that named no file at all (`skill_manage {name}`). While
 * there are any, a count is only a lower bound and an absence is undecided. Memory is one index
 * per such call.
 */
export class UnseenCalls {
  private readonly unclassified = new Missed()
  private readonly unnamed = new Missed()
  private readonly untold = new Missed()
  private readonly shellFiles = new Missed()
  private readonly mcpCommands = new Missed()
  private readonly unplaced = new Missed()
  private readonly fileless = new Missed()
  private readonly fileOperations: FileOperations | null
  // Whether the selector names files by subject: only then can a word or an absolute path be unseen.
  private readonly byFileSubject: boolean

  constructor(private readonly selector: CallSelector) {
    this.fileOperations = fileOperationsOf(selector)
    this.byFileSubject = selectsFilesBySubject(selector)
  }

  /** Notes a call the selector did not match. */
  missed(event: Extract<IrEvent, { family: 'tool_call' }>): void {
    const call = event.call
    if (selectorMightMatch(this.selector, call)) this.unclassified.add(event.index, [call.name])
    else if (selectorMightName(this.selector, call)) this.unnamed.add(event.index, call.unnamedPrograms)
    else {
      // An absolute subject in a session that named no folder: the most exact reason, before the words.
      const paths = this.byFileSubject ? selectorMightPlace(this.selector, call) : NONE
      if (paths.length > 0) {
        this.unplaced.add(event.index, paths)
        return
      }
      const words = this.byFileSubject ? selectorMightTouch(this.selector, call) : NONE
      if (words.length > 0) {
        this.untold.add(event.index, words)
        return
      }
      const files = this.fileOperations === null ? NONE : selectorMightOperate(this.selector, this.fileOperations, call)
      if (files.length > 0) {
        this.shellFiles.add(event.index, files)
        return
      }
      const handed = this.fileOperations === null ? NONE : selectorMightHandOver(this.selector, this.fileOperations, call)
      if (handed.length > 0) {
        this.untold.add(event.index, handed)
        return
      }
      const searched = this.fileOperations === null ? NONE : selectorMightSearch(this.selector, this.fileOperations, call)
      if (searched.length > 0) {
        this.untold.add(event.index, searched)
        return
      }
      const programs = selectorMightRun(this.selector, call)
      if (programs.length > 0) {
        this.mcpCommands.add(event.index, programs)
        return
      }
      if (this.byFileSubject && selectorMightOperateUnnamed(this.selector, call)) this.fileless.add(event.index, [call.name])
    }
  }

  /**
   * Notes a call that may have done what the row counts, named by words only the row's kind can
   * read (a line that may have printed a skill's `SKILL.md`): `operands_unread`, as for `missed`.
   */
  mayHave(index: number, words: readonly string[]): void {
    this.untold.add(index, words)
  }

  get any(): boolean {
    return this.unclassified.events.length > 0 || this.unnamed.events.length > 0 || this.untold.events.length > 0 || this.shellFiles.events.length > 0 || this.mcpCommands.events.length > 0 || this.unplaced.events.length > 0 || this.fileless.events.length > 0
  }

  reason(): UnknownReason {
    return this.reasonBefore(Infinity) as UnknownReason
  }

  /** The reason naming only the unseen calls before event `index`, or null when there are none (unclassified tools first). */
  reasonBefore(index: number): UnknownReason | null {
    const unclassified = this.unclassified.before(index)
    if (unclassified.events.length > 0) return { reason: 'unclassified_calls', events: unclassified.events, tools: unclassified.names }
    const unnamed = this.unnamed.before(index)
    if (unnamed.events.length > 0) return { reason: 'programs_unnamed', events: unnamed.events, programs: unnamed.names }
    const untold = this.untold.before(index)
    if (untold.events.length > 0) return { reason: 'operands_unread', events: untold.events, words: untold.names }
    const shellFiles = this.shellFiles.before(index)
    if (shellFiles.events.length > 0) return { reason: 'shell_files', events: shellFiles.events, files: shellFiles.names }
    const mcpCommands = this.mcpCommands.before(index)
    if (mcpCommands.events.length > 0) return { reason: 'mcp_commands', events: mcpCommands.events, programs: mcpCommands.names }
    const unplaced = this.unplaced.before(index)
    if (unplaced.events.length > 0) return { reason: 'session_folder_unknown', events: unplaced.events, paths: unplaced.names }
    const fileless = this.fileless.before(index)
    if (fileless.events.length > 0) return { reason: 'files_unnamed', events: fileless.events, tools: fileless.names }
    return null
  }
}
