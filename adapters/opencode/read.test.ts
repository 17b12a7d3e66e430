import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

describe('opencode-storage-json', () => {
  it('writes the tree back in conversation order: session, then messages by id, each followed by its parts', async () => {
    const root = tree({
      'session/proj/ses_1.json': JSON.stringify({ id: 'ses_1', projectID: 'proj', directory: '/w', version: '1.18.18', time: { created: 1790000000000 } }),
      'message/ses_1/msg_1.json': JSON.stringify({ id: 'msg_1', sessionID: 'ses_1', role: 'user', time: { created: 1790000000001 } }),
      'message/ses_1/msg_2.json': JSON.stringify({ id: 'msg_2', sessionID: 'ses_1', role: 'assistant', modelID: 'm', time: { created: 1790000000002 }, error: { name: 'APIError', data: { message: 'overloaded' } } }),
      'part/msg_1/prt_1.json': JSON.stringify({ id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'text', text: 'list files' }),
      'part/msg_2/prt_2.json': JSON.stringify({ id: 'prt_2', sessionID: 'ses_1', messageID: 'msg_2', type: 'tool', tool: 'bash', callID: 'call_1', state: { status: 'error', input: { command: 'ls' }, error: 'denied' } }),
      'part/msg_2/prt_3.json': JSON.stringify({ id: 'prt_3', sessionID: 'ses_1', messageID: 'msg_2', type: 'step-finish', reason: 'tool-calls', tokens: { input: 5, output: 1, reasoning: 0, cache: { read: 2, write: 0 } }, cost: 0.01 }),
    })
    const events = await convertPath(root)
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'tool.result', 'usage', 'warning'])
    expect(events[0]).toMatchObject({ session_id: 'ses_1', cwd: '/w', harness_version: '1.18.18' })
    expect(events[2]).toMatchObject({ call_id: 'call_1', operations: ['shell'], subjects: ['proc:ls'] })
    expect(events[3]).toMatchObject({ is_error: true, content: 'denied' })
    expect(events[4]).toMatchObject({ model: 'm', usage: { cache_read_input_tokens: 2, cost_usd: 0.01 } })
    expect(events[5]).toMatchObject({ code: 'opencode-error', message: 'overloaded' })
  })
})

describe('opencode-run-json', () => {
  // opencode prices a step from its model's price table and writes `cost: 0` for a model it has none
  // for: the real 1.18.18 against the loopback provider's unpriced model, and a public stdout whose
  // first step of 21,772 input tokens cost "0". Such a zero is no price: "cost at most $0" held over both.
  it.each([
    [resolve(import.meta.dirname, '../../test/fixtures/refused-calls/opencode.run.jsonl'), 'the real 1.18.18, an unpriced model'],
    [resolve(import.meta.dirname, '../../test/fixtures/wild/opencode/takopi-run-bash.jsonl'), 'a public stdout, one step unpriced'],
  ])('a zero cost beside tokens that moved is no price: %s (%s)', async (path) => {
    const events = await convertPath(path)
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ total_cost_usd: null })
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: free\n    expect: {cost.total: {at_most_usd: 0}}\n')
    expect((await checkTranscriptFile(spec, path)).expectations[0]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'field_absent', field: 'total_cost_usd' })
  })

  it('the run’s usage is its steps’ added up: the real 1.18.18’s two steps', async () => {
    const events = await convertPath(resolve(import.meta.dirname, '../../test/fixtures/refused-calls/opencode.run.jsonl'))
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ usage: { input_tokens: 70, output_tokens: 12, cache_read_input_tokens: 14, cache_creation_input_tokens: 0, thinking_tokens: 0 } })
  })

  it('a step that moved no tokens costs its zero, and a priced one its price', async () => {
    const step = (tokens: number, cost: number) => ({ type: 'step_finish', sessionID: 'ses_1', timestamp: 1790000000003, part: { type: 'step-finish', reason: 'stop', tokens: { input: tokens, output: 0, cache: { read: 0, write: 0 } }, cost } })
    const events = await convertLines('opencode-run-json', [{ type: 'step_start', sessionID: 'ses_1', timestamp: 1790000000000, part: { type: 'step-start' } }, step(0, 0), step(5, 0.25)])
    expect(events.filter((event) => event.event === 'usage').map((event) => event.event === 'usage' && event.usage.cost_usd)).toEqual([0, 0.25])
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ total_cost_usd: 0.25 })
  })

  it('a stream cut short inside a step (its last step_finish said tool-calls) has no end record: the run did not end there', async () => {
    const step = (reason: string) => ({ type: 'step_finish', sessionID: 'ses_1', timestamp: 1790000000003, part: { type: 'step-finish', reason, tokens: { input: 5, output: 1, cache: { read: 0, write: 0 } }, cost: 0.01 } })
    const start = { type: 'step_start', sessionID: 'ses_1', timestamp: 1790000000000, part: { type: 'step-start' } }
    const names = (events: Awaited<ReturnType<typeof convertLines>>) => events.map((event) => event.event)
    expect(names(await convertLines('opencode-run-json', [start, step('tool-calls'), start, step('stop')]))).toContain('session.ended')
    expect(names(await convertLines('opencode-run-json', [start, step('tool-calls'), start]))).not.toContain('session.ended')
    expect(names(await convertLines('opencode-run-json', [start, step('tool-calls')]))).not.toContain('session.ended')
  })

  it('reads run --format json stdout and closes when the last step finished with stop', async () => {
    const events = await convertLines('opencode-run-json', [
      { type: 'step_start', sessionID: 'ses_1', timestamp: 1790000000000, part: { type: 'step-start' } },
      { type: 'tool_use', sessionID: 'ses_1', timestamp: 1790000000001, part: { type: 'tool', tool: 'read', callID: 'c', state: { status: 'completed', input: { filePath: 'a.txt' }, output: 'x' } } },
      { type: 'text', sessionID: 'ses_1', timestamp: 1790000000002, part: { type: 'text', text: 'done' } },
      { type: 'step_finish', sessionID: 'ses_1', timestamp: 1790000000003, part: { type: 'step-finish', reason: 'stop', tokens: { input: 1, output: 1, cache: { read: 0, write: 0 } }, cost: 0.5 } },
    ])
    expect(names(events)).toEqual(['session.started', 'tool.requested', 'tool.result', 'text', 'usage', 'session.ended', 'stream.closed'])
    expect(events[1]).toMatchObject({ subjects: ['file:a.txt'], operations: ['file.read'] })
    expect(events[5]).toMatchObject({ is_error: false, stop_reason: 'stop', total_cost_usd: 0.5, num_turns: 1 })
  })

  it('an apply_patch names the files its patchText adds, updates, deletes and moves to, as 1.18.18 declares it', async () => {
    const patchText = '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: .engineering/a.ts\n@@\n-x\n+y\n*** Delete File: old.md\n*** End Patch'
    const events = await convertLines('opencode-run-json', [
      { type: 'step_start', sessionID: 'ses_1', timestamp: 1790000000000, part: { type: 'step-start' } },
      { type: 'tool_use', sessionID: 'ses_1', timestamp: 1790000000001, part: { type: 'tool', tool: 'apply_patch', callID: 'c', state: { status: 'completed', input: { patchText }, output: 'Success' } } },
      { type: 'step_finish', sessionID: 'ses_1', timestamp: 1790000000002, part: { type: 'step-finish', reason: 'stop', tokens: { input: 1, output: 1, cache: { read: 0, write: 0 } }, cost: 0 } },
    ])
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ operations: ['file.edit'], subjects: ['file:src/a.ts', 'file:old.md', 'file:.engineering/a.ts'] })
  })

  it("times a call by its state's own start and end, not by the line that carries both; a state without an end leaves the result untimed", async () => {
    const events = await convertLines('opencode-run-json', [
      { type: 'tool_use', sessionID: 'ses_1', timestamp: 1790000009000, part: { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'make' }, output: 'ok', time: { start: 1790000001000, end: 1790000008500 } } } },
      { type: 'tool_use', sessionID: 'ses_1', timestamp: 1790000010000, part: { type: 'tool', tool: 'bash', callID: 'c2', state: { status: 'error', input: { command: 'false' }, error: 'exit 1' } } },
    ])
    const iso = (ms: number) => new Date(ms).toISOString()
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.at)).toEqual([iso(1790000001000), iso(1790000010000)])
    expect(events.filter((event) => event.event === 'tool.result').map((event) => event.at)).toEqual([iso(1790000008500), undefined])
    expect(events[0]).toMatchObject({ event: 'session.started', at: iso(1790000009000) })
  })

  it('an error event is a warning and a failed session, closed as error', async () => {
    const events = await convertLines('opencode-run-json', [{ type: 'error', sessionID: 's', timestamp: 1, error: { name: 'ProviderAuthError', data: { message: 'no key' } } }])
    expect(names(events)).toEqual(['session.started', 'warning', 'session.ended', 'stream.closed'])
    expect(events[3]).toMatchObject({ reason: 'error' })
  })
})

describe('opencode-run-json: a command that failed', () => {
  const FIXTURE = resolve(import.meta.dirname, '../../test/fixtures/failing-shell/opencode.run.jsonl')

  it('1.18.18 completes a bash call that exited 3 and keeps the code in metadata.exit: the result failed, with its exit code', async () => {
    const events = await convertPath(FIXTURE)
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ is_error: true, exit_code: 3, content: 'out\n' })
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-command-failed\n    expect: {tool.failed: {operations: [shell], count: {at_most: 0}}}\n')
    expect((await checkTranscriptFile(spec, FIXTURE)).expectations[0]).toMatchObject({ verdict: 'gap' })
  })

  it('an exit of 0 succeeded; a call without metadata.exit is as opencode says', async () => {
    const part = (callID: string, metadata: object | undefined) => ({ type: 'tool_use', sessionID: 's', timestamp: 1, part: { type: 'tool', tool: 'bash', callID, state: { status: 'completed', input: { command: 'true' }, output: '', ...(metadata ? { metadata } : {}) } } })
    const results = (await convertLines('opencode-run-json', [part('a', { exit: 0 }), part('b', undefined)])).filter((event) => event.event === 'tool.result')
    expect(results).toMatchObject([
      { call_id: 'a', is_error: false, exit_code: 0 },
      { call_id: 'b', is_error: false, exit_code: null },
    ])
  })
})

describe('opencode-run-json and a subagent', () => {
  const SUBAGENT = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'opencode-subagent')
  const called = (events: Awaited<ReturnType<typeof convertPath>>) => events.flatMap((event) => (event.event === 'tool.requested' ? [event.name] : []))

  it('a run that started a task subagent proves no absence: the child session’s calls are not in its stdout', async () => {
    const stream = await convertPath(resolve(SUBAGENT, 'run.jsonl'))
    expect(called(stream)).toEqual(['task', 'bash'])
    // The child session ran a bash call of its own: only its export shows it.
    expect(called(await convertPath(resolve(SUBAGENT, 'child-export.json')))).toEqual(['invalid', 'bash'])
    expect(stream.filter((event) => event.event === 'warning')).toMatchObject([{ code: 'subagent_calls_unseen' }])
    expect(stream.some((event) => event.event === 'stream.closed')).toBe(false)
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-write\n    expect: {tool.absent: {operations: [file.write, file.edit]}}\n  - id: delegated\n    expect: {tool.called: {tools: [task]}}\n')
    const report = await checkTranscriptFile(spec, resolve(SUBAGENT, 'run.jsonl'))
    // The row names why: a subagent's calls are in its own file, not that the stream is unclosed.
    expect(report.expectations[0]?.outcome).toMatchObject({ reason: 'subagent_calls_unseen', subagents: 1 })
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-write', 'unknown'],
      ['delegated', 'ok'],
    ])
  })
})


describe('opencode code mode (OPENCODE_EXPERIMENTAL_CODE_MODE): the MCP calls a script made', () => {
  const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/opencode-code-mode')
  const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-mcp-shell\n    expect: {tool.absent: {tools: [shell_run_command]}}\n  - id: mcp-shell-twice\n    expect: {tool.called: {tools: [shell_run_command], count: {at_least: 2}}}\n')
  const rows = async (path: string) => (await checkTranscriptFile(spec, path)).expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome])

  it('1.18.18’s stdout: the script’s run_command call, listed only on the execute call’s state, is a call of the MCP tool, so its absence is a gap', async () => {
    const path = resolve(FIXTURES, 'removes.run.jsonl')
    const events = await convertPath(path)
    expect(events.flatMap((event) => (event.event === 'tool.requested' ? [[event.call_id, event.name, event.input]] : []))).toEqual([
      ['call_vh_001_1', 'execute', { code: "const r = await tools.shell.run_command({command: 'rm -f junk.txt && echo gone'}); return r" }],
      ['call_vh_001_1/1', 'shell_run_command', { command: 'rm -f junk.txt && echo gone' }],
    ])
    expect(events.flatMap((event) => (event.event === 'tool.result' ? [[event.call_id, event.is_error]] : []))).toEqual([
      ['call_vh_001_1/1', false],
      ['call_vh_001_1', false],
    ])
    expect(events.at(-1)).toMatchObject({ event: 'stream.closed' })
    expect(await rows(path)).toEqual([
      ['no-mcp-shell', 'gap'],
      ['mcp-shell-twice', 'gap'],
    ])
  })

  it('a script that failed still lists its calls, each with how it ended', async () => {
    const path = resolve(FIXTURES, 'fails.run.jsonl')
    const events = await convertPath(path)
    expect(events.flatMap((event) => (event.event === 'tool.result' ? [[event.call_id, event.is_error]] : []))).toEqual([
      ['call_vh_001_1/1', false],
      ['call_vh_001_1/2', true],
      ['call_vh_001_1', true],
    ])
    expect(await rows(path)).toEqual([
      ['no-mcp-shell', 'gap'],
      ['mcp-shell-twice', 'ok'],
    ])
  })

  it('a script whose state lists no calls (still running, or none kept) leaves them unseen: the stream proves no end', async () => {
    const record = (state: Record<string, unknown>) => ({ type: 'tool_use', timestamp: 1796697529929, sessionID: 'ses_1', part: { type: 'tool', tool: 'execute', callID: 'c1', state: { input: { code: 'x' }, ...state } } })
    const stop = { type: 'step_finish', timestamp: 1796697529930, sessionID: 'ses_1', part: { type: 'step-finish', reason: 'stop', tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 } }
    for (const state of [{ status: 'running' }, { status: 'completed', output: 'ok' }]) {
      const events = await convertLines('opencode-run-json', [record(state), stop])
      expect(events.filter((event) => event.event === 'warning')).toMatchObject([{ code: 'nested_calls_unseen' }])
      expect(events.at(-1)?.event).not.toBe('stream.closed')
    }
    const listed = await convertLines('opencode-run-json', [record({ status: 'completed', output: 'ok', metadata: { toolCalls: [] } }), stop])
    expect(listed.at(-1)).toMatchObject({ event: 'stream.closed' })
  })
})
