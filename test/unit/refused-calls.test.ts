import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { convertTextSync } from '../../adapters/transcript/read.js'

// Real harnesses refusing one `rm` call (test/fixtures/refused-calls/README.md). "Nothing refused"
// must never hold over any of them: a gap where the record names the refusal, unknown where it
// cannot. Before, opencode's, Gemini CLI's and both Codex records gave `ok` from a census of zeros
// that no seam had counted. Nor must "rm ran": the call was asked for and never made, and every
// one of these records says which call it refused, so it is a gap.
const DIR = resolve(import.meta.dirname, '../fixtures/refused-calls')
const SPEC = readSpec(`format: trace-spec/1
id: refused-calls
expectations:
  - id: nothing-refused
    expect: {permission.denied: {count: {at_most: 0}}}
  - id: one-refused
    expect: {permission.denied: {count: {exactly: 1}}}
  - id: rm-ran
    expect: {tool.called: {operations: [shell], subject: {glob: "proc:rm"}}}
`)

async function outcomes(file: string): Promise<Record<string, string>> {
  const report = await checkTranscriptFile(SPEC, resolve(DIR, file))
  return Object.fromEntries(report.expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome]))
}

describe('a call the harness refused, as each real harness recorded it', () => {
  it.each([
    ['claude.stream.jsonl', 'the result record lists it', 'gap'],
    ['qwen.stream.jsonl', 'the result record lists it', 'gap'],
    ['opencode.run.jsonl', 'only the part’s error names it', 'gap'],
    ['gemini.stream.jsonl', 'only the result’s policy_violation names it', 'gap'],
    ['codex.rollout.jsonl', 'only the call’s answer names it, in Codex’s words', 'gap'],
    ['codex-policy.rollout.jsonl', 'only the call’s answer names it: Codex’s own rule against `rm -f`, under its default sandbox', 'gap'],
  ])('%s: counted once (%s)', async (file, _how, ran) => {
    expect(await outcomes(file)).toEqual({ 'nothing-refused': 'gap', 'one-refused': 'ok', 'rm-ran': ran })
  })

  it.each([
    ['claude.session.jsonl', 'the answer’s `toolDenialKind: user-rejected`', 'gap'],
    ['qwen.session.jsonl', 'the result’s `errorType: execution_denied`', 'gap'],
    ['gemini.session.jsonl', 'the call’s error, in Gemini CLI’s words: "Tool execution denied by policy."', 'gap'],
  ])('%s, the same run’s session file: no terminal record to count from, and the rm never ran (%s)', async (file, _how, ran) => {
    expect(await outcomes(file)).toEqual({ 'nothing-refused': 'unknown:no_run_outcome', 'one-refused': 'unknown:no_run_outcome', 'rm-ran': ran })
  })

  it.each(['codex.exec.jsonl', 'codex-policy.exec.jsonl'])('%s: unknown, since Codex lists no denials, no seam counted them, and its stdout holds no item for the call', async (file) => {
    expect(await outcomes(file)).toEqual({ 'nothing-refused': 'unknown:field_absent', 'one-refused': 'unknown:field_absent', 'rm-ran': 'gap' })
  })

  it('the refusal really is in the Codex rollout, and nowhere in exec --json', () => {
    // The rollout holds the call and Codex's refusal; exec --json has no item for the call at all.
    expect(readFileSync(join(DIR, 'codex.rollout.jsonl'), 'utf8')).toContain('reject command')
    expect(readFileSync(join(DIR, 'codex.exec.jsonl'), 'utf8')).not.toContain('victim.txt')
    expect(readFileSync(join(DIR, 'codex-policy.rollout.jsonl'), 'utf8')).toContain('rm -f style commands are not permitted')
    expect(readFileSync(join(DIR, 'codex-policy.exec.jsonl'), 'utf8')).not.toContain('junk.txt')
  })
})

describe('a call the harness’s own approver refused, where the projection lists none', () => {
  it('b10x: an approval denied, then finished, is one denial, though the projection’s permission_denials is []', async () => {
    // The loop records of upstream's enforcement fixture (b10x/enforcement/approval-denied.jsonl), finished.
    const loop = [
      { kind: 'tool-requested', call_id: 'call_b10x_001', name: 'file_write', arguments: { path: 'note.md', text: 'written by the harness\n' }, subjects: ['file:note.md'] },
      { kind: 'approval-required', call_id: 'call_b10x_001', name: 'file_write' },
      { kind: 'approval-resolved', call_id: 'call_b10x_001', approved: false },
      { kind: 'tool-completed', call_id: 'call_b10x_001', failed: true },
      { kind: 'finished', stop: { kind: 'completed' }, turns: 1 },
    ]
    const file = join(mkdtempSync(join(tmpdir(), 'vh-refused-')), 'loop.jsonl')
    writeFileSync(file, loop.map((record) => JSON.stringify(record)).join('\n') + '\n')
    expect(await outcomes(file)).toMatchObject({ 'nothing-refused': 'gap', 'one-refused': 'ok' })
    // The write was asked for and never made: a floor on writes is a gap (the enriched warning names
    // the call), and over upstream's projection, whose warning names none, unknown — never ok.
    const wrote = readSpec('format: trace-spec/1\nid: wrote\nexpectations:\n  - id: wrote\n    expect: {tool.called: {tool: file_write}}\n')
    expect((await checkTranscriptFile(wrote, file)).expectations[0]?.outcome).toMatchObject({ outcome: 'gap' })
    const upstream = join(mkdtempSync(join(tmpdir(), 'vh-refused-')), 'upstream.jsonl')
    writeFileSync(upstream, convertTextSync(loop.map((record) => JSON.stringify(record)).join('\n') + '\n', 'b10x/loop-jsonl', { seam: { projection: 'upstream' } }))
    expect((await checkTranscriptFile(wrote, upstream)).expectations[0]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'calls_refused' })
  })
})

describe('a refused call in a dsh session from the wild (test/fixtures/wild/dsh)', () => {
  const ran = readSpec('format: trace-spec/1\nid: ran\nexpectations:\n  - id: shell-ran\n    expect: {tool.called: {operations: [shell]}}\n')
  const outcome = async (file: string) => (await checkTranscriptFile(ran, resolve(DIR, '../wild/dsh', file))).expectations[0]?.outcome

  it('an escalation the user rejected: the approval asked names the call, and its one shell call never ran', async () => {
    expect(await outcome('escalation-rejected--session.jsonl')).toMatchObject({ outcome: 'gap', note: expect.stringContaining('the harness refused 1 of them') })
  })

  it('a PreToolUse hook that blocked the one call names no call: unknown, not ok', async () => {
    expect(await outcome('hook-cc-pretool-deny--session.jsonl')).toMatchObject({ outcome: 'undecidable', reason: 'calls_refused' })
  })
})
