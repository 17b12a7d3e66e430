import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claudeAdapter } from '../../adapters/claude/adapter.js'
import { codexAdapter } from '../../adapters/codex/adapter.js'
import { describeHarness } from '../../src/contract/describe-harness.js'
import { loadVectors } from '../../src/contract/manifest.js'
import { builtInVectorsDir } from '../../src/util/package-info.js'
import { runCli } from '../helpers/cli.js'

// The vectors the package ships for Claude Code and Codex (recorded with `vector new` from the real
// binaries against the loopback provider), run as a user runs them: no binary, no model, no network.
describeHarness(claudeAdapter)
describeHarness(codexAdapter)

describe('the shipped Claude Code and Codex vectors', () => {
  // Claude Code's session file carries its whole system prompt (vendor text), so only its stdout ships.
  for (const [adapter, version, formats] of [
    ['claude', '2.1.328', ['claude-code/stream-json']],
    ['codex', '0.169.0', ['codex/exec-json', 'codex/rollout-jsonl']],
  ] as const) {
    it(`${adapter}: a C1 launch, C2 replays of ${formats.join(' and ')}, and the version pair, all from ${version}`, () => {
      const vectors = loadVectors(join(builtInVectorsDir(), adapter))
      expect(vectors.map((vector) => [vector.tier, vector.kind, vector.provenance, vector.pins])).toEqual([
        ['c1', 'launch', 'provider_emulated', [version]],
        ...formats.map(() => ['c2', 'replay', 'provider_emulated', [version]]),
        ['c2', 'version-pair', 'provider_emulated', [version]],
      ])
      expect(vectors.flatMap((vector) => (vector.kind === 'replay' ? [vector.inputs.format] : []))).toEqual(formats)
    })

    it(`contract ${adapter} --contract prints its one line and exits 0`, async () => {
      const run = await runCli(['contract', adapter, '--contract'])
      expect(run).toEqual({
        code: 0,
        stdout: `{"breaking_changes":0,"checked":${formats.length + 2},"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"${adapter} ${version}"}\n`,
        stderr: '',
      })
    })
  }
})

describe('describeHarness with no vectors', () => {
  it('refuses with VH_NO_VECTORS, naming the folder and how to record one, with no stack into the package', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'vh-no-vectors-')), 'vectors')
    let thrown: unknown
    try {
      describeHarness(codexAdapter, { vectors: missing })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ name: 'ContractRefusal', code: 'VH_NO_VECTORS' })
    const error = thrown as Error
    expect(error.message).toBe(
      `VH_NO_VECTORS: describeHarness("codex"): nothing to check for codex: ${missing} is not a folder of vectors. Refused rather than reported as zero, which would read exactly like a pass. Record one with \`vitest-harness vector new codex --out <dir>\`, or pass the folder that holds yours (\`vectors\`)`,
    )
    expect(error.message).not.toMatch(/ENOENT|scandir/)
    expect(error.stack).toBe(`ContractRefusal: ${error.message}`)
  })

  it('refuses an empty folder the same way', () => {
    const empty = mkdtempSync(join(tmpdir(), 'vh-empty-vectors-'))
    expect(() => describeHarness(claudeAdapter, { vectors: empty })).toThrow(`VH_NO_VECTORS: describeHarness("claude"): nothing to check for claude: ${empty} holds no vector.`)
  })
})
