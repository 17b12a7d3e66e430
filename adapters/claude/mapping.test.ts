import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import type { Emission } from '../../src/events/types.js'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { convertTranscriptSync, detectTranscriptFile } from '../transcript/read.js'

const init = (session: string, version = '2.1.30') => ({ type: 'system', subtype: 'init', session_id: session, cwd: '/w', tools: ['Bash', 'Read'], model: 'm', claude_code_version: version })
const call = (session: string, id: string, name: string, input: unknown) => ({
  type: 'assistant',
  session_id: session,
  message: { id: `msg_${id}`, model: 'm', role: 'assistant', content: [{ type: 'tool_use', id, name, input }], usage: { input_tokens: 1, output_tokens: 1 } },
})
const result = (session: string, id: string, content: string, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  session_id: session,
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...extra }] },
})
const done = (session: string, extra: Record<string, unknown> = {}) => ({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, session_id: session, ...extra })
const jsonl = (records: readonly unknown[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n'

const spec = readSpec(`format: trace-spec/1
id: one-answer
expectations:
  - id: pytest-ran
    expect:
      tool.called:
        operations: [shell]
        args: {command: {contains: "pytest"}}
        count: {at_least: 1}
  - id: no-shell
    expect:
      tool.absent:
        operations: [shell]
  - id: no-write
    expect:
      tool.absent:
        tools: [Write]
  - id: nothing-failed
    expect:
      tool.failed:
        count: {exactly: 0}
  - id: read-once
    expect:
      tool.called:
        operations: [file.read]
        count: {exactly: 1}
`)

async function verdicts(path: string): Promise<string[]> {
  const report = await checkTranscriptFile(spec, path)
  return report.expectations.map((row) => `${row.id}:${row.verdict}`)
}

describe('auth.expired comes from the harness, never from what a tool read', () => {
  it('a Read result that says "Session expired" is a file’s text, not an expired credential', async () => {
    const events = await convertLines('claude-code/stream-json', [init('s'), call('s', 't1', 'Read', { file_path: 'notes.md' }), result('s', 't1', 'Error: Session expired. Please run /login again.'), done('s')])
    expect(events.filter((event) => event.event === 'auth.expired')).toEqual([])
  })

  it('the harness’s own failed result and its API-error assistant line do say so', async () => {
    const events = await convertLines('claude-code/stream-json', [
      init('s'),
      { type: 'assistant', session_id: 's', isApiErrorMessage: true, error: 'authentication_failed', message: { id: 'e', model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'OAuth token has expired. Please run /login' }] } },
      done('s', { subtype: 'success', is_error: true, result: 'Failed to refresh access token' }),
    ])
    expect(events.filter((event) => event.event === 'auth.expired').map((event) => (event as Extract<Emission, { event: 'auth.expired' }>).detail)).toEqual([
      'OAuth token has expired. Please run /login',
      'Failed to refresh access token',
    ])
  })
})

describe('two sessions in one stream-json file', () => {
  const records = [init('a'), call('a', 't1', 'Bash', { command: 'pytest -q' }), result('a', 't1', 'ok'), done('a'), init('b'), call('b', 't2', 'Read', { file_path: 'x' }), result('b', 't2', 'x'), done('b')]

  it('are both read: two starts, two ends, every call of each', async () => {
    const events = await convertLines('claude-code/stream-json', records)
    expect(names(events).filter((name) => name.startsWith('session.'))).toEqual(['session.started', 'session.ended', 'session.started', 'session.ended'])
    expect(events.flatMap((event) => (event.event === 'tool.requested' ? [event.call_id] : []))).toEqual(['t1', 't2'])
  })

  it('and the first session’s call decides a row, read directly or converted', async () => {
    const root = tree({ 'two.jsonl': jsonl(records) })
    const direct = await verdicts(join(root, 'two.jsonl'))
    expect(direct).toEqual(['pytest-ran:ok', 'no-shell:gap', 'no-write:ok', 'nothing-failed:ok', 'read-once:ok'])
    const converted = tree({ 'converted.jsonl': convertTranscriptSync(join(root, 'two.jsonl'), { run: 'convert' }) })
    expect(await verdicts(join(converted, 'converted.jsonl'))).toEqual(direct)
  })
})

describe('one answer per transcript: check on stream-json and check on its conversion agree', () => {
  it('with a compaction boundary, a partial-message delta, results that write no is_error, and a shell call', async () => {
    const root = tree({
      'run.jsonl': jsonl([
        init('s'),
        { type: 'stream_event', session_id: 's', event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'h' } } },
        call('s', 't1', 'Bash', { command: 'pytest -q' }),
        result('s', 't1', '3 passed'),
        { type: 'system', subtype: 'compact_boundary', session_id: 's', compact_metadata: { trigger: 'auto', pre_tokens: 1000 } },
        call('s', 't2', 'Read', { file_path: 'a.md' }),
        result('s', 't2', 'text'),
        done('s'),
      ]),
    })
    const direct = await verdicts(join(root, 'run.jsonl'))
    // Before the vocabulary, the direct read left the compaction opaque (pytest-ran unknown) and
    // named no operation (no-shell and read-once unknown or a false ok), while the conversion decided them.
    expect(direct).toEqual(['pytest-ran:ok', 'no-shell:gap', 'no-write:ok', 'nothing-failed:ok', 'read-once:ok'])
    const converted = tree({ 'converted.jsonl': convertTranscriptSync(join(root, 'run.jsonl'), { run: 'convert' }) })
    expect(await verdicts(join(converted, 'converted.jsonl'))).toEqual(direct)
  })
})

describe('closure, read alike by both routes', () => {
  it('a result followed by the SDK host going idle still closes the run; a record that yields something after it does not', async () => {
    const idle = { type: 'system', subtype: 'session_state_changed', state: 'idle', session_id: 's' }
    const closed = tree({ 'run.jsonl': jsonl([init('s'), call('s', 't1', 'Read', { file_path: 'a' }), result('s', 't1', 'a'), done('s'), idle]) })
    const events = await convertPath(join(closed, 'run.jsonl'))
    expect(events.at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })
    const direct = await verdicts(join(closed, 'run.jsonl'))
    expect(direct).toContain('no-write:ok')
    const converted = tree({ 'converted.jsonl': convertTranscriptSync(join(closed, 'run.jsonl'), { run: 'convert' }) })
    expect(await verdicts(join(converted, 'converted.jsonl'))).toEqual(direct)

    const reopened = await convertLines('claude-code/stream-json', [init('s'), done('s'), { type: 'rate_limit_event', session_id: 's', rate_limit_info: { status: 'allowed' } }])
    expect(names(reopened)).not.toContain('stream.closed')
  })
})

describe('a Claude projects directory', () => {
  it('reads each subagent transcript right after its parent’s, not before it', async () => {
    const line = (session: string, text: string, sidechain = false) => JSON.stringify({ type: 'user', sessionId: session, isSidechain: sidechain, cwd: '/w', version: '2.1.30', message: { role: 'user', content: text } })
    const root = tree({
      'aaa.jsonl': `${line('aaa', 'first session')}\n`,
      'sid.jsonl': `${line('sid', 'parent')}\n`,
      'sid/subagents/agent-1.jsonl': `${line('sid', 'subagent', true)}\n`,
      'zzz.jsonl': `${line('zzz', 'last session')}\n`,
    })
    const events = await convertPath(root)
    expect(events.flatMap((event) => (event.event === 'injection' ? [event.text] : []))).toEqual(['first session', 'parent', 'subagent', 'last session'])
  })
})

describe('detection of the other shapes Claude Code output takes', () => {
  const records = [init('s'), call('s', 't1', 'Bash', { command: 'ls' }), result('s', 't1', 'a'), done('s')]

  it('the JSON array of `--output-format json --verbose`, pretty or on one line', async () => {
    for (const text of [JSON.stringify(records, null, 2), JSON.stringify(records)]) {
      const root = tree({ 'out.json': text })
      const path = join(root, 'out.json')
      expect(detectTranscriptFile(path)?.name).toBe('claude-code/json-array')
      const events = await convertPath(path)
      expect(names(events)).toEqual(['session.started', 'tool.requested', 'usage', 'tool.result', 'session.ended', 'stream.closed'])
      expect(events[1]).toMatchObject({ call_id: 't1', operations: ['shell'] })
    }
  })

  it('stream-json lines a wrapper logged as {timestamp, raw}, raw as a string or as the object', async () => {
    const wrapped = records.map((record, index) => ({ timestamp: `2026-01-01T00:00:0${index}Z`, raw: index % 2 === 0 ? JSON.stringify(record) : record }))
    const root = tree({ 'wrapped.jsonl': jsonl(wrapped) })
    const path = join(root, 'wrapped.jsonl')
    expect(detectTranscriptFile(path)?.name).toBe('claude-code/stream-json-wrapped')
    const events = await convertPath(path)
    expect(names(events)).toEqual(['session.started', 'tool.requested', 'usage', 'tool.result', 'session.ended', 'stream.closed'])
    expect(events[1]).toMatchObject({ at: '2026-01-01T00:00:01Z', operations: ['shell'] })
  })
})

describe('the vocabulary and version drift', () => {
  it('reads every listed session record without an opaque event, and names an unlisted one', async () => {
    const events = await convertLines('claude-session-jsonl', [
      { type: 'summary', summary: 'Fixing the build', leafUuid: 'u1' },
      { type: 'file-history-snapshot', messageId: 'm', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false },
      { type: 'user', sessionId: 'S', cwd: '/w', version: '2.1.30', message: { role: 'user', content: 'go' } },
      { type: 'attachment', sessionId: 'S', attachment: { type: 'hook_success', hookName: 'SessionStart:startup' } },
      { type: 'system', subtype: 'compact_boundary', sessionId: 'S', compactMetadata: { trigger: 'auto' } },
      { type: 'user', sessionId: 'S', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued…' } },
      { type: 'user', sessionId: 'S', message: { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } }] } },
      { type: 'assistant', sessionId: 'S', message: { id: 'a', model: 'm', content: [{ type: 'redacted_thinking', data: 'x' }, { type: 'tool_use', id: 'c', name: 'ExitPlanMode', input: {} }] } },
      { type: 'queue-operation', operation: 'enqueue', sessionId: 'S' },
      { type: 'last-prompt', lastPrompt: 'go', sessionId: 'S' },
      { type: 'brand-new-record', sessionId: 'S' },
    ])
    expect(events.filter((event) => event.event === 'opaque').map((event) => (event as Extract<Emission, { event: 'opaque' }>).vendor_type)).toEqual(['brand-new-record'])
    // ExitPlanMode is inert: known, no operation, and no unclassified warning.
    expect(events.filter((event) => event.event === 'warning')).toEqual([])
    expect(names(events)).toEqual(['session.started', 'injection', 'injection', 'tool.requested', 'opaque'])
  })

  it('warns once, at the end, for a version it was not written against, naming the types it did not know', async () => {
    const events = await convertLines('claude-code/stream-json', [init('s', '3.0.1'), { type: 'hologram', session_id: 's' }, call('s', 't1', 'Teleport', {}), done('s')])
    const warnings = events.filter((event): event is Extract<Emission, { event: 'warning' }> => event.event === 'warning')
    expect(warnings.map((warning) => warning.code)).toEqual(['unclassified_tool', 'version_drift'])
    expect(warnings[1]?.message).toContain('claude-code 3.0.1')
    expect(warnings[1]?.message).toContain('hologram (1)')
    const known = await convertLines('claude-code/stream-json', [init('s', '2.1.30'), done('s')])
    expect(known.filter((event) => event.event === 'warning')).toEqual([])
  })
})
