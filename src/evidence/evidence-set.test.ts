import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { evidenceSetDocuments } from '../../test/helpers/evidence-sets.js'
import { verifyEvidenceSet } from './evidence-set-verify.js'
import { currentSetId, newRunId, setsFolder, writeEvidenceSet } from './evidence-set.js'
import { EVIDENCE_SET_MANIFEST, evidenceSetManifestSchema } from './set-manifest.js'

const NOW = '2030-01-01'

function outDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'vh-evidence-set-')), 'evidence')
}

describe('writeEvidenceSet', () => {
  it('writes the set beside outDir, the manifest last, and points outDir at it', () => {
    const out = outDir()
    const runId = newRunId()
    const files = evidenceSetDocuments('first', 4)
    const written = writeEvidenceSet(out, runId, files)
    expect(lstatSync(out).isSymbolicLink()).toBe(true)
    expect(readlinkSync(out)).toBe(join('evidence.sets', runId))
    expect(currentSetId(out)).toBe(runId)
    expect(readdirSync(out).sort()).toEqual([EVIDENCE_SET_MANIFEST, ...files.map((file) => file.name)].sort())
    const manifest = evidenceSetManifestSchema.parse(JSON.parse(readFileSync(join(out, EVIDENCE_SET_MANIFEST), 'utf8')))
    expect(manifest).toEqual(written.manifest)
    // Documents 0 and 3 are failed trace checks, 1 a passed one, 2 a test_result (no status).
    expect(manifest).toMatchObject({ format: 'vitest-harness.evidence-set/1', run_id: runId, records: 4, counts: { passed: 1, failed: 2, inconclusive: 0 } })
    expect(Object.keys(manifest.documents)).toEqual(files.map((file) => file.name).sort())
    // The documents are the bytes given, untouched.
    expect(readFileSync(join(out, files[1]?.name as string), 'utf8')).toBe(files[1]?.bytes)
  })

  it('replaces the previous set whole and removes it, keeping only the current one', () => {
    const out = outDir()
    const first = writeEvidenceSet(out, newRunId(), evidenceSetDocuments('first', 3))
    const second = writeEvidenceSet(out, newRunId(), evidenceSetDocuments('second', 2))
    expect(second.replaced).toBe(first.manifest.run_id)
    expect(readdirSync(setsFolder(out))).toEqual([second.manifest.run_id])
    expect(readdirSync(out).filter((name) => name.includes('first'))).toEqual([])
  })

  it('keeps an older set someone wrote into by hand, and says so', () => {
    const out = outDir()
    const first = writeEvidenceSet(out, newRunId(), evidenceSetDocuments('first', 1))
    writeFileSync(join(out, 'notes.md'), 'mine\n')
    const second = writeEvidenceSet(out, newRunId(), [])
    expect(readdirSync(setsFolder(out)).sort()).toEqual([first.manifest.run_id, second.manifest.run_id].sort())
    expect(second.notes).toEqual([expect.stringMatching(/holds files its manifest does not list; it is kept$/)])
  })

  it('removes the unfinished set and the stray link of a writer that died', () => {
    const out = outDir()
    writeEvidenceSet(out, newRunId(), evidenceSetDocuments('first', 1))
    // pid 2^22+1 is above Linux's pid_max default ceiling: no live process has it.
    const dead = newRunId(Date.now(), 4_194_305)
    mkdirSync(join(setsFolder(out), dead))
    writeFileSync(join(setsFolder(out), dead, 'test_result.half.0123abcd.evidence.yaml'), '- kind: te')
    symlinkSync(join('evidence.sets', dead), join(out, '..', `.evidence.${dead}.link`))
    const next = writeEvidenceSet(out, newRunId(), [])
    expect(readdirSync(setsFolder(out))).toEqual([next.manifest.run_id])
    expect(readdirSync(join(out, '..')).filter((name) => name.endsWith('.link'))).toEqual([])
  })

  it('never removes a set whose writer is alive', () => {
    const out = outDir()
    // The parent of this process is alive: its unfinished set may still be swapped in.
    const alive = newRunId(Date.now() - 1000, process.ppid)
    mkdirSync(join(setsFolder(out), alive), { recursive: true })
    const next = writeEvidenceSet(out, newRunId(), [])
    expect(readdirSync(setsFolder(out)).sort()).toEqual([alive, next.manifest.run_id].sort())
  })

  it('refuses names that are not plain file names, and a file where outDir should be', () => {
    const out = outDir()
    expect(() => writeEvidenceSet(out, newRunId(), [{ name: '../escape.yaml', bytes: '' }])).toThrow(expect.objectContaining({ code: 'VH_EVIDENCE_SET' }))
    expect(() => writeEvidenceSet(out, newRunId(), [{ name: EVIDENCE_SET_MANIFEST, bytes: '' }])).toThrow(expect.objectContaining({ code: 'VH_EVIDENCE_SET' }))
    writeFileSync(out, 'not a folder')
    expect(() => writeEvidenceSet(out, newRunId(), [])).toThrow(expect.objectContaining({ code: 'VH_EVIDENCE_SET', message: expect.stringMatching(/is a file, not an evidence folder/) }))
  })
})

describe('evidence validate DIR', () => {
  function completeSet(): { out: string; names: string[] } {
    const out = outDir()
    const files = evidenceSetDocuments('set', 3)
    writeEvidenceSet(out, newRunId(), files)
    return { out, names: files.map((file) => file.name) }
  }

  it('accepts a complete set, then runs intake on each of its documents', async () => {
    const { out, names } = completeSet()
    const run = await runCli(['evidence', 'validate', '--now', NOW, out])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n')[0]).toMatch(new RegExp(`^${out}: evidence set \\d{13}-[0-9a-f]{8}-\\d+-[0-9a-f]{8} — 3 file\\(s\\) as its manifest lists them, 3 record\\(s\\); by status 1 passed, 1 failed, 0 inconclusive$`))
    for (const name of names) expect(run.stdout).toContain(`${join(out, name)}: 1 record — 1 accepted, 0 refused\n`)
  })

  it.each([
    ['a document deleted', (out: string, names: string[]) => unlinkSync(join(out, names[1] as string)), 'VH_EVIDENCE_SET_MISSING'],
    ['a document changed', (out: string, names: string[]) => writeFileSync(join(out, names[0] as string), readFileSync(join(out, names[0] as string), 'utf8').replace('status: failed', 'status: passed')), 'VH_EVIDENCE_SET_CHANGED'],
    ['a document added', (out: string) => writeFileSync(join(out, 'test_result.extra.0123abcd.evidence.yaml'), '[]\n'), 'VH_EVIDENCE_SET_EXTRA'],
    ['the manifest removed', (out: string) => rmSync(join(out, EVIDENCE_SET_MANIFEST)), 'VH_EVIDENCE_SET_NO_MANIFEST'],
    ['the manifest not JSON', (out: string) => writeFileSync(join(out, EVIDENCE_SET_MANIFEST), '{'), 'VH_EVIDENCE_SET_BAD_MANIFEST'],
    [
      'the counts rewritten',
      (out: string) => {
        const manifest = JSON.parse(readFileSync(join(out, EVIDENCE_SET_MANIFEST), 'utf8')) as { counts: { passed: number; failed: number } }
        writeFileSync(join(out, EVIDENCE_SET_MANIFEST), JSON.stringify({ ...manifest, counts: { ...manifest.counts, passed: 2, failed: 0 } }))
      },
      'VH_EVIDENCE_SET_COUNTS',
    ],
  ])('refuses a set with %s (exit 2), naming the file and the code', async (_, tamper, code) => {
    const { out, names } = completeSet()
    tamper(out, names)
    expect(verifyEvidenceSet(out).problems.map((problem) => problem.code)).toEqual([code])
    const run = await runCli(['evidence', 'validate', '--now', NOW, out])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`: ${code}: `)
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`error: ${out}: refused — not the complete evidence set its manifest describes; none of its documents is read`)
  })

  it('refuses a plain folder of documents that has no manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-evidence-plain-'))
    writeFileSync(join(dir, 'a.evidence.yaml'), evidenceSetDocuments('plain', 1)[0]?.bytes as string)
    const run = await runCli(['evidence', 'validate', dir])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`error: ${join(dir, EVIDENCE_SET_MANIFEST)}: VH_EVIDENCE_SET_NO_MANIFEST: `)
  })
})
