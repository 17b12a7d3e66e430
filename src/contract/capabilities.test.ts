import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { b10xAdapter } from '../../adapters/b10x/adapter.js'
import { scriptedAdapter } from '../../adapters/scripted/adapter.js'
import type { Capabilities } from '../../adapters/types.js'
import { builtInVectorsDir } from '../util/package-info.js'
import { checkCapabilities, renderCapabilities, renderRendering } from './capabilities.js'
import { loadVectors } from './manifest.js'

function withCapabilities(adapter: HarnessAdapter, change: (capabilities: Capabilities) => void): HarnessAdapter {
  return {
    ...adapter,
    capabilities: () => {
      const capabilities = structuredClone(adapter.capabilities())
      change(capabilities)
      return capabilities
    },
  }
}

const scriptedVectors = loadVectors(join(builtInVectorsDir(), 'scripted'))

describe('checkCapabilities', () => {
  it('finds the built-in declarations consistent with their vectors', () => {
    expect(checkCapabilities(b10xAdapter as HarnessAdapter, loadVectors(join(builtInVectorsDir(), 'b10x')))).toEqual([])
    expect(checkCapabilities(scriptedAdapter as HarnessAdapter, scriptedVectors)).toEqual([])
  })

  it('requires a refused command to answer UNSUPPORTED_CONTROL', () => {
    const adapter = withCapabilities(b10xAdapter as HarnessAdapter, (c) => (c.commands['steer'] = { refused: 'TOO_LATE' }))
    expect(checkCapabilities(adapter)).toEqual([
      { code: 'CAP_REFUSAL_CODE', path: 'commands.steer', message: 'a command the adapter cannot honour is refused with UNSUPPORTED_CONTROL, not TOO_LATE' },
    ])
  })

  it('requires a delivered tier to have a vector that drives it', () => {
    const adapter = withCapabilities(scriptedAdapter as HarnessAdapter, (c) => (c.tiers.kill = 'delivered'))
    const withoutStops = scriptedVectors.filter((vector) => !/interrupt|halt/.test(vector.id))
    expect(checkCapabilities(adapter, withoutStops).map((problem) => [problem.code, problem.path])).toEqual([['CAP_TIER_WITHOUT_VECTOR', 'tiers.kill']])
    expect(checkCapabilities(adapter, scriptedVectors)).toEqual([])
  })

  it('flags an unstoppable adapter, an unknown command and operation, and a decision with nowhere to go', () => {
    const adapter = withCapabilities(b10xAdapter as HarnessAdapter, (c) => {
      c.commands['halt'] = { refused: 'UNSUPPORTED_CONTROL' }
      c.commands['teleport'] = 'honoured'
      c.rendering['time.travel'] = null
      c.commands['tool.decide'] = 'honoured'
      c.tiers.call = 'delivered'
    })
    expect(checkCapabilities(adapter).map((problem) => problem.code)).toEqual([
      'CAP_UNKNOWN_COMMAND',
      'CAP_UNSTOPPABLE',
      'CAP_UNKNOWN_OPERATION',
      'CAP_DECIDE_WITHOUT_SEAM',
    ])
    const asking = withCapabilities(b10xAdapter as HarnessAdapter, (c) => (c.decision_modes.ask = 'delivered'))
    expect(checkCapabilities(asking).map((problem) => problem.code)).toEqual(['CAP_MODE_WITHOUT_COMMAND'])
  })
})

describe('rendering the declaration', () => {
  it('prints pretty JSON in serde order: tiers in tier order, maps sorted', () => {
    const text = renderCapabilities(b10xAdapter.capabilities())
    expect(text.endsWith('}\n')).toBe(true)
    const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>
    expect(Object.keys(parsed)).toEqual(['adapter', 'versions_pinned', 'tiers', 'commands', 'decision_modes', 'rendering'])
    expect(Object.keys(parsed['tiers'] ?? {})).toEqual(['registration', 'call', 'turn', 'kill'])
    expect(Object.keys(parsed['commands'] ?? {})).toEqual(['frame.set', 'halt', 'interrupt', 'message.inject', 'permission.set', 'steer', 'tool.decide'])
    expect(text).toContain('  "adapter": {\n    "id": "b10x",\n    "class": "direct_provider"\n  },\n')
    expect(text).toContain('    "tool.decide": {\n      "refused": "UNSUPPORTED_CONTROL"\n    }\n')
  })

  it('--render prints one padded line per operation', () => {
    const lines = renderRendering(b10xAdapter.capabilities()).split('\n')
    expect(lines).toContain('file.read        -> file_read')
    expect(lines).toContain('subagent.spawn   -> (no vendor tool)')
    expect(lines.at(-1)).toBe('')
  })
})
