import type { Emission } from '../../src/events/types.js'
import { asObject, asU64 } from '../shared/fields.js'

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/** OpenAI-style token figures, as Codex reports them (input includes the cached part). */
export interface CodexTokens {
  input: number | null
  cached: number | null
  cacheWrite: number | null
  output: number | null
  reasoning: number | null
}

export function codexTokens(value: unknown): CodexTokens | undefined {
  const object = asObject(value)
  if (!object) return undefined
  return {
    input: asU64(object['input_tokens']) ?? null,
    cached: asU64(object['cached_input_tokens']) ?? null,
    cacheWrite: asU64(object['cache_write_input_tokens']) ?? null,
    output: asU64(object['output_tokens']) ?? null,
    reasoning: asU64(object['reasoning_output_tokens']) ?? null,
  }
}

function minus(a: number | null, b: number | null | undefined): number | null {
  if (a === null) return null
  if (b === undefined || b === null) return a
  return a >= b ? a - b : null
}

/** The difference between two cumulative reports: what the requests between them used. */
export function tokensSince(total: CodexTokens, previous: CodexTokens | undefined): CodexTokens {
  return {
    input: minus(total.input, previous?.input),
    cached: minus(total.cached, previous?.cached),
    cacheWrite: minus(total.cacheWrite, previous?.cacheWrite),
    output: minus(total.output, previous?.output),
    reasoning: minus(total.reasoning, previous?.reasoning),
  }
}

const nothing = (value: number | null): boolean => value === null || value === 0

/** Whether no figure moved (each is 0 or unknown). Named fields, not `Object.values`: it runs per token report. */
export function isZero(tokens: CodexTokens): boolean {
  return nothing(tokens.input) && nothing(tokens.cached) && nothing(tokens.cacheWrite) && nothing(tokens.output) && nothing(tokens.reasoning)
}

/**
 * As `metaharness.event/1` counts them: `input_tokens` never includes the cache read (Anthropic's
 * convention), so the OpenAI figure is reduced by the cached part.
 */
export function normalisedUsage(tokens: CodexTokens): Usage {
  // Set on the fresh object, not spread into a copy: a copy is a second shape for the writer, per token report.
  const usage = reportedUsage(tokens)
  usage.input_tokens = tokens.input === null ? null : minus(tokens.input, tokens.cached)
  return usage
}

/** As Codex reported them, unconverted: upstream's rollout projection carries the figures as written. */
export function reportedUsage(tokens: CodexTokens): Usage {
  return {
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    cache_read_input_tokens: tokens.cached,
    cache_creation_input_tokens: tokens.cacheWrite,
    service_tier: null,
    thinking_tokens: tokens.reasoning,
    iterations: null,
    speed: null,
    cost_usd: null,
  }
}
