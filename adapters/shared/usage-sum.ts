import type { Emission } from '../../src/events/types.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']
type Summed = 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens' | 'thinking_tokens'

function plus(total: number | null, value: number | null | undefined): number | null {
  return total === null || value === null || value === undefined ? null : total + value
}

/**
 * A run's token totals from its per-request usage, for a record whose terminal states none: each
 * figure is the sum over every request, or null once one request did not give it (a sum without
 * it would be a lower bound passed off as the total).
 */
export class UsageSum {
  private readonly totals: Record<Summed, number | null> = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, thinking_tokens: 0 }
  private requests = 0

  add(usage: Usage): void {
    this.requests += 1
    // Field by field, not over a key list: this runs once per answer of a long session.
    const t = this.totals
    t.input_tokens = plus(t.input_tokens, usage.input_tokens)
    t.output_tokens = plus(t.output_tokens, usage.output_tokens)
    t.cache_read_input_tokens = plus(t.cache_read_input_tokens, usage.cache_read_input_tokens)
    t.cache_creation_input_tokens = plus(t.cache_creation_input_tokens, usage.cache_creation_input_tokens)
    t.thinking_tokens = plus(t.thinking_tokens, usage.thinking_tokens)
  }

  /** The run's usage, or null when no request was seen. */
  usage(): Usage | null {
    if (this.requests === 0) return null
    const t = this.totals
    return {
      input_tokens: t.input_tokens,
      output_tokens: t.output_tokens,
      cache_read_input_tokens: t.cache_read_input_tokens,
      cache_creation_input_tokens: t.cache_creation_input_tokens,
      service_tier: null,
      thinking_tokens: t.thinking_tokens,
      iterations: null,
      speed: null,
      cost_usd: null,
    }
  }
}
