import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyVectors } from '../helpers/vectors.js'

// `vector new` refusals that need no binary, and the replay vectors' `format` key it writes.
// (The recording itself runs the real Codex: test/e2e/vector-new.test.ts.)
const SCENARIO = 'scenario: hello\nturns:\n  - text: "hello"\n'

function scratch(): { dir: string; scenario: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'vh-vector-new-'))
  writeFileSync(join(dir, 'hello.yaml'), SCENARIO)
  return { dir, scenario: join(dir, 'hello.yaml'), env: { XDG_CACHE_HOME: join(dir, 'cache'), HOME: join(dir, 'home') } }
}

describe('vitest-harness vector new', () => {
  it('refuses an adapter with no launch declaration', async () => {
    const { dir, scenario, env } = scratch()
    const run = await runCli(['vector', 'new', 'scripted', '--out', join(dir, 'out'), '--scenario', scenario, '--prompt', 'p'], { env })
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'error: VH_NO_LAUNCH at scripted: the scripted adapter declares no launch, so there is no run to record a vector from\n' })
  })

  it('refuses when no binary is in the harness cache or on the child PATH, saying how to get one', async () => {
    const { dir, scenario, env } = scratch()
    const run = await runCli(['vector', 'new', 'claude', '--out', join(dir, 'out'), '--scenario', scenario, '--prompt', 'p'], { env })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_NO_BINARY at claude: no claude to run: not in the harness cache or on the child's PATH\. Install the pinned 2\.1\.328 .* or pass --program\n$/)
  })

  it('needs --out, --scenario and --prompt, and a known wire', async () => {
    expect((await runCli(['vector', 'new', 'codex', '--scenario', 's', '--prompt', 'p'])).stderr).toBe('error: VH_USAGE: vector new needs --out\n')
    expect((await runCli(['vector', 'new', 'codex', '--out', 'o', '--prompt', 'p'])).stderr).toBe('error: VH_USAGE: vector new needs --scenario\n')
    expect((await runCli(['vector', 'new', 'codex', '--out', 'o', '--scenario', 's', '--wire', 'smoke-signals', '--prompt', 'p'])).stderr).toMatch(/^error: VH_USAGE: --wire must be one of openai-responses, /)
  })
})

describe("a replay vector's format", () => {
  it("reads the record with the named format, and fails a format that is not the adapter's or does not exist", async () => {
    const dir = copyVectors('codex', ['codex-read-then-answer-stdout'])
    expect((await runCli(['contract', 'codex', '--vectors', dir])).stdout).toContain('pass C2 codex-read-then-answer-stdout\n')
    const manifest = join(dir, 'codex-read-then-answer-stdout', 'vector.yaml')
    const original = readFileSync(manifest, 'utf8')
    writeFileSync(manifest, original.replace('format: codex/exec-json', 'format: claude-code/stream-json'))
    const foreign = await runCli(['contract', 'codex', '--vectors', dir])
    expect(foreign.code).toBe(1)
    expect(foreign.stdout).toContain("FAIL C2 codex-read-then-answer-stdout — the vector could not run: inputs.format claude-code/stream-json is claude's record, not codex's\n")
    writeFileSync(manifest, original.replace('format: codex/exec-json', 'format: codex/telegraph'))
    expect((await runCli(['contract', 'codex', '--vectors', dir])).stdout).toContain('FAIL C2 codex-read-then-answer-stdout — the vector could not run: inputs.format names no transcript format: "codex/telegraph"\n')
  })

  it('without a format, the same exec-json bytes go to the rollout reader and no longer match', async () => {
    const dir = copyVectors('codex', ['codex-read-then-answer-stdout'])
    const manifest = join(dir, 'codex-read-then-answer-stdout', 'vector.yaml')
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('  format: codex/exec-json\n', ''))
    const run = await runCli(['contract', 'codex', '--vectors', dir])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^FAIL C2 codex-read-then-answer-stdout — /)
  })
})
