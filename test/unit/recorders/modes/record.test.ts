import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCassette, resolveMode, startProvider } from '../../../../recorders/index.js'
import { scratchDir, TWO_TURNS } from '../../../helpers/provider.js'

const BODY = JSON.stringify({ model: 'gpt-test', input: 'hi', tools: [{ type: 'function', name: 'read_file' }] })

describe("mode 'record'", () => {
  it('is refused when CI is set: CI never records', async () => {
    expect(() => resolveMode('record', { CI: 'true' })).toThrow(/mode record is refused because CI is set/)
    expect(() => resolveMode(undefined, { CI: '1', VITEST_HARNESS_MODE: 'record' })).toThrow(expect.objectContaining({ code: 'VH_MODE_REFUSED_IN_CI' }))
    await expect(startProvider({ mode: 'record', scenario: TWO_TURNS, cassette: join(scratchDir(), 'x.jsonl'), env: { CI: 'true' } })).rejects.toMatchObject({ code: 'VH_MODE_REFUSED_IN_CI' })
  })

  it('needs a source to record from', async () => {
    await expect(startProvider({ mode: 'record', cassette: join(scratchDir(), 'x.jsonl'), env: {} })).rejects.toMatchObject({ code: 'VH_UPSTREAM_MISSING' })
  })

  it('stores everything and overwrites the cassette', async () => {
    const cassette = join(scratchDir(), 'record.cassette.jsonl')
    writeFileSync(cassette, 'an old recording\n')
    const provider = await startProvider({ mode: 'record', scenario: TWO_TURNS, cassette, env: {} })
    for (let index = 0; index < 2; index++) await (await fetch(`${provider.baseUrl}/responses`, { method: 'POST', body: BODY })).text()
    await provider.close()
    expect(readFileSync(cassette, 'utf8')).not.toContain('an old recording')
    const recorded = readCassette(cassette)
    expect(recorded.interactions).toHaveLength(2)
    expect(recorded).toMatchObject({ wire: 'openai-responses', provenance: 'provider_emulated', scenario: 'read-then-answer' })
    expect(provider.requests().map((entry) => entry.outcome)).toEqual(['recorded', 'recorded'])
  })
})
