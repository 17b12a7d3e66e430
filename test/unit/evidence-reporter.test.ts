import { execFile } from 'node:child_process'
import { lstatSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { digestValue, sha256Hex } from '../../src/events/digest.js'
import { gitRevision } from '../../src/evidence/run-provenance.js'
import { EVIDENCE_SET_MANIFEST } from '../../src/evidence/set-manifest.js'
import { TRACE_PROOF_KEY_ENV } from '../../src/vitest/trace-proof.js'
import type { EvidenceRecord } from '../../src/evidence/types.js'
import { packageVersion } from '../../src/util/package-info.js'
import { runCli } from '../helpers/cli.js'

// The evidence reporter driven for real: the fixture suite in test/fixtures/evidence-suite/ runs in
// a child `vitest` (once whole, once as three shards merged from blobs), and what lands in the
// output folder is read back record by record.
const ROOT = resolve(import.meta.dirname, '..', '..')
const SUITE = join(ROOT, 'test', 'fixtures', 'evidence-suite')
const CONFIG = join(SUITE, 'vitest.config.ts')
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const TRANSCRIPT = '../../../vectors/b10x/golden-loop-record/loop.expected.jsonl'

async function vitest(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  // The child must not believe it is one of this run's workers.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
  try {
    return await promisify(execFile)(process.execPath, [VITEST, 'run', '--config', CONFIG, ...args], { cwd: ROOT, env: { ...clean, ...env }, maxBuffer: 32 * 1024 * 1024 })
  } catch (error) {
    // The suite fails on purpose (a failing trace check, a failing ordinary test): keep its output.
    const failed = error as { stdout?: string; stderr?: string; code?: number }
    if (typeof failed.code !== 'number') throw error
    return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

/** The set's documents, its manifest aside (it names the run, so no two runs share it). */
function documents(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).filter((name) => name !== EVIDENCE_SET_MANIFEST).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]))
}

function records(dir: string): EvidenceRecord[] {
  return [...documents(dir)].filter(([name]) => name.endsWith('.evidence.yaml')).map(([, text]) => (parse(text) as EvidenceRecord[])[0] as EvidenceRecord)
}

function find<K extends EvidenceRecord['kind']>(all: EvidenceRecord[], kind: K, match: (record: Extract<EvidenceRecord, { kind: K }>) => boolean): Extract<EvidenceRecord, { kind: K }>[] {
  return all.filter((record): record is Extract<EvidenceRecord, { kind: K }> => record.kind === kind).filter(match)
}

const specDigest = (id: string, rules: unknown[]): string => digestValue({ format: 'fixture-spec/1', id, rules })
const listingDigest = (inputs: string[]): string => sha256Hex(inputs.map((input) => `${sha256Hex(readFileSync(join(SUITE, input)))}  ${input}\n`).join(''))

let single = ''
let singleOutput = ''
let started = 0
let finished = 0

beforeAll(async () => {
  single = mkdtempSync(join(tmpdir(), 'vh-evidence-single-'))
  started = Date.now()
  singleOutput = (await vitest([], { VH_EVIDENCE_OUT: single })).stdout
  finished = Date.now()
}, 120_000)

describe('the evidence reporter on a suite of passing, failing, skipped, todo and throwing checks', () => {
  it('mints exactly the records the honesty rules allow', () => {
    const all = records(single)
    const name = (record: EvidenceRecord): string | undefined => (record.kind === 'trace_conformance' ? record.specification : record.kind === 'test_result' ? record.selector : record.provider)
    expect(all.map((record) => `${record.kind} ${name(record)}`).sort()).toEqual([
      'contract_result b10x 0.12.1',
      'contract_result b10x 0.12.1',
      'test_result contract.test.ts',
      'test_result ordinary.test.ts',
      'test_result trace-checks.test.ts',
      'test_result trace-forged.test.ts',
      'test_result trace-split-a.test.ts',
      'test_result trace-split-b.test.ts',
      'trace_conformance fixture/failing',
      'trace_conformance fixture/passing',
      'trace_conformance fixture/split',
      'trace_conformance fixture/undecided',
    ])
    // Nothing for fixture/skipped, fixture/todo, fixture/threw, fixture/threw-partly, the
    // contract with a skipped vector, or all-skipped.test.ts — and the run says why for each.
    expect(singleOutput).toContain('no trace_conformance for fixture/skipped (skipped): trace-checks.test.ts > a spec with a skipped check > said-something was skipped')
    expect(singleOutput).toContain('no trace_conformance for fixture/todo (todo): trace-checks.test.ts > a spec with a todo check > the row nobody has written yet was skipped')
    expect(singleOutput).toContain('no trace_conformance for fixture/threw-partly (threw-partly): trace-checks.test.ts > a spec one of whose checks threw > said-something failed without a verdict')
    expect(singleOutput).toContain('no contract_result for b10x with a skipped vector: vector hooks did not run')
    // Trace meta the checker did not attach, or changed after it did, mints nothing and says why.
    expect(singleOutput).toContain('trace-forged.test.ts > claims a verdict it never checked: vitestHarness.trace carries no proof that the trace checker attached it')
    expect(singleOutput).toContain("trace-forged.test.ts > turns a gap into ok after the checker signed it: vitestHarness.trace's proof does not match its report")
  })

  it('records each check group field by field', () => {
    const all = records(single)
    const transcriptDigest = sha256Hex(readFileSync(join(SUITE, TRANSCRIPT)))
    const trace = (id: string) => find(all, 'trace_conformance', (record) => record.specification === id)
    const common = { kind: 'trace_conformance', transcript_digest: transcriptDigest, adapter: 'metaharness/event-stream (written against metaharness.event/1)', producer: { producer: 'verifier', verifier: 'trace-checker' } }
    const [passing] = trace('fixture/passing')
    expect(passing).toMatchObject({
      ...common,
      spec_digest: specDigest('fixture/passing', [
        { id: 'read-something', kind: 'count', event: 'tool.requested', atLeast: 1 },
        { id: 'said-something', kind: 'count', event: 'text', atLeast: 1 },
      ]),
      status: 'passed',
      expectations_total: 2,
      expectations_gapped: 0,
      expectations_unknown: 0,
    })
    expect(passing).not.toHaveProperty('gapped_expectations')
    expect(trace('fixture/failing')).toEqual([expect.objectContaining({ ...common, status: 'failed', expectations_total: 2, expectations_gapped: 1, expectations_unknown: 0, gapped_expectations: ['no-tool-calls'] })])
    expect(trace('fixture/undecided')).toEqual([expect.objectContaining({ ...common, status: 'inconclusive', expectations_total: 2, expectations_gapped: 0, expectations_unknown: 1 })])
    expect(trace('fixture/split')).toEqual([expect.objectContaining({ ...common, status: 'passed', expectations_total: 2, expectations_gapped: 0 })])
    expect(find(all, 'trace_conformance', (record) => record.status === 'passed' && record.expectations_unknown > 0)).toEqual([])

    expect(find(all, 'contract_result', () => true).map(({ checked, failed, breaking_changes, consumer, provider, producer }) => ({ checked, failed, breaking_changes, consumer, provider, producer })).sort((a, b) => a.checked - b.checked)).toEqual([
      { checked: 2, failed: 1, breaking_changes: 1, consumer: 'metaharness.event/1', provider: 'b10x 0.12.1', producer: { producer: 'verifier', verifier: 'contract-runner' } },
      { checked: 3, failed: 0, breaking_changes: 0, consumer: 'metaharness.event/1', provider: 'b10x 0.12.1', producer: { producer: 'verifier', verifier: 'contract-runner' } },
    ])

    const counts = (selector: string) => find(all, 'test_result', (record) => record.selector === selector).map(({ suite, passed, failed, skipped, producer }) => ({ suite, passed, failed, skipped, producer }))
    const runner = { producer: 'verifier', verifier: 'test-runner' }
    expect(counts('ordinary.test.ts')).toEqual([{ suite: 'unit', passed: 2, failed: 1, skipped: 2, producer: runner }])
    expect(counts('trace-checks.test.ts')).toEqual([{ suite: 'unit', passed: 8, failed: 3, skipped: 2, producer: runner }])
    expect(counts('contract.test.ts')).toEqual([{ suite: 'unit', passed: 5, failed: 1, skipped: 1, producer: runner }])
    expect(counts('all-skipped.test.ts')).toEqual([])
    expect(find(all, 'test_result', (record) => 'duration_ms' in record)).toEqual([])
  })

  it('stamps each record with the time its checks ran in the worker', () => {
    for (const record of records(single)) {
      expect(record.observed_at).toBeGreaterThanOrEqual(started)
      expect(record.observed_at).toBeLessThanOrEqual(finished)
    }
  })

  it('writes provenance that reproduces and pins the observation', () => {
    const environment = `node-${process.version.slice(1).replaceAll('.', '-')}-${process.platform}-${process.arch}-vitest-4-1-12`
    const revision = gitRevision(SUITE)
    const [split] = find(records(single), 'trace_conformance', (record) => record.specification === 'fixture/split')
    const inputs = [TRANSCRIPT, 'trace-split-a.test.ts', 'trace-split-b.test.ts']
    expect(split?.provenance).toEqual({
      command: 'npx vitest run --config vitest.config.ts trace-split-a.test.ts trace-split-b.test.ts',
      tool: `vitest-harness/${packageVersion().replaceAll('.', '-')}`,
      ...(revision === undefined ? {} : { revision }),
      workspace: 'evidence-suite',
      environment,
      digest: listingDigest(inputs),
      inputs,
    })
    const [ordinary] = find(records(single), 'test_result', (record) => record.selector === 'ordinary.test.ts')
    expect(ordinary?.provenance).toMatchObject({ command: 'npx vitest run --config vitest.config.ts ordinary.test.ts', inputs: ['ordinary.test.ts'], digest: listingDigest(['ordinary.test.ts']) })
  })

  it('writes metaharness’s contract_result line beside each contract record', () => {
    const lines = [...documents(single)].filter(([name]) => name.endsWith('.line.json')).map(([, text]) => text).sort()
    expect(lines).toEqual([
      '{"breaking_changes":0,"checked":3,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
      '{"breaking_changes":1,"checked":2,"consumer":"metaharness.event/1","failed":1,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
    ])
  })

  it('writes only documents the engine accepts', async () => {
    const files = readdirSync(single).filter((name) => name.endsWith('.evidence.yaml')).map((name) => join(single, name))
    const run = await runCli(['evidence', 'validate', '--now', String(finished), ...files])
    expect(run.stdout.match(/— 1 accepted, 0 refused/g)).toHaveLength(files.length)
    expect(run.code).toBe(0)
  })

  it('writes them as one set with its manifest, which evidence validate DIR accepts', async () => {
    expect(lstatSync(single).isSymbolicLink()).toBe(true)
    const manifest = JSON.parse(readFileSync(join(single, EVIDENCE_SET_MANIFEST), 'utf8')) as { run_id: string; records: number; counts: Record<string, number>; documents: Record<string, string> }
    expect(Object.keys(manifest.documents)).toEqual([...documents(single).keys()])
    expect(manifest.documents).toEqual(Object.fromEntries([...documents(single)].map(([name, text]) => [name, sha256Hex(text)])))
    // Four trace checks minted: passing, failing, undecided, split.
    expect(manifest).toMatchObject({ records: 12, counts: { passed: 2, failed: 1, inconclusive: 1 } })
    const run = await runCli(['evidence', 'validate', '--now', String(finished), single])
    expect(run.stderr).toBe('')
    expect(run.stdout.split('\n')[0]).toBe(`${single}: evidence set ${manifest.run_id} — 14 file(s) as its manifest lists them, 12 record(s); by status 2 passed, 1 failed, 1 inconclusive`)
    expect(run.code).toBe(0)
  })
})

describe('the same suite as three shards merged with --merge-reports', () => {
  it('yields the evidence of a single run, except observed_at', async () => {
    const work = mkdtempSync(join(tmpdir(), 'vh-evidence-shards-'))
    const blobs = join(work, 'blobs')
    // A shard has no evidence reporter to hold the run's key: every shard and the merge share one.
    const key = { [TRACE_PROOF_KEY_ENV]: 'f'.repeat(64) }
    for (const shard of [1, 2, 3]) await vitest([`--shard=${shard}/3`, '--reporter=blob', `--outputFile.blob=${join(blobs, `blob-${shard}-3.json`)}`], key)
    // The check group split over two files is split over two shards: the merge has to join it.
    const shardOf = (file: string): string[] => readdirSync(blobs).filter((blob) => readFileSync(join(blobs, blob), 'utf8').includes(`"${file}"`))
    expect(shardOf('trace-split-a.test.ts')).toHaveLength(1)
    expect(shardOf('trace-split-a.test.ts')).not.toEqual(shardOf('trace-split-b.test.ts'))

    const merged = join(work, 'evidence')
    await vitest([`--merge-reports=${blobs}`], { VH_EVIDENCE_OUT: merged, ...key })
    const withoutTimes = (dir: string): [string, string][] => [...documents(dir)].map(([name, text]) => [name, text.replace(/^( {2})observed_at: \d+$/gm, '$1observed_at: <time>')])
    const expected = withoutTimes(single)
    expect(expected).toHaveLength(14)
    expect(withoutTimes(merged)).toEqual(expected)
  }, 180_000)
})
