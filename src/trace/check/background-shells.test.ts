import { describe, expect, it } from 'vitest'
import { readTranscriptAsEvents } from '../../../adapters/transcript/read.js'
import { rowOf, streamJson } from '../../../test/helpers/trace.js'
import { WILD } from '../../../test/helpers/wild.js'

/**
 * A command Claude Code runs in the background answers at once, "Command running in background with
 * ID: …", with no `is_error`: the answer says it started, not how it ended. "No shell call failed"
 * was `ok` over a run whose background test run failed, since the missing flag read as success.
 */

/** A closed Claude Code stream-json run of one Bash call answered with `content` and `tool_use_result`. */
function run(input: Record<string, unknown>, content: string, toolUseResult: Record<string, unknown>): string {
  return streamJson([
    { type: 'system', subtype: 'init', session_id: 's', cwd: '/w', tools: ['Bash'], model: 'm', permissionMode: 'default', apiKeySource: 'none' },
    { type: 'assistant', session_id: 's', message: { id: 'm0', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input }], usage: { input_tokens: 1, output_tokens: 1 } } },
    { type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content }] }, tool_use_result: toolUseResult },
    { type: 'result', subtype: 'success', is_error: false, session_id: 's', num_turns: 2, result: 'done', total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } },
  ])
}

const NO_SHELL_FAILED = '{tool.failed: {operations: [shell], count: {exactly: 0}}}'

/** The row over a run, read as it is and converted by the Claude Code adapter: both must agree. */
function rowOver(spec: string, transcript: string): ReturnType<typeof rowOf> {
  const asIs = rowOf(spec, transcript)
  expect(rowOf(spec, transcript, { format: 'claude-code/stream-json' }).outcome).toEqual(asIs.outcome)
  return asIs
}

describe('a shell command run in the background', () => {
  const started = { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false, backgroundTaskId: 'b1' }

  it('answers only that it started: whether it failed is unknown, not ok', () => {
    const row = rowOver(NO_SHELL_FAILED, run({ command: 'npm test', run_in_background: true }, 'Command running in background with ID: b1. Output is being written to: /tmp/b1.output', started))
    expect(row.verdict).toBe('unknown')
    expect(row.outcome).toMatchObject({ reason: 'result_field_absent', field: 'is_error' })
    expect(rowOver('{tool.error_rate: {operations: [shell], rate: {at_most: 0}}}', run({ command: 'npm test', run_in_background: true }, 'Command running in background with ID: b1', started)).verdict).toBe('unknown')
  })

  it('a command that ran to its end answers with it: ok, and a flagged error is a gap', () => {
    const done = { stdout: 'ok', stderr: '', interrupted: false, isImage: false }
    expect(rowOver(NO_SHELL_FAILED, run({ command: 'npm test' }, 'ok', done)).verdict).toBe('ok')
    const failed = streamJson([
      { type: 'system', subtype: 'init', session_id: 's', cwd: '/w', tools: ['Bash'], model: 'm', permissionMode: 'default', apiKeySource: 'none' },
      { type: 'assistant', session_id: 's', message: { id: 'm0', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command: 'npm test', run_in_background: true } }], usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'user', session_id: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: 'Error: no such command', is_error: true }] }, tool_use_result: 'Error: no such command' },
      { type: 'result', subtype: 'success', is_error: false, session_id: 's', num_turns: 2, result: 'done', total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 } },
    ])
    expect(rowOver(NO_SHELL_FAILED, failed).verdict).toBe('gap')
  })

  it.each([
    // Claude Code 2.1's stream-json (`sleep 15; echo bash-done`, run_in_background) and 2.1.38's session file (`mix phx.server`).
    ['claude-stream-json/hive-mind-subagent-background.jsonl', 'toolu_012AGjTj5DNGF3eSikW1nG93'],
    ['claude-session/spotter-tool-heavy.jsonl', 'toolu_018GZVh9ymkrdx1TnR8reg5Y'],
    // Claude Code 1.0's session file (`npm run dev`), answered as its `bash_*` task.
    ['claude-session/viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'toolu_01D32MoaSJ4iwV11i3TLE4Tv'],
  ])('%s: the real answer to %s leaves its outcome unsaid', async (entry, callId) => {
    const answers: unknown[] = []
    for await (const event of readTranscriptAsEvents(`${WILD}/${entry}`, { run: 'wild' })) if (event.event === 'tool.result' && event.call_id === callId) answers.push(event.is_error)
    expect(answers).toEqual([null])
  })
})

