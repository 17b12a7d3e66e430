import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertTextSync } from '../../adapters/transcript/read.js'
import { checkAnyFormatText, checkTranscriptText } from '../../src/trace/check/check.js'
import { specOf } from '../helpers/trace.js'

// "The final answer says …" is a claim about the run's last answer: the last text a transcript holds
// is that answer only where the run ended after it. Codex's rollout proves no closure, and its reader
// writes the run's terminal record at the stream's end from the last `task_complete`; a rollout cut
// short in a later turn holds that turn's text after the last `task_complete`, and the run may have
// answered again. Over the real rollout of the e2e suite's scripted run (its timestamps, normalised
// away in the committed copy, put back one second apart).
const ROLLOUT = resolve(import.meta.dirname, '..', 'e2e', 'fixtures', 'codex', 'rollout.jsonl')
const SPEC = specOf('final-answer', [{ 'text.matches': { contains: 'hello harness' } }, { 'text.matches': { contains: 'tests pass' } }])

function timed(lines: string[]): string {
  return lines.map((line, index) => line.replace('"<timestamp>"', JSON.stringify(new Date(Date.UTC(2026, 10, 29, 10, 0, index)).toISOString()))).join('\n') + '\n'
}

/** Each row's outcome (`unknown:<reason>` for an unknown) over a transcript's text in a format. */
function outcomes(spec: ReturnType<typeof specOf>, text: string, from: string): string[] {
  return checkAnyFormatText(spec, text, { from }).expectations.map((row) => (row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome))
}

const recorded = readFileSync(ROLLOUT, 'utf8').trimEnd().split('\n')
const verdicts = (text: string) => outcomes(SPEC, text, 'codex/rollout-jsonl')

describe('the final answer of a Codex rollout', () => {
  it('is the last text where the run completed after it: ok where it quotes the file, a gap where it does not', () => {
    expect(verdicts(timed(recorded))).toEqual(['ok', 'gap'])
  })

  it('is not proven where a later turn was cut short after its own text: both rows unknown', () => {
    const secondTurn = [
      '{"timestamp":"<timestamp>","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Now run the tests."}]}}',
      '{"timestamp":"<timestamp>","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running them; the file says: hello harness."}]}}',
    ]
    expect(verdicts(timed([...recorded, ...secondTurn]))).toEqual(['unknown:stream_not_closed', 'unknown:stream_not_closed'])
  })

  it('a rollout that stops inside a turn it started has no end record: how long the run took, and its answer, are unknown', () => {
    const started = '{"timestamp":"<timestamp>","type":"event_msg","payload":{"type":"task_started","turn_id":"t2"}}'
    const answer = '{"timestamp":"<timestamp>","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The file says: hello harness; the tests pass."}]}}'
    const spec = specOf('cut-mid-turn', [{ 'duration.total': { ms: { at_most: 3_600_000 } } }, { 'text.matches': { contains: 'tests pass' } }])
    const rows = (lines: string[]) => outcomes(spec, lines.join('\n') + '\n', 'codex/rollout-jsonl')
    // The whole run: its task_complete ends it, and its answer does not say the tests pass.
    expect(rows(recorded)).toEqual(['ok', 'gap'])
    // A second turn started and cut short (timestamps normalised away, so no time can order them): nothing ended it.
    expect(rows([...recorded, started, answer])).toEqual(['unknown:no_run_outcome', 'unknown:stream_not_closed'])
  })
})

describe('a public Codex Desktop session that stops inside a turn', () => {
  // localpush_codex-desktop-0.104.0-alpha.1-12-47-42.jsonl: its last task_started (line 835) has no
  // task_complete after it. Its token figures were read off the end record of an earlier turn.
  const wild = resolve(import.meta.dirname, '..', 'fixtures', 'wild', 'codex-rollout', 'localpush_codex-desktop-0.104.0-alpha.1-12-47-42.jsonl')
  const spec = specOf('wild-cut', [{ 'tokens.output': { count: { at_most: 100_000_000 } } }, { 'text.matches': { regex: '\\w' } }])

  it('has no end of the run: its tokens and its final answer are unknown', () => {
    const report = checkAnyFormatText(spec, readFileSync(wild, 'utf8'), { from: 'codex/rollout-jsonl' })
    expect(report.expectations.map((row) => row.outcome)).toMatchObject([
      { outcome: 'undecidable', reason: 'no_run_outcome' },
      { outcome: 'undecidable', reason: 'stream_not_closed' },
    ])
  })
})

describe('the final answer and the end of a Codex `exec --json` run', () => {
  const line = (record: object) => JSON.stringify(record)
  const firstTurn = [
    line({ type: 'thread.started', thread_id: 't' }),
    line({ type: 'turn.started' }),
    line({ type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'Turn one is done.' } }),
    line({ type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } }),
  ]
  const spec = specOf('exec-cut', [{ result: { is_error: false } }, { 'tokens.output': { count: { at_most: 5 } } }, { 'text.matches': { contains: 'done' } }])
  const rows = (lines: string[]) => outcomes(spec, lines.join('\n') + '\n', 'codex/exec-json')

  it('a run whose turns all ended is judged on its end record', () => {
    expect(rows(firstTurn)).toEqual(['ok', 'ok', 'ok'])
  })

  it('a second turn cut short leaves no end of the run: its outcome, its tokens and its answer are unknown, not turn one’s', () => {
    const cut = [...firstTurn, line({ type: 'turn.started' }), line({ type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: 'Still working.' } })]
    expect(rows(cut)).toEqual(['unknown:no_run_outcome', 'unknown:no_run_outcome', 'unknown:stream_not_closed'])
  })
})

describe('a run that ended working: a call after its last text', () => {
  // A run cut short at a call, or timed out mid-command, wrote its last words before its last
  // calls: a plan, not an answer. Matching them passed "the answer says X" over a run that never
  // answered. Real ATIF trajectories from Harbor (test/fixtures/wild/atif).
  const atif = (name: string) => readFileSync(resolve(import.meta.dirname, '..', 'fixtures', 'wild', 'atif', name), 'utf8')
  const rowsOver = (name: string, matchers: object[]) => outcomes(specOf('ended-working', matchers.map((matcher) => ({ 'text.matches': matcher }))), atif(name), 'atif-json')

  it('terminus-2 timed out mid-command after "Plan: Sleep for 5 seconds": neither a match nor a miss', () => {
    // Its last step sent `sleep` keystrokes and the agent timed out; nothing came after.
    expect(rowsOver('v1.6-terminus-2-timeout.json', [{ contains: 'Sleep' }, { contains: 'hello.txt' }])).toEqual(['unknown:calls_after_last_text', 'unknown:calls_after_last_text'])
  })

  it('an OpenClaw run that ended on a web_fetch after "I need to analyze the images…"', () => {
    expect(rowsOver('v1.7-openclaw-wildclawbench-image.json', [{ contains: 'analyze the images' }])).toEqual(['unknown:calls_after_last_text'])
  })

  it('a call that ends the run keeps the text before it the answer: terminus-2 mark_task_complete, OpenHands finish', () => {
    expect(rowsOver('v1.7-terminus-2-invalid-json.json', [{ contains: 'Task already completed' }, { contains: 'tests pass' }])).toEqual(['ok', 'gap'])
    expect(rowsOver('v1.5-openhands-hello-world.json', [{ contains: 'All done' }, { contains: 'tests pass' }])).toEqual(['ok', 'gap'])
  })

  it('a Claude Code run stopped at its turn limit right after a call has no answer to match', () => {
    const lines = [
      { type: 'system', subtype: 'init', session_id: 's', model: 'claude-x', tools: ['Bash'], mcp_servers: [], permissionMode: 'default', apiKeySource: 'none' },
      { type: 'assistant', session_id: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Let me confirm that all tests pass.' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] } },
      { type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '2 failing', is_error: true }] } },
      { type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 1, session_id: 's' },
    ]
    const spec = specOf('max-turns', [{ 'text.matches': { contains: 'all tests pass' } }])
    expect(outcomes(spec, lines.map((record) => JSON.stringify(record)).join('\n') + '\n', 'claude-code/stream-json')).toEqual(['unknown:calls_after_last_text'])
  })
})

describe("a subagent's report is not the run's answer", () => {
  // Claude Code streams a foreground subagent's messages between the run's own, each marked with
  // the Agent call that started it (`parent_tool_use_id`). A run stopped at its turn limit once
  // the subagent reported wrote no answer of its own, and its last text was the subagent's.
  // The real hive-mind background run (test/fixtures/wild/claude-stream-json), cut after the
  // subagent's report (line 40, "Command completed successfully…") with the record a run stopped
  // at its turn limit ends on.
  const wild = resolve(import.meta.dirname, '..', 'fixtures', 'wild', 'claude-stream-json', 'hive-mind-subagent-background.jsonl')
  const cut = [...readFileSync(wild, 'utf8').trimEnd().split('\n').slice(0, 40), JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 2, session_id: 's' })].join('\n') + '\n'
  const spec = specOf('subagent-report', [{ 'text.matches': { contains: 'Command completed successfully' } }])

  it('read as stream-json: the run ended with no answer after its own last call', () => {
    const row = checkAnyFormatText(spec, cut, { from: 'claude-code/stream-json' }).expectations[0]
    expect(row?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'calls_after_last_text' })
  })

  it('read through its conversion: the same', () => {
    const converted = convertTextSync(cut, 'claude-code/stream-json')
    expect(converted).toContain('"parent_call_id":"')
    expect(checkTranscriptText(spec, converted).expectations[0]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'calls_after_last_text' })
  })

  it("the run's own answer after the report, ended by a result record, is its final text", () => {
    const answer = specOf('whole-run', [{ 'text.matches': { contains: 'The subagent has completed' } }, { 'text.matches': { contains: 'Command completed successfully' } }])
    const whole = readFileSync(wild, 'utf8') + JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 3, session_id: 's' }) + '\n'
    expect(outcomes(answer, whole, 'claude-code/stream-json')).toEqual(['ok', 'gap'])
    expect(checkTranscriptText(answer, convertTextSync(whole, 'claude-code/stream-json')).expectations.map((row) => row.verdict)).toEqual(['ok', 'gap'])
  })
})
