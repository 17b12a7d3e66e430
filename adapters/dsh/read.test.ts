import { describe, expect, it } from 'vitest'
import { convertLines, names } from '../../test/helpers/project.js'

const header = (version: number) => ({ type: 'session', version, id: 'session-1', createdAt: 1790506922540, cwd: '/w', delegationDepth: 0 })
const call = { type: 'assistant/message', seq: 4, time: 1790506922700, data: { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'tool-call', id: 'k1', name: 'bash', arguments: '{"command":"ls src"}' }], source: { kind: 'model', provider: 'ds', model: 'ds-chat' } }, usage: { inputTokens: 30, outputTokens: 4 } } }

describe('deepseek-session-jsonl', () => {
  it('v0–v3: the tool result is a block of a user message, with its own error flag; the tool/call echo adds nothing', async () => {
    const events = await convertLines('deepseek-session-jsonl', [
      header(2),
      { type: 'turn/start', seq: 1, time: 1790506922600, data: { turn: 1 } },
      { type: 'request/header', seq: 2, time: 1790506922600, data: { header: { config: { model: 'ds-chat' }, tools: [{ name: 'bash' }, { name: 'read' }] } } },
      { type: 'step/start', seq: 3, time: 1790506922600, data: { turn: 1, step: 1 } },
      call,
      { type: 'tool/call', seq: 5, time: 1790506922700, data: { turn: 1, step: 1, callId: 'k1', name: 'bash', arguments: '{"command":"ls src"}' } },
      { type: 'tool/result', seq: 6, time: 1790506922800, data: { message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'k1', content: [{ type: 'text', text: 'denied' }], isError: true }] } } },
      { type: 'turn/end', seq: 7, time: 1790506922900, data: { turn: 1, reason: { kind: 'completed' } } },
    ])
    expect(names(events)).toEqual(['session.started', 'turn.started', 'tool.requested', 'usage', 'tool.result', 'turn.ended', 'session.ended'])
    expect(events[0]).toMatchObject({ model: 'ds-chat', offered_tools: ['bash', 'read'], at: '2026-09-27T11:02:02.540Z' })
    expect(events[2]).toMatchObject({ input: { command: 'ls src' }, operations: ['shell'], subjects: ['proc:ls'] })
    expect(events[4]).toMatchObject({ call_id: 'k1', is_error: true })
    expect(events[6]).toMatchObject({ num_turns: 1, terminal_reason: 'completed' })
  })

  it('a bash call whose output ends `[exit code: N]` failed, though dsh wrote isError: false; the code is kept, and only the last such line counts', async () => {
    const result = (id: string, text: string) => ({ type: 'tool/result', seq: 6, time: 1790506922800, data: { message: { role: 'user', content: [{ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text }], isError: false }] } } })
    const calls = { ...call, data: { ...call.data, message: { ...call.data.message, content: [
      { type: 'tool-call', id: 'k1', name: 'bash', arguments: '{"command":"shuf -n1 list"}' },
      { type: 'tool-call', id: 'k2', name: 'bash', arguments: '{"command":"cat log"}' },
      { type: 'tool-call', id: 'k3', name: 'read', arguments: '{"path":"notes.md"}' },
    ] } } }
    const events = await convertLines('deepseek-session-jsonl', [
      header(2),
      calls,
      result('k1', 'a\n[stderr]\nbash: shuf: command not found\n[exit code: 127]'),
      // The command printed the words itself and exited 0: dsh added no line after them.
      result('k2', '[exit code: 1]\n[exit code: 0]'),
      // Not a shell call: its text is the file's.
      result('k3', '[exit code: 2]'),
    ])
    const results = events.filter((event) => event.event === 'tool.result')
    expect(results.map((event) => [event.call_id, event.is_error, event.exit_code])).toEqual([
      ['k1', true, 127],
      ['k2', false, 0],
      ['k3', false, null],
    ])
  })

  it('a log that stops inside a turn it started has no end record: the earlier turn’s end is no end of the run', async () => {
    const turn = (n: number, seq: number) => [
      { type: 'turn/start', seq, time: 1790506922600 + seq, data: { turn: n } },
      { type: 'turn/end', seq: seq + 1, time: 1790506922600 + seq + 1, data: { turn: n, reason: { kind: 'completed' } } },
    ]
    expect(names(await convertLines('deepseek-session-jsonl', [header(2), ...turn(1, 1), ...turn(2, 3)])).at(-1)).toBe('session.ended')
    const cut = await convertLines('deepseek-session-jsonl', [header(2), ...turn(1, 1), { type: 'turn/start', seq: 3, time: 1790506922603, data: { turn: 2 } }])
    expect(names(cut)).not.toContain('session.ended')
  })

  it('v4: the tool result is the message itself; Reef’s lifted form (data beside type) reads the same', async () => {
    const events = await convertLines('deepseek-session-jsonl', [
      header(4),
      { type: 'tool/result', seq: 1, time: 1790506922800, message: { role: 'tool', toolCallId: 'k2', content: [{ type: 'text', text: 'ok' }], isError: false } },
      { type: 'approval/denied', seq: 2, time: 1790506922900, data: { callId: 'k3', reason: 'policy' } },
    ])
    expect(names(events)).toEqual(['session.started', 'tool.result', 'warning'])
    expect(events[1]).toMatchObject({ call_id: 'k2', is_error: false })
    expect(events[2]).toMatchObject({ code: 'approval-denied', message: 'policy' })
  })

  it('v4: a run_code program’s tool/ptc-dispatch sub-calls are calls (classified, with results), never opaque', async () => {
    const events = await convertLines('deepseek-session-jsonl', [
      header(4),
      { type: 'tool/call', seq: 1, time: 1790548591100, data: { callId: 'parent', name: 'run_code', arguments: '{"code":"return tools.bash({command: \'pytest -q\'})"}' } },
      { type: 'tool/ptc-dispatch-start', seq: 2, time: 1790548591200, data: { rootCallId: 'parent', parentCallId: 'parent', subCallId: 'parent:ptc:1', name: 'bash', arguments: { command: 'pytest -q' } } },
      { type: 'tool/ptc-dispatch', seq: 3, time: 1790548591300, data: { rootCallId: 'parent', parentCallId: 'parent', subCallId: 'parent:ptc:1', name: 'bash', arguments: { command: 'pytest -q' }, isError: false, content: [{ type: 'text', text: '1 passed' }] } },
      // A settled sub-call whose start record is missing still requests once.
      { type: 'tool/code-dispatch', seq: 4, time: 1790548591400, data: { subCallId: 'parent:code:2', name: 'read', arguments: { file_path: 'a.txt' }, isError: true, content: [] } },
    ])
    expect(names(events)).toEqual(['session.started', 'tool.requested', 'tool.requested', 'tool.result', 'tool.requested', 'tool.result'])
    expect(events[2]).toMatchObject({ call_id: 'parent:ptc:1', name: 'bash', operations: ['shell'], subjects: ['proc:pytest'] })
    expect(events[3]).toMatchObject({ call_id: 'parent:ptc:1', is_error: false })
    expect(events[4]).toMatchObject({ call_id: 'parent:code:2', operations: ['file.read'] })
    expect(events[5]).toMatchObject({ call_id: 'parent:code:2', is_error: true })
  })

  it('an assistant/message with text and no usage is still one request (events.assistant counts it)', async () => {
    const events = await convertLines('deepseek-session-jsonl', [
      header(0),
      { type: 'assistant/message', seq: 2, time: 1790506922700, data: { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'text', text: 'pgbouncer.ini does' }], source: { kind: 'model', provider: 'mini' } } } },
    ])
    expect(names(events)).toEqual(['session.started', 'text', 'usage'])
    expect(events[2]).toMatchObject({ usage: { input_tokens: null, output_tokens: null } })
  })

  it('records the vocabulary lists carry nothing; an unknown one is opaque, and an unknown log version says so', async () => {
    const events = await convertLines('deepseek-session-jsonl', [
      { type: 'session', version: 5, id: 's', createdAt: 1790506922540, cwd: '/w' },
      { type: 'agent/inbox/spliced', seq: 0, time: 1, data: { target: 'next-turn', start: 0, inserted: [] } },
      { type: 'reasoning-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [1], texts: ['x'] } },
      { type: 'approval/decided', seq: 2, time: 2, data: { id: 'a1', outcome: 'rejected' } },
      { type: 'team/whisper', seq: 3, time: 3, data: {} },
    ])
    expect(names(events)).toEqual(['session.started', 'warning', 'opaque', 'warning'])
    expect(events[1]).toMatchObject({ code: 'approval-denied' })
    expect(events[3]).toMatchObject({ code: 'version_drift' })
    expect(events[3]?.event === 'warning' && events[3].message).toContain('team/whisper (1)')
  })
})
