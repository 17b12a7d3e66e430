import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import { harnessInstallDir } from '../../adapters/launch/harness-cache.js'
import { runCli } from '../../test/helpers/cli.js'
import { launchableHarnessIds } from '../contract/doctor.js'

// Fake binaries named by what they print, placed where doctor looks: a harness cache under a
// temporary XDG_CACHE_HOME (the layout ensureHarnessBinary installs), or a path given by --program.
function fakeBinary(path: string, banner: string): string {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, `#!/bin/sh\necho '${banner}'\n`, { mode: 0o755 })
  return path
}

function cacheWith(adapter: string, banner: string): { env: Record<string, string>; binary: string } {
  const cache = mkdtempSync(join(tmpdir(), 'vh-cache-'))
  const env = { XDG_CACHE_HOME: cache, HOME: mkdtempSync(join(tmpdir(), 'vh-home-')) }
  const launch = findLaunch(adapter)
  if (!launch) throw new Error(`no launch for ${adapter}`)
  const binary = fakeBinary(join(harnessInstallDir(launch, env) as string, 'node_modules', '.bin', launch.binary), banner)
  return { env, binary }
}

describe('vitest-harness doctor, driven by the launch declarations', () => {
  it('offers every launch declaration and every adapter with a child PATH', () => {
    expect(launchableHarnessIds()).toEqual(expect.arrayContaining(['b10x', 'claude', 'codex', 'scripted', 'pi', 'opencode']))
  })

  it('finds the pinned binary in the harness cache, reports its version on the pin, its wire and its launch', async () => {
    const { env, binary } = cacheWith('codex', 'codex-cli 0.169.0')
    const run = await runCli(['doctor', 'codex'], { env })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines.slice(0, 3)).toEqual([
      `codex: ${binary} 0.169.0 — on the adapter's pin (0.169.0)`,
      "codex: found: the pinned binary in the harness cache (looked for: --program, then the harness cache, then the child's PATH)",
      'codex: wires: openai-responses',
    ])
    expect(lines[3]).toMatch(/^codex: openai-responses launch: codex exec --json .* 'model_providers\.vitest_harness\.base_url="\{baseUrl\}"' .* --model \{model\} -- \{prompt\}$/)
    expect(lines[4]).toMatch(/^codex: openai-responses env: PATH=\S+ HOME=\{root\}\/home CODEX_HOME=\{root\}\/codex-home /)
    expect(run.stdout).not.toContain(LOOPBACK_PLACEHOLDER_KEY)
  })

  it('exits 1 for a cached binary off the pin', async () => {
    const { env, binary } = cacheWith('claude', '2.1.300 (Claude Code)')
    const run = await runCli(['doctor', 'claude'], { env })
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n')[0]).toBe(
      `claude: ${binary} 2.1.300 — OFF the adapter's pin (2.1.328). Every version-pinned claim this adapter makes was read from 2.1.328 and is unverified here`,
    )
    expect(run.stdout).toContain('claude: anthropic-messages env: ')
    expect(run.stdout).toContain('ANTHROPIC_BASE_URL={origin}')
  })

  it('asks --program before the cache', async () => {
    const { env } = cacheWith('codex', 'codex-cli 0.169.0')
    const program = fakeBinary(join(mkdtempSync(join(tmpdir(), 'vh-program-')), 'codex'), 'codex-cli 0.150.0')
    const run = await runCli(['doctor', 'codex', '--program', program], { env })
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      `codex: ${program} 0.150.0 — OFF the adapter's pin (0.169.0). Every version-pinned claim this adapter makes was read from 0.169.0 and is unverified here`,
      "codex: found: named by --program (looked for: --program, then the harness cache, then the child's PATH)",
    ])
  })

  it('checks a harness that has a launch declaration and no adapter yet', async () => {
    const launch = findLaunch('opencode')
    if (!launch?.pinnedVersion) throw new Error('the opencode launch declares no pin')
    const { env, binary } = cacheWith('opencode', launch.pinnedVersion)
    const run = await runCli(['doctor', 'opencode'], { env })
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe(`opencode: ${binary} ${launch.pinnedVersion} — on the adapter's pin (${launch.pinnedVersion})`)
    expect(run.stdout).toContain(`opencode: wires: ${Object.keys(launch.bindings).join(', ')}\n`)
  })

  it('exits 2 when neither the cache nor the child PATH has it, naming both', async () => {
    const env = { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'vh-cache-')), HOME: mkdtempSync(join(tmpdir(), 'vh-home-')) }
    const run = await runCli(['doctor', 'claude'], { env })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: VH_NOT_ON_PATH: claude is not in the harness cache, and not on the child's PATH \(/)
  })

  it('refuses a name nothing launches as, listing what does', async () => {
    const run = await runCli(['doctor', 'nope'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`error: VH_USAGE: nothing is launchable as "nope"; one of ${launchableHarnessIds().join(', ')}\n`)
  })
})
