import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette, resolveMode, startProvider } from '../../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../../helpers/provider.js'

const post = (url: string, input: string) => fetch(`${url}/responses`, { method: 'POST', body: JSON.stringify({ model: 'gpt-test', input, tools: [{ type: 'function', name: 'read_file' }] }) }).then((response) => response.text())

describe("mode 'auto'", () => {
  it('is refused when CI is set', () => {
    expect(() => resolveMode('auto', { CI: 'true' })).toThrow(/mode auto is refused because CI is set/)
  })

  it('replays hits and records misses, keeping what was there', async () => {
    const cassette = join(scratchDir(), 'auto.cassette.jsonl')
    const first = await startProvider({ mode: 'auto', scenario: TWO_TURNS, cassette, env: {} })
    await post(first.baseUrl, 'one')
    await first.close()
    const second = await startProvider({ mode: 'auto', scenario: TWO_TURNS, cassette, env: {} })
    await post(second.baseUrl, 'one')
    await post(second.baseUrl, 'two')
    await second.close()
    expect(second.requests().map((entry) => entry.outcome)).toEqual(['replayed', 'recorded'])
    expect(readCassette(cassette).interactions.map((interaction) => (interaction.request.body as { input: string }).input)).toEqual(['one', 'two'])
  })
})
