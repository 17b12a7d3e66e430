import type { Emission } from '../../src/events/types.js'
import { sessionEnded } from '../shared/session.js'
import { UsageSum } from '../shared/usage-sum.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']
type SessionEnded = ReturnType<typeof sessionEnded>

/**
 * What `pi --mode json` stdout says of a run, kept from its assistant messages until the
 * `agent_end` that closes the run: the stream has no result record, but every answer carries its
 * usage and cost, so the run's are their sums, with the model work besides them (`otherWork`).
 * Each answer is one model turn.
 */
export class PiRunOutcome {
  private turns = 0
  private readonly tokens = new UsageSum()
  private cost: number | null = 0
  private answer: string | null = null
  private stop: string | null = null

  /** One assistant message: its text, its usage (null where it wrote none), how it stopped. */
  answered(text: string | null, usage: Usage | null, stop: string | null): void {
    this.turns += 1
    this.answer = text
    this.stop = stop
    if (usage === null) {
      this.tokens.add({ input_tokens: null, output_tokens: null, cache_read_input_tokens: null, cache_creation_input_tokens: null, thinking_tokens: null })
      this.cost = null
      return
    }
    this.spent(usage)
  }

  /**
   * Model work besides the answers (pi 1.x): a tool's, recorded on its result (a codemode script's
   * classifier or image model), or pi's own (a `usage` entry: cache warming). The run's tokens and
   * cost, as pi's own session totals count it, but no model turn.
   */
  otherWork(usage: Usage): void {
    this.spent(usage)
  }

  private spent(usage: Usage): void {
    this.tokens.add(usage)
    // Work pi could not price leaves the run's cost unknown, never the others' sum.
    this.cost = this.cost === null || usage.cost_usd === null || usage.cost_usd === undefined ? null : this.cost + usage.cost_usd
  }

  /** The run's terminal record. */
  ended(): SessionEnded {
    const failed = this.stop === 'error' || this.stop === 'aborted'
    return sessionEnded({
      final_answer: this.answer,
      is_error: this.stop === null ? null : failed,
      stop_reason: this.stop,
      terminal_reason: this.stop,
      num_turns: this.turns,
      total_cost_usd: this.turns === 0 ? null : this.cost,
      usage: this.tokens.usage(),
    })
  }
}
