import { compareCodePoints } from '../../events/json.js'
import type { IrEvent } from '../ir/types.js'
import type { CallSelector } from '../spec/model.js'
import { selectorMightMatch } from '../spec/selector.js'
import type { UnknownReason } from './outcome.js'

/**
 * The calls one selector could not see: unclassified calls that would have been in scope had
 * their tool been classified. While there are any, a count by operation is only a lower bound and
 * an absence is undecided. Memory is one index per such call.
 */
export class UnseenCalls {
  private readonly events: number[] = []
  private readonly tools = new Set<string>()
  private readonly names: string[] = []

  constructor(private readonly selector: CallSelector) {}

  /** Notes a call the selector did not match. */
  missed(event: Extract<IrEvent, { family: 'tool_call' }>): void {
    if (!selectorMightMatch(this.selector, event.call)) return
    this.events.push(event.index)
    this.names.push(event.call.name)
    this.tools.add(event.call.name)
  }

  get any(): boolean {
    return this.events.length > 0
  }

  reason(): UnknownReason {
    return { reason: 'unclassified_calls', events: [...this.events], tools: [...this.tools].sort(compareCodePoints) }
  }

  /** The reason naming only the unseen calls before event `index`, or null when there are none. */
  reasonBefore(index: number): UnknownReason | null {
    const events = this.events.filter((event) => event < index)
    if (events.length === 0) return null
    const tools = new Set<string>()
    this.events.forEach((event, position) => {
      if (event < index) tools.add(this.names[position] as string)
    })
    return { reason: 'unclassified_calls', events, tools: [...tools].sort(compareCodePoints) }
  }
}
