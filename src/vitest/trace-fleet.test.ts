import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { EVIDENCE_SET_MANIFEST } from '../evidence/set-manifest.js'
import type { EvidenceRecord } from '../evidence/types.js'
import { fleetTranscripts } from './trace-fleet.js'
import { TRACE_PROOF_KEY_ENV } from './trace-proof.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SUITE = join(ROOT, 'test', 'fixtures', 'fleet-suite')
const CONFIG = join(SUITE, 'vitest.config.ts')
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const WILD = join(ROOT, 'test', 'fixtures', 'wild')

async function vitest(args: string[], env: Record<string, string>): Promise<string> {
  // The child must not believe it is one of this run's workers.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_OPTIONS' && key !== 'TEST'))
  try {
    return (await promisify(execFile)(process.execPath, [VITEST, 'run', '--config', CONFIG, ...args], { cwd: ROOT, env: { ...clean, ...env }, maxBuffer: 32 * 1024 * 1024 })).stdout
  } catch (error) {
    // Some transcripts gap on purpose: the run fails, its evidence is still written.
    const failed = error as { stdout?: string; code?: number }
    if (typeof failed.code !== 'number') throw error
    return failed.stdout ?? ''
  }
}

/** The evidence set's documents, its manifest aside (it names the run), with observed_at masked. */
function documents(dir: string): [string, string][] {
  return readdirSync(dir)
    .filter((name) => name !== EVIDENCE_SET_MANIFEST)
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), 'utf8').replace(/^( {2})observed_at: \d+$/gm, '$1observed_at: <time>')])
}

describe('describeTraceSpec over a glob', () => {
  it('names one transcript per file the glob matches, in code-point order, and nothing for a plain path', () => {
    const fleet = fleetTranscripts(`${WILD}/pi/*.jsonl`, ROOT)
    expect(fleet?.map((entry) => entry.label)).toEqual(readdirSync(join(WILD, 'pi')).filter((name) => name.endsWith('.jsonl')).sort().map((name) => `test/fixtures/wild/pi/${name}`))
    expect(fleetTranscripts(join(WILD, 'pi', 'v1-large-session.jsonl'), ROOT)).toBeUndefined()
    expect(fleetTranscripts({ glob: ['test/fixtures/wild/hermes/*.json', 'test/fixtures/wild/pi/v1-*'] }, ROOT)).toHaveLength(6)
    expect(() => fleetTranscripts({ glob: 'test/fixtures/wild/none-*' }, ROOT)).toThrow(/VH_FLEET_EMPTY/)
  })

  it('reads a final ** as the transcript files below, as the CLI fleet does, never a folder as one transcript', () => {
    const labels = (glob: string) => fleetTranscripts({ glob }, ROOT)?.map((entry) => entry.label)
    const everything = labels('test/fixtures/wild/**')
    expect(everything).toEqual(labels('test/fixtures/wild/**/*.json*'))
    expect(everything).toContain('test/fixtures/wild/pi/v1-large-session.jsonl')
    expect(everything).not.toContain('test/fixtures/wild/pi')
    expect(labels('test/fixtures/wild/pi/**')).toEqual(labels('test/fixtures/wild/pi/*.jsonl'))
  })

  it('spreads a fleet over 3 shards whose merged evidence is a single run’s', async () => {
    const work = mkdtempSync(join(tmpdir(), 'vh-fleet-shards-'))
    const key = { [TRACE_PROOF_KEY_ENV]: 'e'.repeat(64) }
    const single = join(work, 'single')
    await vitest([], { VH_EVIDENCE_OUT: single, ...key })
    const blobs = join(work, 'blobs')
    for (const shard of [1, 2, 3]) await vitest([`--shard=${shard}/3`, '--reporter=blob', `--outputFile.blob=${join(blobs, `blob-${shard}-3.json`)}`], key)
    // Each shard ran one file's transcripts: the fleet was spread, not repeated.
    for (const file of ['pi.test.ts', 'codex-exec.test.ts', 'hermes.test.ts']) {
      expect(readdirSync(blobs).filter((blob) => readFileSync(join(blobs, blob), 'utf8').includes(`"${file}"`)), file).toHaveLength(1)
    }
    const merged = join(work, 'merged')
    await vitest([`--merge-reports=${blobs}`], { VH_EVIDENCE_OUT: merged, ...key })

    const expected = documents(single)
    const traces = expected.filter(([name]) => name.endsWith('.evidence.yaml')).map(([, text]) => (parse(text) as EvidenceRecord[])[0] as EvidenceRecord).filter((record) => record.kind === 'trace_conformance')
    // One trace_conformance record per transcript of the three folders.
    const transcripts = ['pi', 'codex-exec-json', 'hermes'].reduce((sum, folder) => sum + readdirSync(join(WILD, folder)).filter((name) => name !== 'MANIFEST.md').length, 0)
    expect(traces).toHaveLength(transcripts)
    expect(documents(merged)).toEqual(expected)
  }, 240_000)
})
