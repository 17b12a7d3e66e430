import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Emission } from '../../src/events/types.js'
import { censusToText, inspectTranscriptFile } from '../../src/trace/census.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { classifyCall } from '../shared/operations.js'
import { QWEN_TOOL_OPERATIONS } from './operations.js'
import { convertLines, convertPath } from '../../test/helpers/project.js'
import { detectCandidates } from '../transcript/detect.js'
import { detectTranscriptFile } from '../transcript/read.js'

// The normalised session file the e2e run of the real Qwen Code 0.24.4 left, and three files the
// real CLI wrote as they are (test/fixtures/qwen/README.md says how).
const E2E = resolve(import.meta.dirname, '..', '..', 'test', 'e2e', 'fixtures', 'qwen')
const REAL = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'qwen')

const calls = (events: readonly Emission[]) => events.flatMap((event) => (event.event === 'tool.requested' ? [[event.name, event.operations, event.subjects]] : []))
const results = (events: readonly Emission[]) => events.flatMap((event) => (event.event === 'tool.result' ? [[event.call_id, event.is_error, event.exit_code]] : []))

const base = (uuid: string, second: number) => ({ uuid, parentUuid: null, sessionId: 's1', timestamp: `2026-01-01T00:00:0${second}.000Z`, cwd: '/w', version: '0.24.4' })
const user = (uuid: string, second: number, text: string, subtype?: string) => ({ ...base(uuid, second), type: 'user', ...(subtype ? { subtype } : {}), message: { role: 'user', parts: [{ text }] } })
const answer = (uuid: string, second: number, parts: unknown[], extra: Record<string, unknown> = {}) => ({ ...base(uuid, second), type: 'assistant', model: 'qwen3-coder-plus', message: { role: 'model', parts }, ...extra })
const result = (uuid: string, second: number, response: Record<string, unknown>, info?: Record<string, unknown>) => ({
  ...base(uuid, second),
  type: 'tool_result',
  message: { role: 'user', parts: [{ functionResponse: response }] },
  ...(info ? { toolCallResult: info } : {}),
})

describe('qwen-code/session-jsonl', () => {
  it('reads the real 0.24.4 session file, detected without --from: the read with the file’s bytes, the shell call with its exit code, the answer', async () => {
    const path = resolve(E2E, 'session.jsonl')
    expect(detectTranscriptFile(path)?.name).toBe('qwen-code/session-jsonl')
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'opaque' || event.event === 'warning')).toEqual([])
    expect(events[0]).toMatchObject({ event: 'session.started', adapter: 'qwen', harness_version: '0.24.4', model: 'vitest-harness-model', cwd: '<e2e-root>/qwen/work' })
    expect(calls(events)).toEqual([
      ['read_file', ['file.read'], ['file:<e2e-root>/qwen/work/README.md']],
      ['run_shell_command', ['shell'], ['proc:wc', 'file:README.md']],
    ])
    expect(events.filter((event) => event.event === 'tool.result')).toMatchObject([
      { content: 'hello harness\n', bytes: 14, is_error: false, exit_code: null },
      { is_error: false, exit_code: 0 },
    ])
    expect(events.filter((event) => event.event === 'text').map((event) => event.event === 'text' && event.text)).toEqual(['The file says: hello harness'])
    expect(events.filter((event) => event.event === 'turn.started')).toHaveLength(1)
    expect(events.filter((event) => event.event === 'usage')).toHaveLength(3)
    expect(events.at(-1)?.event).not.toBe('stream.closed')
  })

  it('a failed shell command is an error with its exit code, from the real file the CLI wrote', async () => {
    const events = await convertPath(resolve(REAL, 'shell-fails.session.jsonl'))
    expect(calls(events)).toEqual([
      ['read_file', ['file.read'], ['file:/tmp/vh-qwen/work/README.md']],
      ['run_shell_command', ['shell'], ['proc:ls']],
    ])
    expect(results(events)).toEqual([
      ['call_vh_001_1', false, null],
      ['call_vh_002_1', true, 2],
    ])
  })

  it('a call of a tool the CLI does not have, and calls it refused for their arguments, are requested and fail; the unknown tool is unclassified', async () => {
    const unknown = await convertPath(resolve(REAL, 'unknown-tool.session.jsonl'))
    expect(unknown.find((event) => event.event === 'warning')).toMatchObject({ code: 'unclassified_tool' })
    expect(calls(unknown)).toEqual([['no_such_tool', [], ['file:README.md']]])
    expect(results(unknown)).toEqual([['call_vh_001_1', true, null]])
    const refused = await convertPath(resolve(REAL, 'bad-args.session.jsonl'))
    expect(calls(refused).map(([name, operations]) => [name, operations])).toEqual([
      ['read_file', ['file.read']],
      ['run_shell_command', ['shell']],
    ])
    expect(results(refused).map(([, isError]) => isError)).toEqual([true, true])
  })

  it('times a call from the answer that asked for it to its result, both the records’ own times', async () => {
    const events = await convertLines('qwen-code/session-jsonl', [
      user('u1', 1, 'list'),
      answer('a1', 2, [{ functionCall: { id: 'c1', name: 'glob', args: { pattern: '*.ts' } } }]),
      result('r1', 5, { id: 'c1', name: 'glob', response: { output: 'a.ts' } }, { callId: 'c1', status: 'success' }),
    ])
    expect(events.find((event) => event.event === 'tool.requested')?.at).toBe('2026-01-01T00:00:02.000Z')
    expect(events.find((event) => event.event === 'tool.result')?.at).toBe('2026-01-01T00:00:05.000Z')
  })

  it('reads thoughts, text and tokens; pairs a result that names no id with the oldest open call of its tool; takes the exit code from the text before 0.24', async () => {
    const events = await convertLines('qwen-code/session-jsonl', [
      user('u1', 1, 'build it'),
      answer('a1', 2, [{ text: 'plan the build', thought: true }, { text: 'Building.' }, { functionCall: { name: 'run_shell_command', args: { command: 'make' } } }, { functionCall: { name: 'run_shell_command', args: { command: 'make test' } } }], {
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 5, cachedContentTokenCount: 40, thoughtsTokenCount: 3 },
      }),
      result('r1', 3, { name: 'run_shell_command', response: { output: 'Command: make\nDirectory: (root)\nOutput: ok\nError: (none)\nExit Code: 0\nSignal: (none)' } }),
      result('r2', 4, { name: 'run_shell_command', response: { error: 'Command: make test\nOutput: FAIL\nExit Code: 2' } }, { status: 'error' }),
    ])
    expect(events.filter((event) => event.event === 'thinking').map((event) => event.event === 'thinking' && event.text)).toEqual(['plan the build'])
    expect(events.filter((event) => event.event === 'text').map((event) => event.event === 'text' && event.text)).toEqual(['Building.'])
    expect(events.find((event) => event.event === 'usage')).toMatchObject({ model: 'qwen3-coder-plus', usage: { input_tokens: 60, cache_read_input_tokens: 40, output_tokens: 5, thinking_tokens: 3 } })
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && event.call_id)).toEqual(['a1#2', 'a1#3'])
    expect(results(events)).toEqual([
      ['a1#2', false, 0],
      ['a1#3', true, 2],
    ])
  })

  it('a cancelled call failed; a message the user typed mid-turn is an injection, not a turn; compression and rewind are warnings', async () => {
    const events = await convertLines('qwen-code/session-jsonl', [
      user('u1', 1, 'go'),
      answer('a1', 2, [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'npm test' } } }]),
      // A command the user stopped gives back what it printed as its output; the status says it did not finish.
      result('r1', 3, { id: 'c1', name: 'run_shell_command', response: { output: 'Command was cancelled by user before it could complete. Below is the output before it was cancelled:\n> test' } }, { callId: 'c1', status: 'cancelled' }),
      user('u2', 4, 'also check b.txt', 'mid_turn_user_message'),
      { ...base('s1', 5), type: 'system', subtype: 'chat_compression', systemPayload: { info: {}, compressedHistory: [] } },
      { ...base('s2', 6), type: 'system', subtype: 'rewind', systemPayload: { truncatedCount: 2 } },
    ])
    expect(results(events)).toEqual([['c1', true, null]])
    expect(events.filter((event) => event.event === 'turn.started')).toHaveLength(1)
    expect(events.find((event) => event.event === 'injection')).toMatchObject({ text: 'also check b.txt', origin: 'mid_turn_user_message' })
    expect(events.filter((event) => event.event === 'warning').map((event) => event.event === 'warning' && event.code)).toEqual(['qwen-chat-compression', 'qwen-rewind'])
  })

  it('reads a subagent’s own file: its bookkeeping carries no call, its calls are calls', async () => {
    // The first records of a subagent file the real 0.24.4 CLI wrote (subagents/<sessionId>/agent-general-purpose-call_vh_001_1.jsonl).
    const sidechain = { sessionId: '29871999-58de-44bf-995b-d805ce0451e6', cwd: '/tmp/vh-qwen/work', version: '0.24.4', agentId: 'general-purpose-call_vh_001_1', agentName: 'general-purpose', isSidechain: true }
    const events = await convertLines('qwen-code/session-jsonl', [
      { uuid: 'c396', parentUuid: null, ...sidechain, timestamp: '2026-12-03T06:38:23.201Z', type: 'user', message: { role: 'user', parts: [{ text: 'Run wc -c README.md and report the count.' }] } },
      { uuid: '97a8', parentUuid: 'c396', ...sidechain, timestamp: '2026-12-03T06:38:23.410Z', type: 'assistant', message: { role: 'model', parts: [] }, usageMetadata: { promptTokenCount: 42 } },
      { uuid: '21c8', parentUuid: '97a8', ...sidechain, timestamp: '2026-12-03T06:38:23.412Z', type: 'system', subtype: 'agent_session_ready', systemPayload: { callId: 'call_vh_001_1', subagentSessionReady: false } },
      { uuid: '28ee', parentUuid: '21c8', ...sidechain, timestamp: '2026-12-03T06:38:23.420Z', type: 'assistant', message: { role: 'model', parts: [{ functionCall: { id: 'call_vh_002_1', name: 'run_shell_command', args: { command: 'wc -c README.md' } } }] } },
    ])
    expect(events.filter((event) => event.event === 'opaque' || event.event === 'warning')).toEqual([])
    expect(calls(events)).toEqual([['run_shell_command', ['shell'], ['proc:wc', 'file:README.md']]])
  })

  it('a system record it does not know is opaque, and a file from another version says so', async () => {
    const lines = [
      { ...user('u1', 1, 'go'), version: '0.15.6' },
      { ...base('s1', 2), version: '0.15.6', type: 'system', subtype: 'managed_session_event_v1', systemPayload: { event: {} } },
      { ...answer('a1', 3, [{ text: 'done' }]), version: '0.15.6' },
    ]
    const events = await convertLines('qwen-code/session-jsonl', lines)
    expect(events.find((event) => event.event === 'opaque')).toMatchObject({ vendor_type: 'system', vendor_subtype: 'managed_session_event_v1' })
    expect(events.find((event) => event.event === 'warning')).toMatchObject({ code: 'version_drift' })
    expect((events.find((event) => event.event === 'warning') as { message: string }).message).toContain('system/managed_session_event_v1 (1)')
  })

  it('only Qwen Code’s records are claimed: a Claude Code session record with the same ids is not', () => {
    const qwen = JSON.stringify(user('u1', 1, 'go'))
    expect(detectCandidates([qwen])).toMatchObject({ outcome: 'detected', format: { name: 'qwen-code/session-jsonl' } })
    const claude = JSON.stringify({ uuid: 'u1', parentUuid: null, sessionId: 's1', timestamp: 't', type: 'user', cwd: '/w', version: '2.1.328', message: { role: 'user', content: 'go' } })
    expect(detectCandidates([claude])).toMatchObject({ outcome: 'detected', format: { name: 'claude-session-jsonl' } })
    // Qwen Code's first record can be a system record of its own.
    const telemetry = JSON.stringify({ ...base('s1', 1), type: 'system', subtype: 'ui_telemetry', systemPayload: { uiEvent: { 'event.name': 'qwen-code.api_response' } } })
    expect(detectCandidates([telemetry])).toMatchObject({ outcome: 'detected', format: { name: 'qwen-code/session-jsonl' } })
  })

  it('a trace spec judges it: "no shell" gaps at the shell call, and the shell call took the time it took, not 0 ms', async () => {
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {operations: [shell]}}\n  - id: instant\n    expect: {step.exec_time: {operations: [shell], ms: {at_most: 1}}}\n')
    const report = await checkTranscriptFile(spec, resolve(REAL, 'shell-fails.session.jsonl'))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-shell', 'gap'],
      ['instant', 'gap'],
    ])
  })
})

describe('qwen-code/stream-json and qwen-code/json', () => {
  it('reads the real 0.24.4 stdout, detected without --from as Qwen Code’s, not Claude Code’s: its tools classified, closed by its result', async () => {
    const path = resolve(E2E, 'stream.jsonl')
    expect(detectTranscriptFile(path)?.name).toBe('qwen-code/stream-json')
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'opaque' || event.event === 'warning')).toEqual([])
    expect(events[0]).toMatchObject({ event: 'session.started', adapter: 'qwen', harness_version: '0.24.4', permission_mode: 'yolo', cwd: '<e2e-root>/qwen/work' })
    expect(calls(events)).toEqual([
      ['read_file', ['file.read'], ['file:<e2e-root>/qwen/work/README.md']],
      ['run_shell_command', ['shell'], ['proc:wc', 'file:README.md']],
    ])
    expect(events.filter((event) => event.event === 'tool.result')).toMatchObject([{ content: 'hello harness\n', is_error: false }, { content: '14 README.md', is_error: false }])
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ subtype: 'success', is_error: false, num_turns: 3 })
    expect(events.at(-1)?.event).toBe('stream.closed')
  })

  it('a failed shell command is an error there too; the json document reads as the same calls', async () => {
    expect(results(await convertPath(resolve(REAL, 'shell-fails.stream.jsonl'))).map(([id, isError]) => [id, isError])).toEqual([
      ['call_vh_001_1', false],
      ['call_vh_002_1', true],
    ])
    const path = resolve(REAL, 'read-then-shell.output.json')
    expect(detectTranscriptFile(path)?.name).toBe('qwen-code/json')
    const events = await convertPath(path)
    expect(calls(events).map(([name, operations]) => [name, operations])).toEqual([
      ['read_file', ['file.read']],
      ['run_shell_command', ['shell']],
    ])
    expect(events[0]).toMatchObject({ adapter: 'qwen', harness_version: '0.24.4' })
    expect(events.at(-1)?.event).toBe('stream.closed')
  })

  it('closed, an absence decides: "no shell" gaps at the shell call, "no write" holds', async () => {
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {operations: [shell]}}\n  - id: no-write\n    expect: {tool.absent: {operations: [file.write, file.edit]}}\n')
    const report = await checkTranscriptFile(spec, resolve(E2E, 'stream.jsonl'))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-shell', 'gap'],
      ['no-write', 'ok'],
    ])
  })

  it('a deferred tool the model called through tool_call is read as that tool: "no web_fetch" gaps by name and by operation, in both forms', async () => {
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-fetch\n    expect: {tool.absent: {tools: [web_fetch]}}\n  - id: no-web\n    expect: {tool.absent: {operations: [web.read]}}\n')
    const report = await checkTranscriptFile(spec, resolve(REAL, 'deferred-fetch.stream.jsonl'))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-fetch', 'gap'],
      ['no-web', 'gap'],
    ])
    for (const file of ['deferred-fetch.stream.jsonl', 'deferred-fetch.session.jsonl']) {
      const events = await convertPath(resolve(REAL, file))
      expect(events.filter((event) => event.event === 'tool.requested'), file).toMatchObject([{ name: 'web_fetch', input: { url: 'http://127.0.0.1:9/page', prompt: 'summarise' }, operations: ['web.read'] }])
      expect(events.filter((event) => event.event === 'warning'), file).toEqual([])
      expect(results(events).map(([id, isError]) => [id, isError]), file).toEqual([['call_vh_001_1', true]])
    }
  })

  it('a stream that started a background subagent proves no absence: the subagent’s calls are only in its own file', async () => {
    const stream = await convertPath(resolve(REAL, 'background-agent.stream.jsonl'))
    const subagent = await convertPath(resolve(REAL, 'background-agent.subagent.session.jsonl'))
    // The calls the subagent made are not in the stream: it holds the main agent's three only.
    expect(calls(stream).map(([name]) => name)).toEqual(['run_shell_command', 'agent', 'run_shell_command'])
    expect(calls(subagent).map(([name]) => name)).toEqual(['run_shell_command', 'agent', 'run_shell_command'])
    expect(stream.find((event) => event.event === 'warning')).toMatchObject({ code: 'subagent_calls_unseen' })
    expect(stream.filter((event) => event.event === 'opaque')).toEqual([])
    expect(stream.some((event) => event.event === 'stream.closed')).toBe(false)
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-write\n    expect: {tool.absent: {tools: [write_file]}}\n  - id: shell-ran\n    expect: {tool.called: {tools: [run_shell_command]}}\n')
    const report = await checkTranscriptFile(spec, resolve(REAL, 'background-agent.stream.jsonl'))
    // The row names why: a subagent's calls are in its own file, not that the stream is unclosed.
    expect(report.expectations[0]?.outcome).toMatchObject({ reason: 'subagent_calls_unseen', subagents: 1 })
    const census = await inspectTranscriptFile(resolve(REAL, 'background-agent.stream.jsonl'))
    expect(census).toMatchObject({ closure: null, subagents_unseen: 1 })
    expect(censusToText(census)).toContain('closure      not closed — 1 subagent(s) ran apart from this transcript (subagent_calls_unseen)')
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-write', 'unknown'],
      ['shell-ran', 'ok'],
    ])
  })

  it('code mode: exec’s JavaScript ran a shell call the stream does not show, so it proves no absence; the session file holds the call', async () => {
    const stream = await convertPath(resolve(REAL, 'code-mode.stream.jsonl'))
    const session = await convertPath(resolve(REAL, 'code-mode.session.jsonl'))
    expect(calls(stream).map(([name]) => name)).toEqual(['exec'])
    expect(stream.filter((event) => event.event === 'warning').map((event) => event.event === 'warning' && event.code)).toEqual(['unclassified_tool', 'nested_calls_unseen'])
    expect(stream.some((event) => event.event === 'stream.closed')).toBe(false)
    // The session file's metrics event is the only record of the nested call: read as the call and its result.
    expect(session.filter((event) => event.event === 'tool.requested')).toMatchObject([
      { call_id: 'call_vh_001_1', name: 'exec' },
      { call_id: 'call_vh_001_1:code:1', name: 'run_shell_command', input: { command: 'rm scratch.tmp' }, operations: ['shell'], subjects: ['proc:rm', 'file:scratch.tmp'] },
    ])
    expect(results(session).map(([id, isError]) => [id, isError])).toEqual([
      ['call_vh_001_1:code:1', false],
      ['call_vh_001_1', false],
    ])
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {tools: [run_shell_command]}}\n')
    const report = await checkTranscriptFile(spec, resolve(REAL, 'code-mode.stream.jsonl'))
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'nested_calls_unseen', calls: 1 } })
    expect(censusToText(await inspectTranscriptFile(resolve(REAL, 'code-mode.stream.jsonl')))).toContain('closure      not closed — 1 call(s) ran code that called tools apart from this transcript (nested_calls_unseen)')
    expect((await checkTranscriptFile(spec, resolve(REAL, 'code-mode.session.jsonl'))).expectations[0]?.verdict).toBe('gap')
  })

  it('every tool the real 0.24.4 offered is in its table, but exec and the media tools', async () => {
    const init = JSON.parse(readFileSync(resolve(REAL, 'code-mode.stream.jsonl'), 'utf8').split('\n')[0] as string) as { tools: string[] }
    expect(init.tools.length).toBeGreaterThan(20)
    // tool_call is a dispatcher: a call of it reads as the tool it names, so an empty one names none.
    expect(init.tools.filter((tool) => !classifyCall(QWEN_TOOL_OPERATIONS, tool, {}).known)).toEqual(['exec', 'tool_call', 'zoom_image', 'record_artifact'])
    expect(classifyCall(QWEN_TOOL_OPERATIONS, 'monitor', { command: 'tail -f log.txt' })).toMatchObject({ operations: ['shell'], subjects: ['proc:tail', 'file:log.txt'] })
  })

  it('a Claude Code stream is still Claude Code’s', () => {
    const init = { type: 'system', subtype: 'init', session_id: 's', cwd: '/w', tools: ['Bash'], model: 'claude-sonnet-4-5', claude_code_version: '2.1.328' }
    expect(detectCandidates([JSON.stringify(init)])).toMatchObject({ outcome: 'detected', format: { name: 'claude-code/stream-json' } })
    expect(detectCandidates([JSON.stringify({ ...init, claude_code_version: undefined, qwen_code_version: '0.24.4' })])).toMatchObject({ outcome: 'detected', format: { name: 'qwen-code/stream-json' } })
    expect(detectCandidates([JSON.stringify([init])])).toMatchObject({ outcome: 'detected', format: { name: 'claude-code/json-array' } })
  })
})

