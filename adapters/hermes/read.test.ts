import { describe, expect, it } from 'vitest'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { hermesFormat } from './read.js'

describe('hermes-session-json', () => {
  it('reads a snapshot: session facts, OpenAI-chat messages, arguments written as a JSON string', async () => {
    const root = tree({
      'sessions/session_1.json': JSON.stringify({
        session_id: 'h1',
        model: 'hermes-model',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'what is in a.txt?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] },
          { role: 'tool', tool_call_id: 't1', tool_name: 'read_file', content: 'hello' },
          { role: 'assistant', content: 'It says hello.', finish_reason: 'stop' },
          { role: 'critic', content: '?' },
        ],
      }),
    })
    const events = await convertPath(root)
    // Each assistant message is one request, so each closes with a usage record (hermes writes no counts).
    expect(names(events)).toEqual(['session.started', 'injection', 'injection', 'tool.requested', 'usage', 'tool.result', 'text', 'usage', 'opaque'])
    expect(events[0]).toMatchObject({ adapter: 'hermes', session_id: 'h1', model: 'hermes-model' })
    expect(events[3]).toMatchObject({ input: { path: 'a.txt' }, operations: ['file.read'], subjects: ['file:a.txt'] })
    expect(events[4]).toMatchObject({ usage: {}, model: 'hermes-model' })
    expect(events[5]).toMatchObject({ call_id: 't1', is_error: null })
  })

  it('events.assistant counts an assistant turn with text and no usage (the request record is the reader’s)', async () => {
    const root = tree({
      'session_3.json': JSON.stringify({ session_id: 'h3', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'assistant', content: '' }] }),
    })
    // A floor: a Hermes session file never says the run closed, so no ceiling on its records holds.
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: two\n    expect:\n      events.assistant:\n        count: {at_least: 2}\n  - id: at-most-two\n    expect:\n      events.assistant:\n        count: {at_most: 2}\n')
    const report = await checkTranscriptFile(spec, root)
    expect(report.expectations[0]).toMatchObject({ verdict: 'ok', outcome: { note: '2 assistant events, at least 2' } })
    expect(report.expectations[1]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'stream_not_closed' })
  })

  it('a tool nobody classified is named once in an unclassified_tool warning before its first call', async () => {
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'rl_start_training', arguments: '{}' } }] })
    const root = tree({ 'session_4.json': JSON.stringify({ session_id: 'h4', messages: [call('a'), call('b')] }) })
    const events = await convertPath(root)
    expect(events.filter((event) => event.event === 'warning').map((event) => event.event === 'warning' && event.code)).toEqual(['unclassified_tool'])
    expect(names(events)).toEqual(['session.started', 'warning', 'tool.requested', 'usage', 'tool.requested', 'usage'])
  })

  it('skill_manage (seen in a real session) writes the skills directory: file.write, no unclassified warning', async () => {
    const args = JSON.stringify({ action: 'patch', name: 'daily-report', old_string: 'a', new_string: 'b' })
    const root = tree({ 'session_5.json': JSON.stringify({ session_id: 'h5', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 's1', type: 'function', function: { name: 'skill_manage', arguments: args } }] }] }) })
    const events = await convertPath(root)
    expect(names(events)).toEqual(['session.started', 'tool.requested', 'usage'])
    expect(events[1]).toMatchObject({ call_id: 's1', operations: ['file.write'] })
  })

  it('an execute_code script that calls hermes_tools ran calls the session never records: a nested_calls_unseen warning, and an order after it is unknown', async () => {
    // hermes's code_execution_tool: the script imports a generated `hermes_tools` module whose
    // functions are answered over RPC; only the script's stdout enters the session.
    const script = JSON.stringify({ code: 'from hermes_tools import write_file\nwrite_file(path="src/a.py", content="x = 1\\n")\nprint("done")' })
    const plain = JSON.stringify({ code: 'print(sum(range(10)))' })
    const calls = (...list: [string, string, string][]) => ({ role: 'assistant', content: null, tool_calls: list.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) })
    const root = tree({
      'session_6.json': JSON.stringify({
        session_id: 'h6',
        messages: [calls(['p1', 'execute_code', plain]), calls(['x1', 'execute_code', script]), calls(['w1', 'write_file', JSON.stringify({ path: 'tests/test_a.py', content: 't' })]), calls(['w2', 'write_file', JSON.stringify({ path: 'src/b.py', content: 'b' })])],
      }),
    })
    const events = await convertPath(root)
    // One warning, after the script that names hermes_tools; the plain script calls no tool.
    expect(events.filter((event) => event.event === 'warning')).toEqual([expect.objectContaining({ code: 'nested_calls_unseen', message: expect.stringContaining('call x1 (execute_code)') })])
    expect(names(events).slice(0, 6)).toEqual(['session.started', 'tool.requested', 'usage', 'tool.requested', 'warning', 'usage'])
    // "Tests before code": in the session the test is written first, but the script wrote src/a.py before it.
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: tests-first\n    expect: {order: {first: {operations: [file.write], subject: {glob: "file:tests/*"}}, before: {operations: [file.write], subject: {glob: "file:src/*"}}}}\n')
    const report = await checkTranscriptFile(spec, root)
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'nested_calls_unseen', calls: 1 } })
  })

  it('an opencode export document is not hermes, though it holds a messages list', () => {
    expect(hermesFormat.sniff({ info: { id: 'ses_1' }, messages: [{ info: { role: 'user' }, parts: [] }] })).toBe(false)
    expect(hermesFormat.sniff({ session_id: 'h', messages: [] })).toBe(true)
    // Another tool's OpenAI-chat dump (FreeCAD AI writes {timestamp, messages}) is not hermes'.
    expect(hermesFormat.sniff({ timestamp: '2026-01-01T00:00:00', messages: [{ role: 'assistant', content: 'x', tool_calls: [] }] })).toBe(false)
  })

  it('a snapshot without a messages list is refused with a typed error', async () => {
    const root = tree({ 'session_2.json': '{"session_id":"x"}' })
    await expect(convertPath(root, { from: 'hermes-session-json' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_BAD_SHAPE' })
  })
})
