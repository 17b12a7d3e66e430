import type { Usage } from '../../src/events/types.js'

/** Gemini's token figures: `input` counts the cached tokens too, as `promptTokenCount` does. */
export interface GeminiTokens {
  readonly input: number | undefined
  readonly output: number | undefined
  readonly cached: number | undefined
  readonly thoughts: number | null | undefined
}

/** The normalised usage: input without the cached part (as every other reader reports it), cached as cache reads. */
export function geminiUsage(tokens: GeminiTokens): Usage {
  const input = tokens.input === undefined ? null : tokens.cached === undefined ? tokens.input : Math.max(0, tokens.input - tokens.cached)
  return {
    input_tokens: input,
    output_tokens: tokens.output ?? null,
    cache_read_input_tokens: tokens.cached ?? null,
    cache_creation_input_tokens: null,
    service_tier: null,
    thinking_tokens: tokens.thoughts ?? null,
    iterations: null,
    speed: null,
    cost_usd: null,
  }
}
