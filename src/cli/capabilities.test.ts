import { adapterIds } from '../../adapters/registry.js'
import { describe, expect, it } from 'vitest'
import { b10xAdapter } from '../../adapters/b10x/adapter.js'
import { runCli } from '../../test/helpers/cli.js'
import { renderCapabilities } from '../contract/capabilities.js'

describe('vitest-harness capabilities', () => {
  it('prints the declaration as pretty JSON', async () => {
    const run = await runCli(['capabilities', 'b10x'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(renderCapabilities(b10xAdapter.capabilities()))
    expect(JSON.parse(run.stdout)).toMatchObject({ adapter: { id: 'b10x', class: 'direct_provider' }, versions_pinned: ['0.12.1'] })
  })

  it('--render prints the operation table', async () => {
    const run = await runCli(['capabilities', 'scripted', '--render'])
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')).toEqual([
      'dir.list         -> Glob',
      'file.edit        -> Edit',
      'file.read        -> Read',
      'file.write       -> Write',
      'mcp.call         -> (no vendor tool)',
      'search           -> Grep',
      'shell            -> Bash',
      'skill.load       -> Skill',
      'subagent.spawn   -> Task',
      'task.todo        -> TodoWrite',
      'web.read         -> WebFetch',
      '',
    ])
  })

  it('--check finds the built-in declarations consistent with their vectors', async () => {
    for (const adapter of ['b10x', 'scripted']) {
      const run = await runCli(['capabilities', adapter, '--check'])
      expect(run.code, adapter).toBe(0)
      expect(run.stderr, adapter).toBe('')
    }
  })

  it('--check against vectors that do not drive a delivered tier exits 1', async () => {
    const run = await runCli(['capabilities', 'scripted', '--check', '--vectors', '/no/vectors/here'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('vitest-harness: CAP_TIER_WITHOUT_VECTOR at tiers.call: the call tier is declared delivered, and no vector drives it')
  })

  it('refuses an unknown adapter with exit 2', async () => {
    const run = await runCli(['capabilities', 'nope'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`error: VH_USAGE: unknown adapter "nope"; one of ${adapterIds().join(', ')}\n`)
  })
})
