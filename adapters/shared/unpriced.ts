import type { Emission } from '../../src/events/types.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/**
 * A cost as the harness priced it, or null where it could not: opencode and pi price a request
 * from their model's price table and write 0 for a model they have none for (a custom provider's),
 * so a zero beside tokens that moved is no price at all.
 */
export function pricedCost(cost: number | null, usage: Usage): number | null {
  if (cost !== 0) return cost
  const moved = [usage.input_tokens, usage.output_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens, usage.thinking_tokens].some((count) => (count ?? 0) > 0)
  return moved ? null : 0
}
