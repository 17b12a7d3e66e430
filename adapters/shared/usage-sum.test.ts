import { describe, expect, it } from 'vitest'
import { UsageSum } from './usage-sum.js'

describe('UsageSum', () => {
  it('adds every request’s figures, and a figure one request did not give is unknown for the run', () => {
    const sum = new UsageSum()
    sum.add({ input_tokens: 35, output_tokens: 8, cache_read_input_tokens: 7, cache_creation_input_tokens: 0, thinking_tokens: null })
    sum.add({ input_tokens: 35, output_tokens: 4, cache_read_input_tokens: 7, cache_creation_input_tokens: 0, thinking_tokens: 2 })
    expect(sum.usage()).toMatchObject({ input_tokens: 70, output_tokens: 12, cache_read_input_tokens: 14, cache_creation_input_tokens: 0, thinking_tokens: null })
  })

  it('has no usage before a request', () => {
    expect(new UsageSum().usage()).toBeNull()
  })
})
