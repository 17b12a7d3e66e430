import { lstatSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyEvidenceSet } from '../../evidence/evidence-set-verify.js'
import { setsFolder } from '../../evidence/evidence-set.js'
import { EVIDENCE_SET_MANIFEST } from '../../evidence/set-manifest.js'
import EvidenceReporter from './evidence.js'

// The run-level rules, on the reporter itself (the suite-level ones run a real vitest in
// test/unit/evidence-reporter.test.ts).
function folderWithAnOldRun(withNotes: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'vh-evidence-reporter-'))
  writeFileSync(join(dir, 'test_result.a-test-ts.0123abcd.evidence.yaml'), '- kind: test_result\n')
  writeFileSync(join(dir, 'contract_result.b10x.0123abcd.line.json'), '{}\n')
  if (withNotes) writeFileSync(join(dir, 'notes.md'), 'mine\n')
  return dir
}

function quietly(run: () => void): string[] {
  const logged: string[] = []
  const log = console.log
  console.log = (...args: unknown[]) => void logged.push(args.join(' '))
  try {
    run()
  } finally {
    console.log = log
  }
  return logged
}

describe('EvidenceReporter', () => {
  it.each([
    ['an interrupted run', [], 'interrupted'],
    ['a run with an error no test owns', [{ message: 'boom' }], 'failed'],
  ] as const)('swaps in an empty set for %s, so the earlier documents no longer stand', (_, errors, reason) => {
    const dir = folderWithAnOldRun(false)
    const logged = quietly(() => new EvidenceReporter({ outDir: dir }).onTestRunEnd([], errors as never, reason))
    expect(lstatSync(dir).isSymbolicLink()).toBe(true)
    expect(readdirSync(dir)).toEqual([EVIDENCE_SET_MANIFEST])
    expect(verifyEvidenceSet(dir).problems).toEqual([])
    // The older layout held only the reporter's own files: nothing of it is kept.
    expect(readdirSync(setsFolder(dir))).toHaveLength(1)
    expect(logged).toEqual([expect.stringMatching(/^\[vitest-harness\] evidence: .*so no evidence was written$/)])
  })

  it('keeps a file of the user’s from the older layout aside, and says where', () => {
    const dir = folderWithAnOldRun(true)
    const logged = quietly(() => new EvidenceReporter({ outDir: dir }).onTestRunEnd([], [], 'interrupted'))
    const legacy = readdirSync(setsFolder(dir)).find((name) => name.startsWith('legacy-')) as string
    expect(readFileSync(join(setsFolder(dir), legacy, 'notes.md'), 'utf8')).toBe('mine\n')
    expect(logged.join('\n')).toContain(`it is kept as ${join(setsFolder(dir), legacy)}`)
  })

  it('carries the earlier documents into the new set when clean is off', () => {
    const dir = folderWithAnOldRun(false)
    quietly(() => new EvidenceReporter({ outDir: dir, clean: false }).onTestRunEnd([], [], 'passed'))
    expect(lstatSync(dir).isSymbolicLink()).toBe(true)
    expect(readdirSync(dir).sort()).toEqual(['contract_result.b10x.0123abcd.line.json', EVIDENCE_SET_MANIFEST, 'test_result.a-test-ts.0123abcd.evidence.yaml'])
    expect(verifyEvidenceSet(dir).problems).toEqual([])
  })

  it('refuses options it cannot use when constructed', () => {
    expect(() => new EvidenceReporter({ format: 'xml' } as never)).toThrow(/\[vitest-harness\] evidence reporter option format is "xml"/)
  })
})
