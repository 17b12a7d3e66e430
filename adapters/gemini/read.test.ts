import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
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
    expect(events.filter((event) => event.event === 'tool.requested')).toMatchObject([{ call_id: 'c1', operations: ['dir.list'] }])
    expect(events.filter((event) => event.event === 'tool.result')).toMatchObject([{ call_id: 'c1', content: 'a.ts', is_error: false }])
  })

  it('a call the file leaves awaiting approval or executing (the CLI was stopped) is requested all the same, with no result', async () => {
    const events = await convertLines('gemini-cli/session-jsonl', [
      header,
      { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'clean up' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'awaiting_approval' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: '', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'executing' }] },
    ])
    expect(events.filter((event) => event.event === 'tool.requested')).toMatchObject([{ call_id: 'c1', operations: ['shell'], subjects: ['proc:rm', 'file:build'] }])
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

describe('gemini-cli/session-json', () => {
  const conversation = (messages: unknown[]) => ({ sessionId: 's1', projectHash: 'abc', startTime: at(0), lastUpdated: at(9), messages })
  const shell = { id: 'g1', timestamp: at(2), type: 'gemini', content: 'Listing.', thoughts: [{ subject: 'Plan', description: 'list it', timestamp: at(1) }], tokens: { input: 50, output: 4, cached: 10, thoughts: 2, tool: 0, total: 56 }, model: 'gemini-2.5-pro', toolCalls: [{ id: 'run_shell_command-1', name: 'run_shell_command', args: { command: 'ls -la' }, status: 'success', timestamp: at(2), result: [{ functionResponse: { id: 'run_shell_command-1', name: 'run_shell_command', response: { output: 'a.txt' } } }] }] }
  const messages = [{ id: 'i1', timestamp: at(0), type: 'info', content: 'Update available' }, { id: 'u1', timestamp: at(1), type: 'user', content: 'ls' }, shell, { id: 'e1', timestamp: at(3), type: 'error', content: 'quota exceeded' }]

  it('reads the document the releases before the JSONL log wrote (JSON.stringify, two spaces), detected without --from: not as a hermes snapshot', async () => {
    const root = tree({ 'chats/session-2025-12-30T07-24-s1.json': JSON.stringify(conversation(messages), null, 2) })
    const path = `${root}/chats/session-2025-12-30T07-24-s1.json`
    expect(detectTranscriptFile(path)?.name).toBe('gemini-cli/session-json')
    const events = await convertPath(path)
    expect(names(events)).toEqual(['session.started', 'turn.started', 'thinking', 'text', 'usage', 'tool.requested', 'tool.result', 'warning'])
    expect(events[0]).toMatchObject({ adapter: 'gemini', session_id: 's1' })
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ call_id: 'run_shell_command-1', operations: ['shell'], subjects: ['proc:ls'] })
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ content: 'a.txt', is_error: false })
    expect(events.find((event) => event.event === 'usage')).toMatchObject({ model: 'gemini-2.5-pro', usage: { input_tokens: 40, cache_read_input_tokens: 10, output_tokens: 4 } })
    expect(events.find((event) => event.event === 'warning')).toMatchObject({ code: 'gemini-error', message: 'quota exceeded' })
    // Rewritten whole at every change, the document never proves the run ended.
    expect(events.at(-1)?.event).not.toBe('stream.closed')
  })

  it('times the message, never a call: no record says when one started, so how long it ran is unknown, not 0 ms', async () => {
    const root = tree({ 's.json': JSON.stringify(conversation(messages), null, 2) })
    const events = await convertPath(`${root}/s.json`)
    expect(events.find((event) => event.event === 'text')).toMatchObject({ at: at(2) })
    for (const name of ['tool.requested', 'tool.result']) expect(events.find((event) => event.event === name)?.at, name).toBeUndefined()
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: fast\n    expect: {step.exec_time: {operations: [shell], ms: {at_most: 1}}}\n  - id: quick\n    expect: {step.gen_time: {operations: [shell], ms: {at_most: 1}}}\n')
    const report = await checkTranscriptFile(spec, `${root}/s.json`)
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['fast', 'unknown'],
      ['quick', 'unknown'],
    ])
  })

  it('a document on one line is the document too, not a JSONL log whose first line holds the metadata (whose messages would go unread)', async () => {
    const root = tree({ 'one-line.json': JSON.stringify(conversation(messages)) })
    expect(detectTranscriptFile(`${root}/one-line.json`)?.name).toBe('gemini-cli/session-json')
    const events = await convertPath(`${root}/one-line.json`)
    expect(events.filter((event) => event.event === 'tool.requested')).toHaveLength(1)
  })

  it('a failed, a cancelled and a still-executing call; an unknown message type is opaque, at its line, and a version it was not written against names it', async () => {
    const calls = [
      { id: 'c1', name: 'write_file', args: { file_path: 'a.txt', content: 'x' }, status: 'error', result: [{ functionResponse: { id: 'c1', name: 'write_file', response: { error: 'denied' } } }] },
      { id: 'c2', name: 'run_shell_command', args: { command: 'make' }, status: 'cancelled', result: [], resultDisplay: 'cancelled by the user' },
      { id: 'c3', name: 'run_shell_command', args: { command: 'npm test' }, status: 'executing' },
    ]
    const text = JSON.stringify(conversation([{ id: 'g1', timestamp: at(1), type: 'gemini', content: '', toolCalls: calls }, { id: 'x1', timestamp: at(2), type: 'compression', content: '' }]), null, 2)
    const root = tree({ 's.json': text })
    const events = await convertPath(`${root}/s.json`, { seam: { harnessVersion: '0.30.0' } })
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && event.call_id)).toEqual(['c1', 'c2', 'c3'])
    expect(events.filter((event) => event.event === 'tool.result').map((event) => event.event === 'tool.result' && [event.call_id, event.is_error, event.content])).toEqual([
      ['c1', true, 'denied'],
      ['c2', true, 'cancelled by the user'],
    ])
    // The message's `{` is the line above its `"id": "x1"`.
    const opening = text.split('\n').findIndex((line) => line.includes('"id": "x1"'))
    expect(events.find((event) => event.event === 'opaque')).toMatchObject({ vendor_type: 'compression', source_line: opening })
    expect(events.find((event) => event.event === 'warning' && event.code === 'version_drift')).toMatchObject({ message: expect.stringContaining('compression (1)') })
  })

  it('a document without a messages list, or with a message that is not an object, is refused at its line', async () => {
    const root = tree({ 'none.json': JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: at(0), messages: {} }), 'bad.json': JSON.stringify(conversation([messages[1], 7]), null, 2) })
    await expect(convertPath(`${root}/none.json`, { from: 'gemini-cli/session-json' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_BAD_SHAPE', line: 1 })
    await expect(convertPath(`${root}/bad.json`)).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_BAD_SHAPE', line: 13, message: expect.stringContaining('message 2 is not an object') })
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
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ final_answer: 'The file says: hello harness', is_error: false, num_turns: null })
    // The result's stats are the run's usage too (the same totals its one usage event gives).
    const usage = events.find((event) => event.event === 'usage')
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ usage: usage?.event === 'usage' ? usage.usage : 'no usage event' })
    expect(events.filter((event) => event.event === 'warning').map((event) => event.code)).toEqual(['requests_unmarked'])
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
    expect(events.filter((event) => event.event === 'warning').map((event) => event.code)).toEqual(['requests_unmarked', 'gemini-json-calls-counted'])
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

  it('read_many_files names each path of its list (include in 0.61, paths before), and no glob: which files a glob reads is the tool’s to find', () => {
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'read_many_files', { include: ['README.md', 'src/**/*.ts', 'docs/', 'a?.md', 'b[0-9].md', '{c,d}.md'] }).subjects).toEqual(['file:README.md', 'file:docs/'])
    expect(classifyCall(GEMINI_TOOL_OPERATIONS, 'read_many_files', { paths: ['.engineering/notes.md'], exclude: ['*.log'] }).subjects).toEqual(['file:.engineering/notes.md'])
  })
})

describe('gemini-cli/stream-json and a subagent', () => {
  const SUBAGENT = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'gemini-subagent')

  it('a stream whose run delegated to a subagent proves no absence: the subagent’s calls are only in its own chat file', async () => {
    const stream = await convertPath(resolve(SUBAGENT, 'stream.jsonl'))
    const subagent = await convertPath(resolve(SUBAGENT, 'subagent.session.jsonl'))
    const called = (events: Awaited<ReturnType<typeof convertPath>>) => events.flatMap((event) => (event.event === 'tool.requested' ? [event.name] : []))
    expect(called(stream)).toEqual(['invoke_agent', 'run_shell_command', 'complete_task'])
    // The subagent ran a shell command of its own: not in the stream.
    expect(called(subagent)).toEqual(['run_shell_command', 'complete_task'])
    expect(stream.find((event) => event.event === 'warning' && event.code !== 'requests_unmarked')).toMatchObject({ code: 'subagent_calls_unseen' })
    expect(stream.some((event) => event.event === 'stream.closed')).toBe(false)
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-write\n    expect: {tool.absent: {operations: [file.write, file.edit]}}\n  - id: delegated\n    expect: {tool.called: {tools: [invoke_agent]}}\n')
    const report = await checkTranscriptFile(spec, resolve(SUBAGENT, 'stream.jsonl'))
    // The row names why: a subagent's calls are in its own file, not that the stream is unclosed.
    expect(report.expectations[0]?.outcome).toMatchObject({ reason: 'subagent_calls_unseen', subagents: 1 })
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-write', 'unknown'],
      ['delegated', 'ok'],
    ])
  })

  it('a stream with no subagent still closes', async () => {
    const events = await convertPath(resolve(FIXTURES, 'stream.jsonl'))
    expect(events.at(-1)?.event).toBe('stream.closed')
  })
})


describe('Gemini CLI and a command that failed', () => {
  const FAILING = resolve(import.meta.dirname, '../../test/fixtures/failing-shell')
  const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-command-failed\n    expect: {tool.failed: {operations: [shell], count: {at_most: 0}}}\n')

  it('0.61’s session file: `Exit Code: 3` in a `success` answer is a failed result with its exit code', async () => {
    const path = resolve(FAILING, 'gemini.session.jsonl')
    expect((await convertPath(path)).find((event) => event.event === 'tool.result')).toMatchObject({ is_error: true, exit_code: 3 })
    expect((await checkTranscriptFile(spec, path)).expectations[0]).toMatchObject({ verdict: 'gap' })
  })

  it('0.61’s stream-json says `success` whatever the exit: a shell result there says nothing of failure, so "no command failed" is unknown', async () => {
    const path = resolve(FAILING, 'gemini.stream.jsonl')
    expect((await convertPath(path)).find((event) => event.event === 'tool.result')).toMatchObject({ is_error: null, exit_code: null, content: 'out' })
    expect((await checkTranscriptFile(spec, path)).expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'result_field_absent', field: 'is_error' } })
    // Any other tool's success is a success.
    const events = await convertLines('gemini-cli/stream-json', [
      { type: 'tool_use', timestamp: at(1), tool_name: 'read_file', tool_id: 'r1', parameters: { file_path: 'a' } },
      { type: 'tool_result', timestamp: at(2), tool_id: 'r1', status: 'success', output: '' },
      { type: 'tool_use', timestamp: at(3), tool_name: 'run_shell_command', tool_id: 's1', parameters: { command: 'ls /nope' } },
      { type: 'tool_result', timestamp: at(4), tool_id: 's1', status: 'error', output: '', error: { type: 'x', message: 'failed' } },
    ])
    expect(events.filter((event) => event.event === 'tool.result').map((event) => event.event === 'tool.result' && event.is_error)).toEqual([false, true])
  })

  it('the last `Exit Code:` line is the CLI’s: a line the command printed before it does not stand in', async () => {
    const call = (id: string, output: string) => ({ id: 'g1', timestamp: at(2), type: 'gemini', content: '', toolCalls: [{ id, name: 'run_shell_command', args: { command: 'x' }, status: 'success', result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }] }] })
    const results = (await convertLines('gemini-cli/session-jsonl', [header, call('a', 'Output: Exit Code: 0\nExit Code: 0\nExit Code: 2\nProcess Group PGID: 1'), { ...call('b', 'Output: fine\nProcess Group PGID: 2'), id: 'g2' }])).filter((event) => event.event === 'tool.result')
    expect(results).toMatchObject([
      { call_id: 'a', is_error: true, exit_code: 2 },
      { call_id: 'b', is_error: false, exit_code: null },
    ])
  })
})
