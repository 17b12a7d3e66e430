import { adapterIds } from '../../adapters/registry.js'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { B10X_CONTRACT_VECTORS as SEVEN, copyVectors } from '../../test/helpers/vectors.js'
import { loadVectors } from '../contract/manifest.js'
import { builtInVectorsDir } from '../util/package-info.js'

const ONLY_SEVEN = SEVEN.flatMap((id) => ['--only', id])

describe('vitest-harness contract', () => {
  it("prints a line per vector of upstream's set and the summary, and exits 0 when every vector passes", async () => {
    const run = await runCli(['contract', 'b10x'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines.slice(0, -1)).toEqual(SEVEN.map((id) => `pass ${id.startsWith('c1-') ? 'C1' : 'C2'} ${id}`))
    expect(lines.at(-1)).toBe('7 vectors, 0 failed — no model, no network, no credential')
  })

  it("runs the project's own b10x vectors too with --with-project-vectors", async () => {
    const count = loadVectors(join(builtInVectorsDir(), 'b10x')).length
    expect(count).toBeGreaterThan(SEVEN.length)
    const run = await runCli(['contract', 'b10x', '--with-project-vectors'])
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(count + 1)
    expect(lines).toContain('pass C2 every-loop-kind')
    expect(lines.at(-1)).toBe(`${count} vectors, 0 failed — no model, no network, no credential`)
    const record = await runCli(['contract', 'b10x', '--contract', '--with-project-vectors'])
    expect(record.stdout).toBe(`{"breaking_changes":0,"checked":${count},"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n`)
  })

  it("prints upstream's seven-vector line with --contract and nothing else named", async () => {
    const run = await runCli(['contract', 'b10x', '--contract'])
    expect(run).toEqual({
      code: 0,
      stdout: '{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
      stderr: '',
    })
  })

  it("prints only the contract_result line with --contract: b10x's seven vectors", async () => {
    const run = await runCli(['contract', 'b10x', '--contract', ...ONLY_SEVEN])
    expect(run).toEqual({
      code: 0,
      stdout: '{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
      stderr: '',
    })
  })

  it('runs the C3 control vectors of the scripted double', async () => {
    const run = await runCli(['contract', 'scripted'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('pass C3 c3/an-unanswered-call-is-denied-by-the-drivers-own-deadline\n')
    expect(run.stdout).toContain('pass C1 c1-observe-with-a-frame-is-refused\n')
  })

  it('an off-pin banner is a warning: a warn line, or stderr beside the record, and exit 0', async () => {
    const dir = copyVectors('b10x', SEVEN)
    writeFileSync(join(dir, 'golden-version-pair', 'version.txt'), 'b10x-harness 0.9.1\n')
    const human = await runCli(['contract', 'b10x', '--vectors', dir])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain('warn C2 golden-version-pair — the binary that wrote the recording reported 0.9.1 and the adapter pins 0.12.1\n')
    const record = await runCli(['contract', 'b10x', '--contract', '--vectors', dir])
    expect(record).toEqual({
      code: 0,
      stdout: '{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
      stderr: 'vitest-harness: warn C2 golden-version-pair — the binary that wrote the recording reported 0.9.1 and the adapter pins 0.12.1\n',
    })
  })

  it('a changed expected byte fails that vector with the first difference, counted as breaking', async () => {
    const dir = copyVectors('b10x', SEVEN)
    const expected = join(dir, 'golden-loop-record', 'loop.expected.jsonl')
    writeFileSync(expected, readFileSync(expected, 'utf8').replace('"seq":4,', '"seq":5,'))
    const human = await runCli(['contract', 'b10x', '--vectors', dir])
    expect(human.code).toBe(1)
    expect(human.stdout).toMatch(/^FAIL C2 golden-loop-record — \$\.seq: expected 5, got 4 \(line 4\)\nline 4: expected \{"format":"metaharness.event\/1","seq":5,.*, observed \{"format":"metaharness.event\/1","seq":4,.*$/m)
    expect(human.stdout).toContain('7 vectors, 1 failed — no model, no network, no credential\n')
    expect(human.stderr).toMatch(/^vitest-harness: checklist unmet — a recorded transcript\/rollout vector: `golden-loop-record` failed — \$\.seq: expected 5, got 4 \(line 4\)\nline 4: /)
    const record = await runCli(['contract', 'b10x', '--contract', '--vectors', dir])
    expect(record.code).toBe(1)
    expect(record.stdout).toBe('{"breaking_changes":1,"checked":7,"consumer":"metaharness.event/1","failed":1,"kind":"contract_result","provider":"b10x 0.12.1"}\n')
  })

  it('a red C3 vector is failed but not breaking', async () => {
    const dir = copyVectors('scripted')
    const manifest = join(dir, 'c3', 'deny-carries-a-reason-the-model-is-told', 'vector.yaml')
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('admits no shell\\"}}"', 'admits no shells\\"}}"'))
    const record = await runCli(['contract', 'scripted', '--contract', '--vectors', dir])
    expect(record.code).toBe(1)
    expect(record.stdout).toBe('{"breaking_changes":0,"checked":17,"consumer":"metaharness.event/1","failed":1,"kind":"contract_result","provider":"scripted 1.0.0"}\n')
  })

  it('an unmet checklist exits 1 and says why on stderr, never on stdout', async () => {
    const run = await runCli(['contract', 'b10x', '--contract', '--only', 'c1-observe-launch'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('{"breaking_changes":0,"checked":1,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n')
    expect(run.stderr).toContain('vitest-harness: checklist unmet — a golden-version-pair vector: the declaration names `golden-version-pair`, and the run has no such vector\n')
  })

  it.each([
    [['contract'], new RegExp(`^error: VH_USAGE: contract needs an adapter \\(one of ${adapterIds().join(', ')}\\)`)],
    [['contract', 'nope'], new RegExp(`^error: VH_USAGE: unknown adapter "nope"; one of ${adapterIds().join(', ')}`)],
    [['contract', 'b10x', '--vectors', '/no/such/dir'], /^error: VH_NO_VECTORS: nothing to check for b10x: \/no\/such\/dir is not a folder of vectors/],
    [['contract', 'b10x', '--only', 'nope'], /^error: VH_UNKNOWN_VECTOR: no vector "nope" under /],
    [['contract', 'b10x', '--vectors', join(builtInVectorsDir(), 'scripted')], /^error: VH_FOREIGN_VECTOR: the vector .* is scripted's, not b10x's/],
  ])('%j refuses with exit 2, never a verdict', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
  })

  it('refuses an empty vectors folder rather than reporting zero', async () => {
    const run = await runCli(['contract', 'b10x', '--vectors', mkdtempSync(join(tmpdir(), 'vh-empty-'))])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_NO_VECTORS: nothing to check for b10x: .* holds no vector/)
  })
})
