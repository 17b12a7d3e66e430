import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { sha256Hex } from '../../src/events/digest.js'
import type { EvidenceRecord } from '../../src/evidence/types.js'
import { normaliseHarnessOptions } from '../../src/vitest/defaults.js'
import { EVIDENCE_REPORTER_DEFAULTS } from '../../src/vitest/reporters/evidence-options.js'
import { TRACE_PROOF_KEY_ENV } from '../../src/vitest/trace-proof.js'

// `harness({ evidence })` in a real nested Vitest run (test/fixtures/plugin-evidence/): the plugin
// registers the evidence reporter beside the project's own reporters, and the records land.
const ROOT = resolve(import.meta.dirname, '..', '..')
const PROJECT = join(ROOT, 'test', 'fixtures', 'plugin-evidence')
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

async function vitest(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number }> {
  // The child must not believe it is one of this run's workers.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [VITEST, 'run', '--config', join(PROJECT, 'vitest.config.ts'), ...args], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env } })
    return { stdout, stderr, code: 0 }
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: unknown }
    if (typeof failed.code !== 'number') throw error
    return { stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', code: failed.code }
  }
}

function records(dir: string): EvidenceRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.evidence.yaml'))
    .sort()
    .map((name) => (parse(readFileSync(join(dir, name), 'utf8')) as EvidenceRecord[])[0] as EvidenceRecord)
}

const withoutClock = (all: EvidenceRecord[]) => all.map(({ observed_at: _observedAt, ...rest }) => rest)

let out = ''
let json = ''
let run = { stdout: '', stderr: '', code: 0 }

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'vh-plugin-evidence-'))
  json = join(mkdtempSync(join(tmpdir(), 'vh-plugin-json-')), 'report.json')
  run = await vitest([], { VH_EVIDENCE_OUT: out, VH_JSON_OUT: json })
}, 120_000)

describe('harness({ evidence }) in a Vitest run', () => {
  it('registers the evidence reporter, which writes the run’s records', () => {
    expect(run.code, run.stderr).toBe(0)
    const all = records(out)
    expect(all.map((record) => `${record.kind} ${record.kind === 'trace_conformance' ? record.specification : record.kind === 'test_result' ? record.selector : ''}`)).toEqual([
      'test_result ordinary.test.ts',
      'test_result trace.test.ts',
      'trace_conformance e2e/read-before-answer',
    ])
    const [ordinary, traceFile, trace] = all
    // The plugin's options reached the reporter: the suite name is the one configured.
    expect(ordinary).toMatchObject({ kind: 'test_result', suite: 'integration', passed: 1, failed: 0, skipped: 1 })
    expect(traceFile).toMatchObject({ kind: 'test_result', suite: 'integration', passed: 3, failed: 0 })
    expect(trace).toMatchObject({
      kind: 'trace_conformance',
      status: 'passed',
      expectations_total: 3,
      expectations_gapped: 0,
      adapter: 'codex/exec-json via metaharness/event-stream (written against metaharness.event/1)',
      transcript_digest: sha256Hex(readFileSync(join(ROOT, 'test', 'e2e', 'fixtures', 'codex', 'exec.jsonl'))),
    })
    expect(run.stdout).toContain('[vitest-harness] evidence: 3 evidence document(s) in')
  })

  it('writes provenance that reproduces the run: the config it ran under, inputs relative to the root', () => {
    // The fixture names its spec and transcript by absolute path; the record must not carry this machine's folders.
    const trace = records(out).find((record) => record.kind === 'trace_conformance')
    const inputs = ['../../e2e/fixtures/read-before-answer.trace.yaml', '../../e2e/fixtures/codex/exec.jsonl', 'trace.test.ts']
    expect(trace?.provenance).toMatchObject({ command: 'npx vitest run --config vitest.config.ts trace.test.ts', inputs })
    const listing = inputs.map((input) => `${sha256Hex(readFileSync(join(PROJECT, input)))}  ${input}\n`).join('')
    expect(trace?.provenance?.digest).toBe(sha256Hex(listing))
  })

  it('leaves the project’s own reporters in place', () => {
    expect(run.stdout).toContain('Test Files  2 passed')
    expect(existsSync(json)).toBe(true)
    expect((JSON.parse(readFileSync(json, 'utf8')) as { numPassedTests: number }).numPassedTests).toBe(4)
  })

  it('mints nothing on a blob shard, and the same evidence when the blobs are merged with the shards’ key', async () => {
    const shards = mkdtempSync(join(tmpdir(), 'vh-plugin-shards-'))
    const blobs = mkdtempSync(join(tmpdir(), 'vh-plugin-blobs-'))
    // The trace checks' proofs are signed in the shards and checked in the merge: one key for all.
    const key = { [TRACE_PROOF_KEY_ENV]: '0123456789abcdef'.repeat(4) }
    for (const index of [1, 2]) {
      const shard = await vitest(['--reporter=blob', `--shard=${index}/2`, `--outputFile=${join(blobs, `blob-${index}-2.json`)}`], { VH_EVIDENCE_OUT: shards, ...key })
      expect(shard.code, shard.stderr).toBe(0)
    }
    expect(readdirSync(shards)).toEqual([])
    const merged = mkdtempSync(join(tmpdir(), 'vh-plugin-merged-'))
    const merge = await vitest([`--merge-reports=${blobs}`], { VH_EVIDENCE_OUT: merged, VH_JSON_OUT: join(mkdtempSync(join(tmpdir(), 'vh-plugin-json-')), 'report.json'), ...key })
    expect(merge.code, merge.stderr).toBe(0)
    expect(withoutClock(records(merged))).toEqual(withoutClock(records(out)))
    // A merge that holds another key cannot tell the shards' trace meta from meta written by hand.
    const unkeyed = mkdtempSync(join(tmpdir(), 'vh-plugin-unkeyed-'))
    const other = await vitest([`--merge-reports=${blobs}`], { VH_EVIDENCE_OUT: unkeyed, VH_JSON_OUT: join(mkdtempSync(join(tmpdir(), 'vh-plugin-json-')), 'report.json') })
    expect(records(unkeyed).map((record) => record.kind)).toEqual(['test_result', 'test_result'])
    expect(other.stdout).toContain(`another run's key signed it (a sharded run needs one ${TRACE_PROOF_KEY_ENV} in every shard and in --merge-reports)`)
  }, 180_000)
})

describe('harness({ evidence }) options', () => {
  it('is off by default, takes true for the defaults or the reporter’s options, and refuses anything else', () => {
    expect(normaliseHarnessOptions({}).evidence).toBe(false)
    expect(normaliseHarnessOptions({ provider: false }).evidence).toBe(false)
    expect(normaliseHarnessOptions({ evidence: true }).evidence).toEqual(EVIDENCE_REPORTER_DEFAULTS)
    expect(normaliseHarnessOptions({ evidence: { outDir: 'out', format: 'json' } }).evidence).toMatchObject({ outDir: 'out', format: 'json', suite: 'unit', html: false })
    expect(normaliseHarnessOptions({ evidence: { html: true } }).evidence).toMatchObject({ html: { outDir: 'trace-reports' } })
    expect(() => normaliseHarnessOptions({ evidence: 'yes' as never })).toThrow('harness({ evidence }) must be true, false or the evidence reporter options; got "yes"')
    expect(() => normaliseHarnessOptions({ evidence: { format: 'xml' as never } })).toThrow("evidence reporter option format is \"xml\"; expected one of 'yaml', 'json'")
  })
})
