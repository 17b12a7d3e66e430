import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { classifyCall } from '../shared/operations.js'
import { CLAUDE_TOOL_OPERATIONS } from './operations.js'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'

const init = { type: 'system', subtype: 'init', session_id: 's1', cwd: '/w', tools: ['Read', 'Bash'], model: 'm', apiKeySource: 'none', claude_code_version: '2.1.328', mcp_servers: [] }
const message = (id: string, content: unknown[], usage = { input_tokens: 5, output_tokens: 1 }) => ({
  type: 'assistant',
  session_id: 's1',
  timestamp: '2026-01-01T00:00:00Z',
  message: { id, model: 'm', role: 'assistant', content, usage },
})

describe('claude-code/stream-json', () => {
  it('session start: offered tools, model, cwd, version; closed by the last result record', async () => {
    const events = await convertLines('claude-code/stream-json', [init, { type: 'result', subtype: 'success', is_error: false, num_turns: 1, total_cost_usd: 0.5, session_id: 's1' }])
    expect(events[0]).toMatchObject({ event: 'session.started', offered_tools: ['Read', 'Bash'], model: 'm', cwd: '/w', harness_version: '2.1.328', mcp_servers: [] })
    expect(events[1]).toMatchObject({ event: 'session.ended', is_error: false, num_turns: 1, total_cost_usd: 0.5 })
    expect(events[2]).toEqual({ event: 'stream.closed', events: 2, reason: 'completed', run_id: 't' })
  })

  it('2.1.328: a Monitor is a shell call; a Workflow’s agents run apart from the stream, so it proves no closure, converted or read as it is', async () => {
    const path = resolve(import.meta.dirname, '../../test/fixtures/claude-workflow/monitor-then-workflow.stream.jsonl')
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'tool.requested')).toMatchObject([
      { name: 'Monitor', operations: ['shell'], subjects: ['proc:echo'] },
      { name: 'Workflow', operations: ['subagent.spawn'] },
    ])
    expect(events.filter((event) => event.event === 'warning')).toMatchObject([{ code: 'subagent_calls_unseen', message: expect.stringContaining('workflow') }])
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    expect(events.some((event) => event.event === 'stream.closed')).toBe(false)
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-bash\n    expect: {tool.absent: {tools: [Bash]}}\n')
    const report = await checkTranscriptFile(spec, path, { from: 'claude-code/stream-json' })
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'subagent_calls_unseen', subagents: 1 } })
  })

  it('every tool the real 2.1.328 offered is in its table, by operation or as inert', async () => {
    const init = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../test/fixtures/claude-workflow/monitor-then-workflow.stream.jsonl'), 'utf8').split('\n')[0] as string) as { tools: string[] }
    expect(init.tools.length).toBeGreaterThan(20)
    expect(init.tools.filter((tool) => !classifyCall(CLAUDE_TOOL_OPERATIONS, tool, {}).known)).toEqual([])
  })

  it('2.1.328 announces a refused call with system/permission_denied, which carries no call of its own', async () => {
    const denied = { type: 'system', subtype: 'permission_denied', tool_name: 'Monitor', tool_use_id: 'toolu_1', message: 'rm in /w/scratch.tmp needs approval.', session_id: 's1' }
    const events = await convertLines('claude-code/stream-json', [init, message('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Monitor', input: { command: 'rm scratch.tmp', description: 'watch', timeout_ms: 5000 } }]), denied])
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'Monitor', operations: ['shell'], subjects: ['proc:rm', 'file:scratch.tmp'] })
  })

  it('assistant lines sharing message.id are one message: blocks in order, one usage, the last line’s figures', async () => {
    const events = await convertLines('claude-code/stream-json', [
      message('msg_1', [{ type: 'thinking', thinking: 'hm' }], { input_tokens: 5, output_tokens: 1 }),
      { type: 'stream_event', session_id: 's1', event: { type: 'content_block_delta' } },
      message('msg_1', [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'cat a.txt | wc -l' } }], { input_tokens: 5, output_tokens: 9 }),
      { type: 'user', session_id: 's1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: '3', is_error: false }] } },
    ])
    expect(names(events)).toEqual(['thinking', 'tool.requested', 'usage', 'tool.result'])
    expect(events[1]).toMatchObject({ call_id: 'tu1', operations: ['shell'], subjects: ['proc:cat', 'file:a.txt', 'proc:wc'] })
    expect(events[2]).toMatchObject({ usage: { output_tokens: 9 } })
  })

  it('refusal shapes: a denied call is an errored result, the denial list passes through, a max-turns stop closes as budget', async () => {
    const events = await convertLines('claude-code/stream-json', [
      message('m1', [{ type: 'tool_use', id: 'tu9', name: 'Write', input: { file_path: '/x' } }]),
      { type: 'user', session_id: 's1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu9', content: 'Claude requested permissions to write to /x, but you haven\'t granted it yet.', is_error: true }] } },
      { type: 'result', subtype: 'error_max_turns', is_error: true, session_id: 's1', permission_denials: [{ tool_name: 'Write', tool_use_id: 'tu9', tool_input: { file_path: '/x' } }] },
    ])
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ call_id: 'tu9', is_error: true })
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ operations: ['file.write'], subjects: ['file:/x'] })
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ subtype: 'error_max_turns', permission_denials: [{ tool_name: 'Write', tool_use_id: 'tu9' }] })
    expect(events.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'budget' })
  })

  it('error shapes: an expired credential is auth.expired beside the result; an API error message is a warning', async () => {
    const events = await convertLines('claude-code/stream-json', [
      init,
      { ...message('m2', [{ type: 'text', text: 'API Error: 500 overloaded' }]), isApiErrorMessage: true },
      { type: 'result', subtype: 'error_during_execution', is_error: true, result: 'Your session has expired. Please run /login.', session_id: 's1' },
    ])
    expect(names(events)).toEqual(['session.started', 'text', 'warning', 'usage', 'auth.expired', 'session.ended', 'stream.closed'])
    expect(events.find((event) => event.event === 'auth.expired')).toMatchObject({ credential_source: 'none', source_line: 3 })
    expect(events.at(-1)).toMatchObject({ reason: 'error' })
  })

  it('a record after the result means the stream does not prove it ended', async () => {
    const events = await convertLines('claude-code/stream-json', [{ type: 'result', subtype: 'success', session_id: 's1' }, { type: 'rate_limit_event', session_id: 's1', rate_limit_info: { status: 'allowed' } }])
    expect(names(events)).toEqual(['session.ended', 'rate_limit'])
  })
})

describe('claude-session-jsonl', () => {
  it('opens the session on the first record naming it, with the cwd and version of the first message line', async () => {
    const events = await convertLines('claude-session-jsonl', [
      { type: 'queue-operation', operation: 'enqueue', sessionId: 'S', timestamp: '2026-01-01T00:00:00Z' },
      { type: 'user', sessionId: 'S', cwd: '/w', version: '2.1.328', permissionMode: 'default', message: { role: 'user', content: 'do it' }, timestamp: '2026-01-01T00:00:01Z' },
      { type: 'user', sessionId: 'S', isMeta: true, message: { role: 'user', content: 'reminder' } },
      { type: 'assistant', sessionId: 'S', requestId: 'r1', message: { id: 'a', model: 'm', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1 } } },
      { type: 'assistant', sessionId: 'S', requestId: 'r1', message: { id: 'a', model: 'm', content: [{ type: 'tool_use', id: 'c', name: 'Read', input: { file_path: 'f' } }], usage: { input_tokens: 1 } } },
      { type: 'user', sessionId: 'S', toolUseResult: { file: 'f' }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: [{ type: 'text', text: 'x' }] }] } },
    ])
    // The queue-operation is in the vocabulary: read, and it carries no call, so nothing of it is emitted.
    expect(names(events)).toEqual(['session.started', 'injection', 'injection', 'text', 'tool.requested', 'usage', 'tool.result'])
    expect(events[0]).toMatchObject({ session_id: 'S', cwd: '/w', harness_version: '2.1.328', permission_mode: 'default' })
    expect(events[2]).toMatchObject({ origin: 'meta' })
    expect(events[5]).toMatchObject({ request_id: 'r1' })
    expect(events[6]).toMatchObject({ tool_use_result: { file: 'f' }, bytes: 28, is_error: false })
  })
})

describe('claude-session-jsonl: what 2.1.328 keeps of each model request', () => {
  const path = resolve(import.meta.dirname, '../../test/fixtures/refused-calls/claude.session.jsonl')
  const records = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)

  it('api-request, api-request-shape, api-request-blob, tools-used and cost-state carry no call: read, not opaque, no drift (the real session file)', async () => {
    const kept = records.filter((record) => ['api-request', 'api-request-shape', 'api-request-blob', 'tools-used', 'cost-state'].includes(record['type'] as string))
    expect(new Set(kept.map((record) => record['type']))).toEqual(new Set(['api-request', 'api-request-shape', 'api-request-blob', 'tools-used', 'cost-state']))
    const events = await convertPath(path)
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
    expect(events.filter((event) => event.event === 'warning' && event.code !== 'approval-denied')).toEqual([])
    expect(events.filter((event) => event.event === 'tool.requested')).toHaveLength(1)
  })

  it('2.1.337 adds api-request-route, which carries no call: its real session file has nothing unread, and a count over it decides', async () => {
    const newer = resolve(import.meta.dirname, '../../test/fixtures/claude-2.1.337/session.jsonl')
    expect(readFileSync(newer, 'utf8')).toContain('"type":"api-request-route"')
    const events = await convertPath(newer)
    expect(events.filter((event) => event.event === 'opaque' || event.event === 'warning')).toEqual([])
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: rm-ran\n    expect: {tool.called: {subject: {glob: "proc:rm"}, count: {at_least: 1}}}\n  - id: one-shell-call\n    expect: {tool.called: {operations: [shell], count: {at_most: 1}}}\n')
    const rows = (await checkTranscriptFile(spec, newer)).expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome])
    // A ceiling needs the end of the run, which a session file never states; it is no longer a lower bound under unread records.
    expect(rows).toEqual([['rm-ran', 'ok'], ['one-shell-call', 'unknown:stream_not_closed']])
    // The same run's stdout states its end, and decides both.
    const stdout = (await checkTranscriptFile(spec, resolve(import.meta.dirname, '../../test/fixtures/claude-2.1.337/stream.jsonl'))).expectations.map((row) => [row.id, row.outcome.outcome])
    expect(stdout).toEqual([['rm-ran', 'ok'], ['one-shell-call', 'ok']])
  })

  it('a blob the model wrote could hold a call no assistant record does: it stays unread', async () => {
    const blob = (role: string) => ({ type: 'api-request-blob', sessionId: 'S', hash: '0'.repeat(64), message: { role, content: [{ type: 'tool_use', id: 'x', name: 'Bash', input: { command: 'rm -rf /' } }] } })
    const opening = { type: 'user', sessionId: 'S', cwd: '/w', version: '2.1.328', message: { role: 'user', content: 'do it' }, timestamp: '2026-01-01T00:00:01Z' }
    expect(names(await convertLines('claude-session-jsonl', [opening, blob('assistant')]))).toEqual(['session.started', 'injection', 'opaque'])
    expect(names(await convertLines('claude-session-jsonl', [opening, blob('user')]))).toEqual(['session.started', 'injection'])
  })
})

describe('claude-code/stream-json task records (Claude Code 2.1.284)', () => {
  const taskUpdated = { type: 'system', subtype: 'task_updated', task_id: 'a305', patch: { status: 'completed', end_time: 1790663534944 }, session_id: 's1' }
  const backgroundTasks = { type: 'system', subtype: 'background_tasks_changed', tasks: [{ task_id: 'a21d', task_type: 'local_agent', description: 'Run sleep' }], session_id: 's1' }
  const done = { type: 'result', subtype: 'success', is_error: false, session_id: 's1' }

  it('a task’s state patch and the background-task list carry no call: read, not opaque, and the run still closes', async () => {
    const events = await convertLines('claude-code/stream-json', [init, taskUpdated, backgroundTasks, done])
    expect(names(events)).toEqual(['session.started', 'session.ended', 'stream.closed'])
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
  })

  it('a system subtype nobody listed still stays opaque beside them', async () => {
    const events = await convertLines('claude-code/stream-json', [init, taskUpdated, { type: 'system', subtype: 'vh_never_seen', session_id: 's1' }, done])
    expect(events.filter((event) => event.event === 'opaque')).toMatchObject([{ vendor_type: 'system', vendor_subtype: 'vh_never_seen' }])
  })
})
