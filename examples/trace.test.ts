import 'vitest-harness/setup' // normally in `test.setupFiles`; imported here so this file stands alone
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkEvents, checkTranscriptFile, describeTraceSpec, loadVectorManifest, readSpecFile, reportToText, spec, splitTextLines, vectorFile, verdictSentence } from 'vitest-harness'
import { findAdapter } from 'vitest-harness/adapters'

// Trace specifications in Vitest. The spec and the transcript are this example's own: a small
// b10x-harness run that fixed a failing slug test (examples/trace/). The reports are written to
// demo-output/trace/ for a person to read.
const specPath = fileURLToPath(new URL('trace/b10x-fix.trace.yaml', import.meta.url))
const transcriptPath = fileURLToPath(new URL('trace/b10x-fix.jsonl', import.meta.url))
const outDir = join(process.env['VITEST_HARNESS_DEMO_OUT'] ?? 'demo-output', 'trace')

// One test per expectation. The transcript records no billed thinking tokens, so that gating row
// cannot be decided: with `unknown: 'todo'` it is reported todo (never passed); the advisory rows
// are annotated and gate nothing.
describeTraceSpec(specPath, transcriptPath, { unknown: 'todo' })

describe('the same checks as assertions', () => {
  it('the run satisfies the specification once the undecidable row is advisory', () => {
    expect(transcriptPath).toSatisfyTraceSpec(specPath, { advisory: ['thinking-was-billed'] })
  })

  it('one inline expectation at a time', () => {
    expect(transcriptPath).toSatisfyExpectation({ 'tool.called': { operations: ['file.edit'], subject: { glob: 'file:src/*' }, count: { exactly: 1 } } })
    expect(transcriptPath).not.toSatisfyExpectation({ 'tool.called': { tools: ['file_write'] } }, { statement: 'nothing was written whole' })
  })

  it('writes the report a person reads, and the JSON a program reads', async () => {
    const report = await checkTranscriptFile(readSpecFile(specPath), transcriptPath, { advisory: ['thinking-was-billed'] })
    mkdirSync(outDir, { recursive: true })
    writeFileSync(join(outDir, 'b10x-fix.report.txt'), `${reportToText(report)}${verdictSentence(report)}\n`)
    writeFileSync(join(outDir, 'b10x-fix.report.json'), `${JSON.stringify(report, null, 2)}\n`)
    expect(report.verdict).toBe('ok')
  })
})

describe("a harness's own record, through its adapter, into the same checker", () => {
  it('checks the golden b10x loop the package ships, as its replayed stream', () => {
    const vector = loadVectorManifest(fileURLToPath(new URL('../vectors/b10x/golden-loop-record', import.meta.url)))
    const adapter = findAdapter('b10x')
    if (vector.kind !== 'replay' || !adapter) throw new Error('the golden loop is a b10x replay vector')
    const projector = adapter.createProjector({ run: vector.inputs.seam.run, harnessVersion: '0.12.1', model: 'b10x-emulated' })
    const loop = readFileSync(vectorFile(vector, vector.inputs.record), 'utf8')
    const emissions = [...splitTextLines(loop).flatMap((line, index) => projector.pushLine(line, index + 1)), ...projector.finish()]
    const written = spec({
      id: 'examples/golden-loop',
      expectations: [
        { id: 'read-the-notes', expect: { 'tool.called': { tool: 'file_read', subject: { exact: 'file:NOTES.md' } } } },
        { id: 'answered', expect: { 'text.matches': { regex: '\\w' } } },
        { id: 'finished', expect: { result: { is_error: false } } },
      ],
    })
    const report = checkEvents(written, emissions, { run: vector.inputs.seam.run })
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['read-the-notes', 'ok'],
      ['answered', 'ok'],
      ['finished', 'ok'],
    ])
  })
})
