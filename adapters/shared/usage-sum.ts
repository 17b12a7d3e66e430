import type { Emission } from '../../src/events/types.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']
const SUMMED = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'thinking_tokens'] as const
type Summed = (typeof SUMMED)[number]

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
    for (const field of SUMMED) {
      const value = usage[field]
      const total = this.totals[field]
      this.totals[field] = total === null || value === null || value === undefined ? null : total + value
    }
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
