import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { ReportInputError } from './errors.js'
import type { ReportData } from './model.js'
import { readProviderLog } from './provider-log.js'

const line = (over: Record<string, unknown>) =>
  JSON.stringify({ seq: 1, scope: 'default', wire: 'openai-responses', method: 'POST', path: '/v1/responses', model: 'vh-emulated', stream: true, tool_names: ['read_file'], body_sha256: 'ab', body_bytes: 10, credential_header: 'authorization', credential_present: true, credential_length: 28, outcome: 'replayed', status: 200, ...over })

/** The data a written page embeds, read back as the page's script reads it. */
function pageData(path: string): ReportData {
  const html = readFileSync(path, 'utf8')
  const json = /<script type="application\/json" id="vh-data">(.*?)<\/script>/s.exec(html)?.[1] ?? ''
  return JSON.parse(json) as ReportData
}

describe('a provider request log', () => {
  it('lists every request, matched or missed, with where a miss differs from the nearest recording', () => {
    const view = readProviderLog(`${line({})}\n${line({ seq: 2, outcome: 'miss', status: 500, nearest: 1, differs_at: '$.input[1].content' })}\n`, 'requests.jsonl')
    expect(view.requests.map((request) => [request.seq, request.matched, request.differsAt])).toEqual([
      [1, true, null],
      [2, false, '$.input[1].content'],
    ])
  })

  it('refuses a line that is not a request log line, naming the line and the field', () => {
    const refusal = (() => {
      try {
        readProviderLog(`${line({})}\n${line({ outcome: 'maybe' })}\n`, 'requests.jsonl')
      } catch (error) {
        return error
      }
    })()
    expect(refusal).toBeInstanceOf(ReportInputError)
    expect(refusal).toMatchObject({ code: 'VH_REPORT_NOT_REQUEST_LOG', location: 'line 2: $.outcome' })
  })
})

describe('vitest-harness report --contract', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vh-report-contract-'))
    cpSync(join(import.meta.dirname, '../../vectors/b10x/golden-loop-record'), join(dir, 'vectors', 'golden-loop-record'), { recursive: true })
    const expected = join(dir, 'vectors', 'golden-loop-record', 'loop.expected.jsonl')
    writeFileSync(expected, readFileSync(expected, 'utf8').replace('"input_tokens":42,', '"input_tokens":43,'))
    writeFileSync(join(dir, 'requests.jsonl'), `${line({})}\n${line({ seq: 2, outcome: 'miss', status: 500, nearest: 1, differs_at: '$.model' })}\n`)
  })

  it("shows every vector, a failure's first difference by JSON path with both values, and the provider's requests", async () => {
    const run = await runCli(['report', '--contract', 'b10x', '--vectors', 'vectors', '--requests', 'requests.jsonl', '--out', 'contract.html'], { cwd: dir })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('(0 events, 1 vectors, 1 failed, 2 requests, 1 unmatched,')
    const data = pageData(join(dir, 'contract.html'))
    expect(data.contract?.vectors).toEqual([
      expect.objectContaining({ id: 'golden-loop-record', status: 'fail', firstDifference: '$.usage.input_tokens: expected 43, got 42 (line 3)', detail: expect.stringMatching(/^line 3: expected /) }),
    ])
    expect(data.provider?.requests.map((request) => request.outcome)).toEqual(['replayed', 'miss'])
  })

  it('refuses an adapter it does not know, and --vectors without --contract', async () => {
    expect((await runCli(['report', '--contract', 'nope'], { cwd: dir })).code).toBe(2)
    expect((await runCli(['report', '--vectors', 'vectors', '--requests', 'requests.jsonl'], { cwd: dir })).code).toBe(2)
    expect((await runCli(['report'], { cwd: dir })).code).toBe(2)
  })
})
