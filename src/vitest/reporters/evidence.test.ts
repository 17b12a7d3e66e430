import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import EvidenceReporter from './evidence.js'

// The run-level rules, on the reporter itself (the suite-level ones run a real vitest in
// test/unit/evidence-reporter.test.ts).
function folderWithAnOldRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vh-evidence-reporter-'))
  writeFileSync(join(dir, 'test_result.a-test-ts.0123abcd.evidence.yaml'), '- kind: test_result\n')
  writeFileSync(join(dir, 'contract_result.b10x.0123abcd.line.json'), '{}\n')
  writeFileSync(join(dir, 'notes.md'), 'mine\n')
  return dir
}

describe('EvidenceReporter', () => {
  it.each([
    ['an interrupted run', [], 'interrupted'],
    ['a run with an error no test owns', [{ message: 'boom' }], 'failed'],
  ] as const)('writes nothing for %s, and removes only its own earlier documents', (_, errors, reason) => {
    const dir = folderWithAnOldRun()
    const logged: unknown[] = []
    const log = console.log
    console.log = (...args: unknown[]) => void logged.push(args.join(' '))
    try {
      new EvidenceReporter({ outDir: dir }).onTestRunEnd([], errors as never, reason)
    } finally {
      console.log = log
    }
    expect(readdirSync(dir)).toEqual(['notes.md'])
    expect(logged).toEqual([expect.stringMatching(/^\[vitest-harness\] evidence: .*so no evidence was written$/)])
  })

  it('keeps earlier documents when clean is off', () => {
    const dir = folderWithAnOldRun()
    const log = console.log
    console.log = () => undefined
    try {
      new EvidenceReporter({ outDir: dir, clean: false }).onTestRunEnd([], [], 'passed')
    } finally {
      console.log = log
    }
    expect(readdirSync(dir).sort()).toEqual(['contract_result.b10x.0123abcd.line.json', 'notes.md', 'test_result.a-test-ts.0123abcd.evidence.yaml'])
  })

  it('refuses options it cannot use when constructed', () => {
    expect(() => new EvidenceReporter({ format: 'xml' } as never)).toThrow(/\[vitest-harness\] evidence reporter option format is "xml"/)
  })
})
