import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertLines, convertPath } from '../../test/helpers/project.js'
import { detectTranscriptFile } from '../transcript/read.js'
import { classifyCall } from '../shared/operations.js'
import { GEMINI_TOOL_OPERATIONS } from './operations.js'

// The normalised transcripts the e2e run of the real Gemini CLI 0.61 left (test/e2e/fixtures/gemini).
const FIXTURES = resolve(import.meta.dirname, '..', '..', 'test', 'e2e', 'fixtures', 'gemini')

const header = { sessionId: 's1', projectHash: 'abc', startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:00:00.000Z', kind: 'main' }
const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`

describe('gemini-cli/session-jsonl', () => {
  it('reads the real 0.61 session file, detected without --from: a read with the file’s bytes, a shell call, the answer', async () => {
    const path = resolve(FIXTURES, 'session.jsonl')
    expect(detectTranscriptFile(path)?.name).toBe('gemini-cli/session-jsonl')
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    const calls = events.flatMap((event) => (event.event === 'tool.requested' ? [event] : []))
    expect(calls.map((call) => [call.name, call.operations, call.subjects])).toEqual([
      ['read_file', ['file.read'], ['file:README.md']],
      ['run_shell_command', ['shell'], ['proc:echo']],
    ])
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ call_id: 'read_file__call_vh_001_1', content: 'hello harness\n', bytes: 14, is_error: false })
    expect(events.filter((event) => event.event === 'text').map((event) => event.event === 'text' && event.text)).toEqual(['The file says: hello harness'])
    expect(events.filter((event) => event.event === 'turn.started')).toHaveLength(1)
    expect(events.find((event) => event.event === 'injection')).toMatchObject({ origin: 'session_context' })
    // Three model turns, each counted once though two were written twice.
    expect(events.filter((event) => event.event === 'usage')).toHaveLength(3)
    expect(events.at(-1)?.event).not.toBe('stream.closed')
  })

  it('a message appended again holds its latest copy: text and tokens that arrive later, calls once, a running call requested once and its result when it ends', async () => {
    const events = await convertLines('gemini-cli/session-jsonl', [
      header,
      { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'go' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: '', thoughts: [{ subject: 'Plan', description: 'read it' }] },
      { $set: { lastUpdated: at(2) } },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: 'done', thoughts: [{ subject: 'Plan', description: 'read it' }], tokens: { input: 100, output: 5, cached: 40, thoughts: 3 }, toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: '*.ts' }, status: 'executing' }] },
      { id: 'g2', timestamp: at(3), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: '*.ts' }, status: 'success', result: [{ functionResponse: { id: 'c1', name: 'glob', response: { output: 'a.ts' } } }] }] },
      { id: 'g2', timestamp: at(3), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: '*.ts' }, status: 'success', result: [{ functionResponse: { id: 'c1', name: 'glob', response: { output: 'a.ts' } } }] }] },
    ])
    expect(events.filter((event) => event.event === 'thinking').map((event) => event.event === 'thinking' && event.text)).toEqual(['Plan: read it'])
    expect(events.filter((event) => event.event === 'text').map((event) => event.event === 'text' && event.text)).toEqual(['done'])
    expect(events.find((event) => event.event === 'usage')).toMatchObject({ usage: { input_tokens: 60, cache_read_input_tokens: 40, output_tokens: 5, thinking_tokens: 3 } })
    expect(events.filter((event) => event.event === 'tool.requested')).toMatchObject([{ call_id: 'c1', operations: ['dir.list'], at: at(2) }])
    expect(events.filter((event) => event.event === 'tool.result')).toMatchObject([{ call_id: 'c1', content: 'a.ts', is_error: false, at: at(3) }])
  })

  it('a call the file leaves awaiting approval or executing (the CLI was stopped) is requested all the same, with no result', async () => {
    const events = await convertLines('gemini-cli/session-jsonl', [
      header,
      { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'clean up' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'awaiting_approval' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'executing' }] },
    ])
    expect(events.filter((event) => event.event === 'tool.requested')).toMatchObject([{ call_id: 'c1', operations: ['shell'], subjects: ['proc:rm'] }])
    expect(events.filter((event) => event.event === 'tool.result')).toEqual([])
  })

  it('a rewind is a warning; an unknown record is opaque, and a version it was not written against names it', async () => {
    const events = await convertLines(
      'gemini-cli/session-jsonl',
      [header, { id: 'u1', timestamp: at(1), type: 'user', content: 'hi' }, { $rewindTo: 'u1' }, { id: 'x1', type: 'compression', content: '' }],
      { seam: { harnessVersion: '0.70.0' } },
    )
    expect(events.find((event) => event.event === 'warning' && event.code === 'gemini-rewind')).toBeDefined()
    expect(events.find((event) => event.event === 'opaque')).toMatchObject({ vendor_type: 'compression' })
    expect(events.find((event) => event.event === 'warning' && event.code === 'version_drift')).toMatchObject({ message: expect.stringContaining('compression (1)') })
  })
})

describe('gemini-cli/stream-json', () => {
  it('reads the real 0.61 stdout, detected without --from: deltas joined, the result closes the stream', async () => {
    const path = resolve(FIXTURES, 'stream.jsonl')
    expect(detectTranscriptFile(path)?.name).toBe('gemini-cli/stream-json')
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && event.operations)).toEqual([['file.read'], ['shell']])
    expect(events.filter((event) => event.event === 'text').map((event) => event.event === 'text' && event.text)).toEqual(['The file says: hello harness'])
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ final_answer: 'The file says: hello harness', is_error: false, num_turns: 1 })
    expect(events.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })
  })

  it('a failed call and a failed run: is_error on both, the error message kept', async () => {
    const events = await convertLines('gemini-cli/stream-json', [
      { type: 'init', timestamp: at(0), session_id: 's', model: 'gemini-2.5-flash' },
      { type: 'message', timestamp: at(0), role: 'user', content: 'x' },
      { type: 'tool_use', timestamp: at(1), tool_name: 'write_file', tool_id: 't1', parameters: { file_path: 'a.txt', content: 'x' } },
      { type: 'tool_result', timestamp: at(2), tool_id: 't1', status: 'error', error: { type: 'permission', message: 'denied' } },
      { type: 'error', timestamp: at(3), severity: 'warning', message: 'loop detected' },
      { type: 'result', timestamp: at(4), status: 'error', error: { type: 'FatalTurnLimitedError', message: 'turn limit' }, stats: { input_tokens: 10, output_tokens: 2, cached: 0, duration_ms: 5 } },
    ])
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ operations: ['file.write'], subjects: ['file:a.txt'] })
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ is_error: true, content: 'denied' })
    expect(events.find((event) => event.event === 'warning' && event.code === 'gemini-warning')).toMatchObject({ message: 'loop detected' })
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ is_error: true, terminal_reason: 'error', duration_ms: 5 })
    expect(events.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'error' })
  })
})

describe('gemini-cli/json', () => {
  // output.json: what 0.61 printed under --output-format json for the same scripted read + shell run.
  it('reads the real 0.61 json output, detected without --from: the answer, usage per model, calls counted by name only', async () => {
    const path = resolve(FIXTURES, 'output.json')
    expect(detectTranscriptFile(path)?.name).toBe('gemini-cli/json')
    const events = await convertPath(path)
    expect(events.find((event) => event.event === 'warning')).toMatchObject({ code: 'gemini-json-calls-counted' })
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && [event.call_id, event.operations, event.input])).toEqual([
      ['read_file#1', ['file.read'], null],
      ['run_shell_command#1', ['shell'], null],
    ])
    expect(events.filter((event) => event.event === 'tool.result')).toEqual([])
    expect(events.find((event) => event.event === 'usage')).toMatchObject({ model: 'gemini-2.5-flash', usage: { input_tokens: 105, cache_read_input_tokens: 21, output_tokens: 20 } })
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ final_answer: 'The file says: hello harness', is_error: false })
    // One document, no proof of order or closure.
    expect(events.at(-1)?.event).not.toBe('stream.closed')
  })
})

describe('the Gemini CLI tool table', () => {
  // Every tool Gemini CLI 0.61 declared to the model in the e2e run (its request's functionDeclarations).
  const DECLARED_IN_0_61 = ['update_topic', 'list_directory', 'read_file', 'grep_search', 'glob', 'replace', 'write_file', 'web_fetch', 'run_shell_command', 'list_background_processes', 'read_background_output', 'google_web_search', 'write_todos', 'enter_plan_mode', 'invoke_agent', 'activate_skill']

  it.each(DECLARED_IN_0_61)('%s is known (an operation, or inert with its reason)', (name) => {
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, name, {}).known).toBe(true)
  })

  it('classifies by operation and subject; MCP tools by prefix; an unknown tool is unknown', () => {
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'run_shell_command', { command: 'cat README.md' })).toMatchObject({ operations: ['shell'], subjects: ['proc:cat', 'file:README.md'] })
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'replace', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' })).toMatchObject({ operations: ['file.edit'], subjects: ['file:src/a.ts'] })
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'mcp_github_list_issues', {})).toMatchObject({ operations: ['mcp.call'], known: true })
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'update_topic', { title: 't' })).toMatchObject({ operations: [], known: true })
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'frobnicate', {})).toMatchObject({ operations: [], known: false })
  })
})
