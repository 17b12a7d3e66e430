import type { Emission } from '../../src/events/types.js'
import { asString, isObject, type JsonObject } from '../shared/fields.js'

/**
 * A Codex subagent spawned with `fork_context` starts its own rollout with a copy of its parent's:
 * its `session_meta` (naming the parent in `forked_from_id`), then every record the parent had
 * written, each as the parent wrote it, then a `function_call_output` for the spawn call carrying
 * this text, and only then its own task and work. The calls, answers and usage before that output
 * are the parent's. (Codex's `FORKED_SPAWN_AGENT_OUTPUT_MESSAGE`, codex-rs/core agent control.)
 */
export const FORKED_SPAWN_OUTPUT =
  'You are the newly spawned agent. The prior conversation history was forked from your parent agent. Treat the next user message as your new task, and use the forked history only as background context.'

/** Whether a `response_item` payload is the output that ends a forked subagent's copy of its parent's history. */
export function endsForkedHistory(payload: JsonObject): boolean {
  const type = asString(payload['type'])
  if (type !== 'function_call_output' && type !== 'custom_tool_call_output') return false
  const output = payload['output']
  const text = typeof output === 'string' ? output : isObject(output) ? asString(output['content']) : undefined
  return text === FORKED_SPAWN_OUTPUT
}

// A forked rollout is held until its end, so its copies can be told from its own records; past
// this many events it is read as it stands (copies and all), so memory stays bounded.
const HOLD_LIMIT = 50_000

/**
 * What a forked rollout's reader holds back: its events since the last end of a copied history
 * (a subagent forked from a forked subagent copies both ends: the last one is its own), and the
 * model the first `turn_context` after it names. Events before an end are dropped, counted.
 */
export class ForkedHistory {
  private held: Emission[] = []
  private firstModel: string | null | undefined = undefined
  /** How many events of copied history were dropped. */
  dropped = 0

  /** Holds `events`; false once more are held than the limit allows. */
  hold(events: readonly Emission[]): boolean {
    for (const event of events) this.held.push(event)
    return this.held.length <= HOLD_LIMIT
  }

  /** A `turn_context` named `model`: the first one since the last copied history ended is the run's. */
  sawModel(model: string | null): void {
    if (this.firstModel === undefined) this.firstModel = model
  }

  /** Everything held so far was the parent's history. */
  copiedHistoryEnded(): void {
    this.dropped += this.held.length
    this.held = []
    this.firstModel = undefined
  }

  /** The held events (the run's own, where a copied history ended), and the model its first turn named. */
  take(): { events: Emission[]; model: string | null } {
    const events = this.held
    this.held = []
    return { events, model: this.firstModel ?? null }
  }
}
