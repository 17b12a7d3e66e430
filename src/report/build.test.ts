import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { call, closed, ended, metaharness, opaque, request, result, start, text } from '../../test/helpers/trace.js'
import { checkTranscriptText } from '../trace/check/check.js'
import { readSpec } from '../trace/spec/read.js'
import { buildCheckOnlyReport, buildRunReport } from './build.js'
import { CLIP_CHARS } from './clip.js'
import type { ReportData } from './model.js'

const SPEC = readSpec(`format: trace-spec/1
id: unit/report
expectations:
  - id: ran-the-suite
    expect: {tool.called: {tool: Bash, args: {command: {contains: "npm test"}}}}
  - id: no-write
    expect: {tool.absent: {tool: Write}}
  - id: thinking-billed
    expect: {tokens.thinking: {count: {at_most: 10}}}
`)

const LONG = 'x'.repeat(CLIP_CHARS + 100)
const TRANSCRIPT = metaharness([
  start(),
  { event: 'thinking', text: 'let me think' },
  call('c-1', 'Bash', { command: 'npm test' }),
  request('r-1', { input_tokens: 30, output_tokens: 5 }),
  result('c-1', { content: LONG }),
  call('c-2', 'Write', { file_path: 'a.ts', content: 'x' }),
  result('c-2'),
  opaque(),
  text('done'),
  request('r-2', { input_tokens: 40, output_tokens: 7 }),
  ended({ usage: { input_tokens: 70, output_tokens: 12 } }),
  closed(11),
])

async function* chunks(text: string): AsyncGenerator<string> {
  yield text
}

let data: ReportData

beforeAll(async () => {
  data = await buildRunReport(chunks(TRANSCRIPT), { spec: SPEC, source: 'run.jsonl' })
})

describe('the report data model', () => {
  it('has one timeline entry per IR event, entry i at IR index i, each with its transcript line', () => {
    expect(data.events.map((entry) => entry.i)).toEqual(data.events.map((_, index) => index))
    expect(data.events.map((entry) => entry.kind)).toEqual(['session', 'thinking', 'call', 'result', 'call', 'result', 'opaque', 'text', 'outcome'])
    expect(data.events[2]).toMatchObject({ kind: 'call', name: 'Bash', line: 3, result: 3 })
    expect(data.events[3]).toMatchObject({ kind: 'result', call: 2 })
  })

  it('cites the same indices the checker cites, so a link lands on the event that decided', () => {
    const report = checkTranscriptText(SPEC, TRANSCRIPT)
    const gap = data.check?.expectations.find((row) => row.id === 'no-write')
    expect(gap).toMatchObject({ verdict: 'gap', events: report.expectations[1]?.outcome['events'] })
    expect(gap?.events).toEqual([4])
    expect(data.events[4]).toMatchObject({ kind: 'call', name: 'Write' })
  })

  it('gives an unknown row its reason, as a code and as the sentence', () => {
    const unknown = data.check?.expectations.find((row) => row.id === 'thinking-billed')
    expect(unknown).toMatchObject({ verdict: 'unknown', reason: 'field_absent', explanation: 'this transcript records no `usage.thinking_tokens`' })
  })

  it('cuts long output at the limit and keeps its full size; flags an opaque record with its type', () => {
    expect(data.events[3]).toMatchObject({ kind: 'result', content: { bytes: LONG.length, truncated: true } })
    const result = data.events[3]
    expect(result?.kind === 'result' && result.content.text.length).toBe(CLIP_CHARS)
    expect(data.events[6]).toMatchObject({ kind: 'opaque', type: 'quantum_event' })
  })

  it('carries usage per request, the event each came after, and the totals', () => {
    expect(data.requests.map((request) => [request.requestId, request.inputTokens, request.afterEvent])).toEqual([
      ['r-1', 30, 2],
      ['r-2', 40, 7],
    ])
    expect(data.totals).toMatchObject({ requests: 2, inputTokens: 70, outputTokens: 12, costUsd: 0.25 })
    expect(data.session).toMatchObject({ harnessVersion: '2.1.239', model: 'claude-sonnet-5', tools: ['Bash', 'Read', 'Skill', 'Write'] })
    expect(data.closure).toBe('stream.closed')
  })

  it('shows a trace-report/1 alone as its verdicts with no timeline', () => {
    const only = buildCheckOnlyReport(checkTranscriptText(SPEC, TRANSCRIPT))
    expect(only.events).toEqual([])
    expect(only.check?.expectations.map((row) => row.verdict)).toEqual(['ok', 'gap', 'unknown'])
  })
})

describe('vitest-harness report', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vh-report-'))
    writeFileSync(join(dir, 'run.jsonl'), TRANSCRIPT)
    writeFileSync(join(dir, 'spec.yaml'), 'format: trace-spec/1\nid: unit/cli-report\nexpectations:\n  - id: no-write\n    expect: {tool.absent: {tool: Write}}\n')
    writeFileSync(join(dir, 'not-a-report.json'), '{"format":"trace-report/1","spec_id":7}')
  })

  it('writes one page from a transcript and a spec, and says what it holds', async () => {
    const run = await runCli(['report', '--transcript', 'run.jsonl', '--spec', 'spec.yaml', '--out', 'out/report.html'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`wrote ${join(dir, 'out/report.html')} (9 events, 1 expectations, verdict gap, ${readFileSync(join(dir, 'out/report.html')).length} bytes)\n`)
  })

  it('reads a trace report saved by check --format json', async () => {
    const saved = await runCli(['check', '--spec', 'spec.yaml', '--transcript', 'run.jsonl', '--format', 'json'], { cwd: dir })
    writeFileSync(join(dir, 'report.json'), saved.stdout)
    const run = await runCli(['report', '--trace-report', 'report.json', '--out', 'only.html'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(readFileSync(join(dir, 'only.html'), 'utf8')).toContain('"specId":"unit/cli-report"')
  })

  it('refuses a document that is not a trace report, naming the field, with exit 2', async () => {
    const run = await runCli(['report', '--trace-report', 'not-a-report.json'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: not-a-report\.json: \$\.spec_id: not a trace-report\/1 document: .* \(VH_REPORT_NOT_TRACE_REPORT\)\n$/)
  })

  it('refuses a spec without a transcript', async () => {
    const run = await runCli(['report', '--spec', 'spec.yaml', '--trace-report', 'report.json'], { cwd: dir })
    expect(run.code).toBe(2)
  })
})
