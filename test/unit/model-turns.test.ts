import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inspectTranscriptFile } from '../../src/trace/census.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// How many model requests and model turns a run took, over what real harnesses wrote. Each run in
// test/fixtures/refused-calls made two model requests (the call, then "Done."). A `num_turns` that
// counts the user's prompts (Codex, Gemini CLI), or a usage record that sums a turn's requests
// (Codex `exec --json`, Gemini CLI's stream-json), once let "at most one" hold over all of them.
const SPEC = readSpec(`format: trace-spec/1
id: model-turns
expectations:
  - id: one-request
    expect: {api_requests: {count: {at_most: 1}}}
  - id: some-request
    expect: {api_requests: {count: {at_least: 1}}}
  - id: no-request
    expect: {api_requests: {count: {at_most: 0}}}
  - id: one-turn
    expect: {turns: {count: {at_most: 1}}}
  - id: one-assistant-record
    expect: {events.assistant: {count: {at_most: 1}}}
  - id: input-never-shrinks
    expect: {usage.trend: {field: input_tokens, trend: non_decreasing}}
  - id: no-request-dominates
    expect: {usage.share: {field: input_tokens, at_most: 0.9}}
`)
const REFUSED = resolve(import.meta.dirname, '../fixtures/refused-calls')
const WILD_DSH = resolve(import.meta.dirname, '../fixtures/wild/dsh')

async function outcomes(path: string): Promise<Record<string, string>> {
  const report = await checkTranscriptFile(SPEC, path)
  return Object.fromEntries(report.expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome]))
}

describe('model requests and turns, as real harnesses recorded a two-request run', () => {
  it.each(['claude.stream.jsonl', 'qwen.stream.jsonl', 'opencode.run.jsonl'])('%s: both requests and both turns are counted', async (file) => {
    const verdicts = await outcomes(join(REFUSED, file))
    expect(verdicts).toMatchObject({ 'one-request': 'gap', 'some-request': 'ok', 'no-request': 'gap', 'one-turn': 'gap', 'one-assistant-record': 'gap', 'no-request-dominates': 'ok' })
  })

  it.each(['codex.exec.jsonl', 'gemini.stream.jsonl'])('%s: usage summed over the turn is a lower bound, and the turns are not counted', async (file) => {
    expect(await outcomes(join(REFUSED, file))).toEqual({
      'one-request': 'unknown:requests_unmarked',
      'some-request': 'ok',
      'no-request': 'gap',
      'one-turn': 'unknown:field_absent',
      'one-assistant-record': 'unknown:requests_unmarked',
      'input-never-shrinks': 'unknown:requests_unmarked',
      'no-request-dominates': 'unknown:requests_unmarked',
    })
  })

  it('codex.rollout.jsonl: each token report that moved is a request, and Codex counts no model turns', async () => {
    expect(await outcomes(join(REFUSED, 'codex.rollout.jsonl'))).toMatchObject({ 'one-request': 'gap', 'some-request': 'ok', 'one-turn': 'unknown:field_absent', 'no-request-dominates': 'unknown:stream_not_closed' })
  })

  it('the census says a summed record’s request count is a lower bound', async () => {
    const census = await inspectTranscriptFile(join(REFUSED, 'codex.exec.jsonl'))
    expect(census).toMatchObject({ api_requests: 1, requests_unmarked: 1 })
    expect((await inspectTranscriptFile(join(REFUSED, 'claude.stream.jsonl'))).requests_unmarked).toBe(0)
  })
})

describe('dsh and Reef native logs count their steps as model turns', () => {
  it('a public dsh log with one user turn of twelve steps took twelve model turns, not one', async () => {
    const report = await checkTranscriptFile(readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: few\n    expect: {turns: {count: {at_most: 5}}}\n'), join(WILD_DSH, 'goal-multi-turn-actions--session.jsonl'))
    expect(report.expectations[0]?.outcome).toMatchObject({ outcome: 'gap', note: expect.stringContaining('num_turns = 12') })
  })

  it('a native turn of three steps took three model turns and made three requests, though no answer wrote its usage; "exactly 3" needs a closed log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-native-turns-'))
    const line = (seq: number, type: string, data: object) => JSON.stringify({ type, seq, time: 1_786_706_400_000 + seq, data })
    const steps = [1, 2, 3].flatMap((step, index) => [line(2 + index * 3, 'step/start', { turn: 1, step }), line(3 + index * 3, 'assistant/message', { step, content: step === 3 ? 'done' : null, tool_calls: [], finish: 'stop' }), line(4 + index * 3, 'step/end', { turn: 1, step })])
    const lines = [line(0, 'session', { version: 1, task: 't', model: 'm', agent: 'root', tools: [] }), line(1, 'turn/start', { turn: 1 }), ...steps, line(11, 'turn/end', { turn: 1, reason: { kind: 'completed' } })]
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, `${lines.join('\n')}\n`)
    const spec = readSpec(
      'format: trace-spec/1\nid: t\nexpectations:\n  - id: three-turns\n    expect: {turns: {count: {exactly: 3}}}\n  - id: three-requests\n    expect: {api_requests: {count: {at_least: 3}}}\n  - id: exactly-three-requests\n    expect: {api_requests: {count: {exactly: 3}}}\n',
    )
    const report = await checkTranscriptFile(spec, path, { from: 'native-jsonl' })
    // A native log never says the session closed (another turn may follow), so no ceiling on its requests holds.
    expect(report.expectations.map((row) => row.outcome)).toMatchObject([
      { outcome: 'ok', note: expect.stringContaining('num_turns = 3') },
      { outcome: 'ok', note: '3 api requests, at least 3' },
      { outcome: 'undecidable', reason: 'stream_not_closed' },
    ])
    // A second turn started and cut short: the first turn's end is no end of the run, so its count is not the run's.
    const cut = join(dir, 'cut.jsonl')
    writeFileSync(cut, `${[...lines, line(12, 'turn/start', { turn: 2 }), line(13, 'step/start', { turn: 2, step: 4 })].join('\n')}\n`)
    const cutReport = await checkTranscriptFile(spec, cut, { from: 'native-jsonl' })
    expect(cutReport.expectations[0]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'no_run_outcome' })
  })
})
