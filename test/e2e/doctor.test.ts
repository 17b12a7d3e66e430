import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { cachedHarnessBinary } from '../../adapters/launch/harness-cache.js'
import { findLaunch } from '../../adapters/launch/launches.js'
import type { LaunchDeclaration } from '../../adapters/launch/declaration.js'
import { CLAUDE_CODE, CODEX, ensureHarness } from './harness-install.js'

// `vitest-harness doctor <harness>` for every harness the e2e suite runs, from the built bin, against the real pinned binaries in the
// harness cache: each is found there, asked its version for real, and shown with its launch.
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'vitest-harness.js')
const run = promisify(execFile)

const launch = (id: string): LaunchDeclaration => findLaunch(id) ?? (() => { throw new Error(`no ${id} launch`) })()
const PI = launch('pi')
const OPENCODE = launch('opencode')
const GEMINI = launch('gemini')
const QWEN = launch('qwen')

beforeAll(() => {
  for (const harness of [CLAUDE_CODE, CODEX, PI, OPENCODE, GEMINI, QWEN]) ensureHarness(harness)
}, 900_000)

describe('vitest-harness doctor on the cached harness binaries', () => {
  for (const [launch, wire] of [
    [CLAUDE_CODE, 'anthropic-messages'],
    [CODEX, 'openai-responses'],
    // pi needs Node >= 22.19: doctor asks it under the cached runtime it declares, as a launch runs it.
    [PI, 'anthropic-messages, openai-responses, openai-chat'],
    [OPENCODE, 'openai-chat'],
    [GEMINI, 'gemini'],
    // Qwen Code needs Node >= 22 too.
    [QWEN, 'openai-chat'],
  ] as const) {
    it(`doctor ${launch.adapter}: the cached ${launch.binary} ${launch.pinnedVersion}, on its pin`, async () => {
      const binary = cachedHarnessBinary(launch)
      const { stdout, stderr } = await run(process.execPath, [BIN, 'doctor', launch.adapter], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...(process.env['XDG_CACHE_HOME'] ? { XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] } : {}) } })
      expect(stderr).toBe('')
      const lines = stdout.trimEnd().split('\n')
      expect(lines.slice(0, 3)).toEqual([
        `${launch.binary}: ${binary} ${launch.pinnedVersion} — on the adapter's pin (${launch.pinnedVersion})`,
        `${launch.binary}: found: the pinned binary in the harness cache (looked for: --program, then the harness cache, then the child's PATH)`,
        `${launch.binary}: wires: ${wire}`,
      ])
      const first = wire.split(', ')[0] as string
      expect(lines[3]).toMatch(new RegExp(`^${launch.binary}: ${first} launch: ${launch.binary} .*\\{prompt\\}`))
      expect(lines[4]).toMatch(new RegExp(`^${launch.binary}: ${first} env: PATH=`))
    })
  }
})
