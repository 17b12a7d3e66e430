import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkAnyFormatText, checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import type { TraceReport } from '../../src/trace/report-types.js'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'
import { detect } from '../transcript/detect.js'
import { detectTranscriptFile } from '../transcript/read.js'

describe('pi-session-jsonl', () => {
  it('opens with the model a model_change named; calls, results and per-request usage with cost; an error stop is a warning', async () => {
    const events = await convertLines('pi-session-jsonl', [
      { type: 'session', version: 3, id: 'S', timestamp: '2026-01-01T00:00:00Z', cwd: '/w' },
      { type: 'model_change', id: 'a1', parentId: null, timestamp: '2026-01-01T00:00:00Z', provider: 'p', modelId: 'gpt-x' },
      { type: 'message', id: 'a2', parentId: 'a1', timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: [{ type: 'text', text: 'read it' }] } },
      {
        type: 'message',
        id: 'a3',
        parentId: 'a2',
        timestamp: '2026-01-01T00:00:02Z',
        message: { role: 'assistant', model: 'gpt-x', content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'note.txt' } }], usage: { input: 10, output: 2, cacheRead: 4, cacheWrite: 0, cost: { total: 0.25 } }, stopReason: 'toolUse' },
      },
      { type: 'message', id: 'a4', parentId: 'a3', timestamp: '2026-01-01T00:00:03Z', message: { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'ENOENT' }], isError: true } },
      { type: 'message', id: 'a5', parentId: 'a4', timestamp: '2026-01-01T00:00:04Z', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: '429 rate limited' } },
      { type: 'compaction', id: 'a6', parentId: 'a5', timestamp: '2026-01-01T00:00:05Z', summary: 's', firstKeptEntryId: 'a2', tokensBefore: 9 },
    ])
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'usage', 'tool.result', 'warning', 'injection'])
    expect(events[0]).toMatchObject({ model: 'gpt-x', cwd: '/w', session_id: 'S' })
    expect(events[2]).toMatchObject({ call_id: 'c1', operations: ['file.read'], subjects: ['file:note.txt'] })
    expect(events[3]).toMatchObject({ usage: { input_tokens: 10, cache_read_input_tokens: 4, cost_usd: 0.25 } })
    expect(events[4]).toMatchObject({ call_id: 'c1', is_error: true })
    expect(events[5]).toMatchObject({ code: 'pi-error', message: '429 rate limited' })
    // A compaction's summary replaces older context: the model is given it.
    expect(events[6]).toMatchObject({ event: 'injection', text: 's', origin: 'compaction' })
  })

  it('detects a pre-v3 header: v1 writes no version and names the model itself; v2 has ids', () => {
    const v1 = { type: 'session', id: 'ffae836b', timestamp: '2025-12-09T00:53:29.825Z', cwd: '/w', provider: 'anthropic', modelId: 'claude-opus-4-5', thinkingLevel: 'off' }
    expect(detect([JSON.stringify(v1)])?.name).toBe('pi-session-jsonl')
    expect(detect([JSON.stringify({ type: 'session', version: 2, id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/w' })])?.name).toBe('pi-session-jsonl')
    // dsh's header has a millisecond createdAt and no ISO timestamp: not pi's.
    expect(detect([JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 1, cwd: '/w' })])?.name).toBe('deepseek-session-jsonl')
  })

  it('reads a v1 session: the header’s model, entries without ids, the user’s own bash run as an injection', async () => {
    const events = await convertLines('pi-session-jsonl', [
      { type: 'session', id: 'S1', timestamp: '2025-12-09T00:53:29.825Z', cwd: '/w', provider: 'anthropic', modelId: 'claude-opus-4-5', thinkingLevel: 'off' },
      { type: 'thinking_level_change', timestamp: '2025-12-09T00:53:30Z', thinkingLevel: 'high' },
      { type: 'message', timestamp: '2025-12-09T00:53:31Z', message: { role: 'bashExecution', command: 'npm test', output: 'ok', exitCode: 0, cancelled: false, truncated: false } },
      { type: 'message', timestamp: '2025-12-09T00:53:32Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' } }], usage: { input: 1, output: 1 } } },
    ])
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'usage'])
    expect(events[0]).toMatchObject({ model: 'claude-opus-4-5', session_id: 'S1' })
    expect(events[1]).toMatchObject({ text: 'npm test\nok', origin: 'user_shell' })
    expect(events[2]).toMatchObject({ operations: ['shell'] })
  })

  it('a session format it was not written against yields a version_drift warning naming the unknown records', async () => {
    const events = await convertLines('pi-session-jsonl', [
      { type: 'session', version: 4, id: 'S', timestamp: '2026-01-01T00:00:00Z', cwd: '/w' },
      { type: 'mode_change', id: 'a', parentId: null, timestamp: '2026-01-01T00:00:01Z', mode: 'plan' },
    ])
    expect(names(events)).toEqual(['session.started', 'opaque', 'warning'])
    expect(events[2]).toMatchObject({ code: 'version_drift' })
    expect(events[2]?.event === 'warning' && events[2].message).toContain('mode_change (1)')
  })

  it('a line holding two records (pi lost a newline) is read as both, not as one opaque line', async () => {
    const lines = [
      JSON.stringify({ type: 'session', id: 'S', timestamp: '2025-12-17T19:39:21.535Z', cwd: '/w' }),
      JSON.stringify({ type: 'message', timestamp: 't', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c9', name: 'bash', arguments: { command: 'pytest' } }], usage: { input: 1, output: 1 } } }) +
        JSON.stringify({ type: 'message', timestamp: 't', message: { role: 'user', content: [{ type: 'text', text: 'ok' }] } }),
    ]
    const events = await convertLines('pi-session-jsonl', lines)
    expect(names(events)).toEqual(['session.started', 'tool.requested', 'usage', 'injection'])
    expect(events[1]).toMatchObject({ call_id: 'c9', operations: ['shell'] })
  })
})

describe('pi --mode json stdout', () => {
  const FIXTURE = resolve(import.meta.dirname, '../../test/fixtures/failing-shell/pi.stdout.jsonl')

  it('0.84.2’s stdout, detected as pi’s: each message_end read as its message, nothing unread, closed by agent_settled', async () => {
    expect(detectTranscriptFile(FIXTURE)?.name).toBe('pi-session-jsonl')
    const events = await convertPath(FIXTURE)
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'usage', 'tool.result', 'text', 'usage', 'session.ended', 'stream.closed'])
    // agent_end ends the run: its answers' usage added up, one model turn each, unpriced (pi writes cost 0 for the loopback model).
    expect(events.at(-2)).toMatchObject({ event: 'session.ended', num_turns: 2, is_error: false, stop_reason: 'stop', total_cost_usd: null, usage: { input_tokens: 84, output_tokens: 12 } })
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'bash', operations: ['shell'], subjects: ['proc:echo', 'proc:exit'] })
    expect(events.find((event) => event.event === 'tool.result')).toMatchObject({ is_error: true, at: new Date(1796299680805).toISOString() })
    expect(events.at(-1)).toMatchObject({ reason: 'completed' })
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-command-failed\n    expect: {tool.failed: {operations: [shell], count: {at_most: 0}}}\n  - id: no-edit\n    expect: {tool.absent: {operations: [file.edit]}}\n')
    expect((await checkTranscriptFile(spec, FIXTURE)).expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['no-command-failed', 'gap'],
      ['no-edit', 'ok'],
    ])
  })

  it('an agent_end that will retry, or a torn line after the end, proves no end; an answer that stopped on error closes as error', async () => {
    const header = { type: 'session', version: 3, id: 's', timestamp: '2026-12-03T12:08:00.676Z', cwd: '/w' }
    const answer = (stopReason: string) => ({ type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text: 'x' }], stopReason, timestamp: 1 } })
    expect((await convertLines('pi-session-jsonl', [header, answer('stop'), { type: 'agent_end', messages: [], willRetry: true }])).at(-1)?.event).not.toBe('stream.closed')
    expect((await convertLines('pi-session-jsonl', [header, answer('stop'), { type: 'agent_end', messages: [], willRetry: false }])).at(-1)).toMatchObject({ event: 'stream.closed', reason: 'completed' })
    expect((await convertLines('pi-session-jsonl', [header, answer('error'), { type: 'agent_settled' }])).at(-1)).toMatchObject({ event: 'stream.closed', reason: 'error' })
    const torn = await convertLines('pi-session-jsonl', [header, answer('stop'), { type: 'agent_settled' }, '{"type":"agent'])
    expect(torn.at(-1)?.event).not.toBe('stream.closed')
  })

  it('agent_end states the run: priced answers’ costs added up; an answer without usage leaves tokens and cost unknown; a retried end states nothing yet', async () => {
    const header = { type: 'session', version: 3, id: 's', timestamp: '2026-12-03T12:08:00.676Z', cwd: '/w' }
    const answer = (text: string, cost: number | null) => ({ type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop', timestamp: 1, ...(cost === null ? {} : { usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: cost } } }) } })
    const end = { type: 'agent_end', messages: [], willRetry: false }
    const ended = async (lines: unknown[]) => (await convertLines('pi-session-jsonl', lines)).filter((event) => event.event === 'session.ended')
    expect(await ended([header, answer('a', 0.25), answer('b', 0.5), end])).toMatchObject([{ num_turns: 2, final_answer: 'b', total_cost_usd: 0.75, usage: { input_tokens: 20, output_tokens: 4 } }])
    expect(await ended([header, answer('a', 0.25), answer('b', null), end])).toMatchObject([{ num_turns: 2, total_cost_usd: null, usage: { input_tokens: null } }])
    expect(await ended([header, answer('a', 0.25), { ...end, willRetry: true }])).toEqual([])
  })

  it('an entry the session appends is read unless it is a message its message_end carried', async () => {
    const header = { type: 'session', version: 3, id: 's', timestamp: '2026-12-03T12:08:00.676Z', cwd: '/w' }
    const events = await convertLines('pi-session-jsonl', [
      header,
      { type: 'message_end', message: { role: 'user', content: [{ type: 'text', text: 'go' }], timestamp: 1 } },
      { type: 'entry_appended', entry: { type: 'message', id: 'a', parentId: null, timestamp: '2026-12-03T12:08:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } } },
      { type: 'entry_appended', entry: { type: 'compaction', id: 'b', parentId: 'a', timestamp: '2026-12-03T12:08:02.000Z', summary: 'so far' } },
    ])
    expect(events.filter((event) => event.event === 'injection').map((event) => event.event === 'injection' && event.text)).toEqual(['go', 'so far'])
  })
})

describe('pi 1.x: system messages, and the calls a codemode script made', () => {
  const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/pi-1.x')
  const fixture = (name: string) => resolve(FIXTURES, name)
  const header = { type: 'session', version: 3, id: 's', timestamp: '2026-12-08T02:09:22.000Z', cwd: '/w' }
  const codemodeCall = (id: string) => ({ type: 'message_end', message: { role: 'assistant', content: [{ type: 'toolCall', id, name: 'codemode', arguments: { code: 'await tools.bash({command: "rm -f x"})' } }], stopReason: 'toolUse', timestamp: 1 } })
  const codemodeResult = (id: string, extra: Record<string, unknown>) => ({ type: 'message_end', message: { role: 'toolResult', toolCallId: id, toolName: 'codemode', content: [{ type: 'text', text: 'Script completed' }], isError: false, timestamp: 2, ...extra } })
  const answer = { type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text: 'Done' }], stopReason: 'stop', timestamp: 3 } }
  const end = { type: 'agent_end', messages: [], willRetry: false }
  const specOf = (yaml: string) => readSpec(`format: trace-spec/1\nid: t\nexpectations:\n${yaml}`)
  const rowsOf = (report: TraceReport) => report.expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : row.outcome.outcome])
  const verdicts = async (yaml: string, file: string) => rowsOf(await checkTranscriptFile(specOf(yaml), file))
  const lineVerdicts = (yaml: string, lines: unknown[]) => rowsOf(checkAnyFormatText(specOf(yaml), lines.map((line) => `${JSON.stringify(line)}\n`).join('')))

  it('1.6.0’s stdout and session file: the leading system message is the prompt, read as an injection, so nothing is unread', async () => {
    for (const name of ['plain.stdout.jsonl', 'plain.session.jsonl']) {
      const events = await convertPath(fixture(name))
      expect(events.filter((event) => event.event === 'opaque'), name).toEqual([])
      const system = events.find((event) => event.event === 'injection' && event.origin === 'system')
      expect(system?.event === 'injection' && system.text, name).toMatch(/^You are a coding assistant running inside pi[^]*<tools>\n- read: Read file contents/)
    }
    // Before, the system message was unread, and every count over 1.x stdout was a lower bound.
    expect(await verdicts('  - id: one-shell-call\n    expect: {tool.called: {operations: [shell], count: {exactly: 1}}}\n', fixture('plain.stdout.jsonl'))).toEqual([['one-shell-call', 'ok']])
  })

  it('1.6.0 with --tools +codemode: the script’s bash and read calls, recorded on its result, are the run’s calls, so an absence of bash is a gap', async () => {
    for (const name of ['codemode.stdout.jsonl', 'codemode.session.jsonl']) {
      const events = await convertPath(fixture(name))
      const calls = events.flatMap((event) => (event.event === 'tool.requested' ? [[event.call_id, event.name, event.operations, event.subjects]] : []))
      expect(calls, name).toEqual([
        ['toolu_vh_001_1', 'codemode', [], []],
        ['toolu_vh_001_1/1', 'bash', ['shell'], ['proc:rm', 'file:junk.txt', 'proc:echo']],
        ['toolu_vh_001_1/2', 'read', ['file.read'], ['file:README.md']],
      ])
      // Each nested call's outcome (pi keeps no nested content), then the script's own result.
      expect(events.flatMap((event) => (event.event === 'tool.result' ? [[event.call_id, event.is_error, event.content === null]] : [])), name).toEqual([
        ['toolu_vh_001_1/1', false, true],
        ['toolu_vh_001_1/2', false, true],
        ['toolu_vh_001_1', false, false],
      ])
      expect(events.filter((event) => event.event === 'warning' || event.event === 'opaque'), name).toEqual([])
    }
    const rows = '  - id: no-bash\n    expect: {tool.absent: {tools: [bash]}}\n  - id: no-rm\n    expect: {tool.absent: {subject: {glob: "proc:rm"}}}\n  - id: read-first\n    expect: {order: {first: {tools: [read]}, before: {tools: [bash]}}}\n  - id: one-shell-call\n    expect: {tool.called: {operations: [shell], count: {exactly: 1}}}\n'
    expect(await verdicts(rows, fixture('codemode.stdout.jsonl'))).toEqual([
      ['no-bash', 'gap'],
      ['no-rm', 'gap'],
      ['read-first', 'gap'],
      ['one-shell-call', 'ok'],
    ])
  })

  it('a record pi cut short, or a script whose result never came, leaves its calls unseen: an absence is unknown, never ok', async () => {
    // Cut short: the second call had not finished, its arguments over pi's limit.
    const second = (complete: boolean) => (complete ? { status: 'ok', arguments: { path: 'b.md', content: 'x' } } : { status: 'unfinished', argumentsBytes: 9000 })
    const nested = (complete: boolean) => ({ nestedCalls: { calls: [{ id: 'c1/1', name: 'read', status: 'ok', arguments: { path: 'a.md' } }, { id: 'c1/2', name: 'write', ...second(complete) }], complete } })
    const cutLines = [header, codemodeCall('c1'), codemodeResult('c1', nested(false)), answer, end]
    const unansweredLines = [header, codemodeCall('c1'), answer, end]
    const wholeLines = [header, codemodeCall('c1'), codemodeResult('c1', nested(true)), answer, end]
    const cut = await convertLines('pi-session-jsonl', cutLines)
    expect(cut.find((event) => event.event === 'warning')).toMatchObject({ code: 'nested_calls_unseen' })
    // An unfinished call has no outcome.
    expect(cut.flatMap((event) => (event.event === 'tool.result' ? [event.call_id] : []))).toEqual(['c1/1', 'c1'])
    const unanswered = await convertLines('pi-session-jsonl', unansweredLines)
    expect(unanswered.filter((event) => event.event === 'warning')).toMatchObject([{ code: 'nested_calls_unseen' }])
    const whole = await convertLines('pi-session-jsonl', wholeLines)
    expect(whole.filter((event) => event.event === 'warning')).toEqual([])
    const rows = '  - id: no-bash\n    expect: {tool.absent: {tools: [bash]}}\n'
    expect(lineVerdicts(rows, cutLines)).toEqual([['no-bash', 'unknown:nested_calls_unseen']])
    expect(lineVerdicts(rows, unansweredLines)).toEqual([['no-bash', 'unknown:nested_calls_unseen']])
    // The whole record, and a closed stream: no script called bash.
    expect(lineVerdicts(rows, wholeLines)).toEqual([['no-bash', 'ok']])
  })

  it('model work a tool or pi itself did is the run’s cost too; an MCP tool is an MCP call; a later system message is an injection of what it sets', async () => {
    const work = { usage: { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } } }
    const priced = { ...answer, message: { ...answer.message, usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } } } }
    const events = await convertLines('pi-session-jsonl', [
      header,
      { type: 'message_end', message: { role: 'system', content: '', sections: { skills: '<skills>x</skills>', rules: null }, toolsRemoved: [{ name: 'write' }], timestamp: 0 } },
      { type: 'message_end', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'codemode', arguments: { code: 'x' } }], stopReason: 'toolUse', timestamp: 1, usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } } } },
      codemodeResult('c1', work),
      { type: 'message_end', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c2', name: 'mcp__docs__search', arguments: { q: 'x' } }], stopReason: 'toolUse', timestamp: 4, usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } } } },
      { type: 'entry_appended', entry: { type: 'usage', id: 'u', parentId: null, timestamp: '2026-12-08T02:09:23.000Z', kind: 'cache_warm', provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 50, cacheWrite: 0, cost: { total: 0.125 } } } },
      { type: 'compaction_start', reason: 'threshold' },
      { type: 'summarization_retry_scheduled', attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: 'terminated' },
      { type: 'summarization_retry_attempt_start', source: 'compaction', reason: 'threshold' },
      { type: 'summarization_retry_finished' },
      { type: 'compaction_end', reason: 'threshold', result: { summary: 's', firstKeptEntryId: 'a', tokensBefore: 9, usage: { input: 20, output: 3, cacheRead: 0, cacheWrite: 0, cost: { total: 0.0625 } } }, aborted: false, willRetry: false },
      { type: 'entry_appended', entry: { type: 'context_edit', id: 'e', parentId: 'u', timestamp: '2026-12-08T02:09:24.000Z', targetId: 'c3', replacement: null } },
      priced,
      end,
    ])
    expect(events.find((event) => event.event === 'injection')).toMatchObject({ origin: 'system', text: '<skills>x</skills>' })
    expect(events.find((event) => event.event === 'tool.requested' && event.call_id === 'c2')).toMatchObject({ operations: ['mcp.call'] })
    // Three answers at 0.25, the script's classifier at 0.5, pi's cache warming at 0.125, the compaction's summary at 0.0625: three model turns, not six.
    expect(events.find((event) => event.event === 'session.ended')).toMatchObject({ num_turns: 3, total_cost_usd: 1.4375, usage: { input_tokens: 150, output_tokens: 14, cache_read_input_tokens: 50 } })
    expect(events.filter((event) => event.event === 'opaque')).toEqual([])
  })
})
