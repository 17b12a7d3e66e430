import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveMode, startProvider } from '../../../../recorders/index.js'
import { isCi } from '../../../../src/util/ci.js'
import { runCli } from '../../../helpers/cli.js'
import { scratchDir, TWO_TURNS } from '../../../helpers/provider.js'

// One reading of CI everywhere: set to anything but "", "0" or "false" (any case) means CI.
const CI_VALUES: readonly [string | undefined, boolean][] = [
  [undefined, false],
  ['', false],
  ['0', false],
  ['false', false],
  ['FALSE', false],
  [' false ', false],
  ['true', true],
  ['1', true],
  ['yes', true],
  ['github-actions', true],
]

describe('CI lock-down', () => {
  it.each(CI_VALUES)('CI=%j is CI: %s', (value, expected) => {
    expect(isCi(value === undefined ? {} : { CI: value })).toBe(expected)
  })

  it.each(CI_VALUES)('CI=%j: record, auto and passthrough are refused exactly when it is CI; replay always runs', (value, ci) => {
    const env = value === undefined ? {} : { CI: value }
    for (const mode of ['record', 'auto', 'passthrough'] as const) {
      if (ci) expect(() => resolveMode(mode, env)).toThrow(expect.objectContaining({ code: 'VH_MODE_REFUSED_IN_CI', location: 'mode' }))
      else expect(resolveMode(mode, env)).toBe(mode)
    }
    expect(resolveMode('replay', env)).toBe('replay')
    if (ci) expect(() => resolveMode(undefined, { ...env, VITEST_HARNESS_MODE: 'passthrough' })).toThrow(/mode passthrough is refused because CI is set/)
  })

  it('with CI=true a passthrough provider is refused before any byte reaches its upstream', async () => {
    let hits = 0
    const upstream = createServer((_request, response) => {
      hits += 1
      response.end('{}')
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    try {
      await expect(startProvider({ mode: 'passthrough', upstream: url, env: { CI: 'true' } })).rejects.toMatchObject({ code: 'VH_MODE_REFUSED_IN_CI' })
      const run = await runCli(['serve', '--cassette', join(scratchDir(), 'c.cassette.jsonl'), '--mode', 'passthrough', '--upstream', url], { env: { CI: 'true' } })
      expect(run.code).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(/VH_MODE_REFUSED_IN_CI: mode passthrough is refused because CI is set/)
      expect(hits).toBe(0)
    } finally {
      await new Promise<void>((resolve) => upstream.close(() => resolve()))
    }
  })

  it.each(['false', '0'])('with CI=%s a passthrough provider answers (it is not CI)', async (value) => {
    const provider = await startProvider({ mode: 'passthrough', scenario: TWO_TURNS, env: { CI: value } })
    try {
      const response = await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
      expect(response.status).toBe(200)
      expect(provider.requests().map((entry) => entry.outcome)).toEqual(['scripted'])
    } finally {
      await provider.close()
    }
  })
})
