import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveMode, startProvider } from '../../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../../helpers/provider.js'

describe("mode 'passthrough'", () => {
  it('is refused in CI: CI never reaches the network', () => {
    expect(() => resolveMode('passthrough', { CI: 'true' })).toThrow(expect.objectContaining({ code: 'VH_MODE_REFUSED_IN_CI', message: expect.stringContaining('CI never reaches the network') }))
    expect(resolveMode('passthrough', { CI: 'false' })).toBe('passthrough')
  })

  it('answers from the source and writes no cassette', async () => {
    const cassette = join(scratchDir(), 'never.cassette.jsonl')
    const provider = await startProvider({ mode: 'passthrough', scenario: TWO_TURNS, cassette, env: {} })
    const response = await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'read_file' } }] }) })
    const body = (await response.json()) as { choices: { message: { content: string } }[] }
    await provider.close()
    expect(body.choices[0]?.message.content).toContain('Reading the readme')
    expect(existsSync(cassette)).toBe(false)
    expect(provider.requests().map((entry) => entry.outcome)).toEqual(['scripted'])
  })
})
