import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveMode, startProvider } from '../../../../recorders/index.js'
import { scratchDir } from '../../../helpers/provider.js'

describe("mode 'replay' (lockdown)", () => {
  it('is the default, and VITEST_HARNESS_MODE picks another', () => {
    expect(resolveMode(undefined, {})).toBe('replay')
    expect(resolveMode(undefined, { VITEST_HARNESS_MODE: 'passthrough' })).toBe('passthrough')
    expect(resolveMode('replay', { VITEST_HARNESS_MODE: 'record' })).toBe('replay')
  })

  it('is allowed in CI', () => {
    expect(resolveMode('replay', { CI: 'true' })).toBe('replay')
  })

  it('refuses a missing cassette instead of reaching anywhere', async () => {
    const missing = join(scratchDir(), 'none.cassette.jsonl')
    await expect(startProvider({ mode: 'replay', cassette: missing, upstream: 'http://127.0.0.1:9', env: {} })).rejects.toMatchObject({ code: 'VH_CASSETTE_MISSING', location: missing })
  })

  it('refuses an unknown mode, quoting the value and listing the allowed ones', () => {
    expect(() => resolveMode('lockdown', {})).toThrow('mode must be one of replay, record, auto, passthrough; got "lockdown"')
    expect(() => resolveMode(undefined, { VITEST_HARNESS_MODE: 'wild' })).toThrow('VITEST_HARNESS_MODE must be one of')
  })
})
