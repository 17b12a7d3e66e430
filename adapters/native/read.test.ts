import { describe, expect, it } from 'vitest'
import { convertLines, convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'

const line = (seq: number, type: string, data: object) => ({ type, seq, time: 1790000000000 + seq, data })

describe('native-jsonl', () => {
  it('maps a turn: header, calls with raw-string arguments, hook refusals, errored results, the end reason', async () => {
    const events = await convertLines('native-jsonl', [
      line(0, 'session', { version: 1, task: 't', model: 'm', cwd: '/w', tools: ['read_file', 'bash'], agent: 'root' }),
      line(1, 'turn/start', { turn: 1 }),
      line(2, 'step/start', { turn: 1, step: 1 }),
      line(3, 'assistant/message', { step: 1, content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf build"}' } }], finish: 'tool-calls', usage: { input_tokens: 9, output_tokens: 3 } }),
      line(4, 'tool/call', { step: 1, call_id: 'c1', name: 'bash', arguments: '{"command":"rm -rf build"}' }),
      line(5, 'hook/decision', { event: 'pre_execute', step: 1, hook: 'guard', owned: true, decision: { decision: 'deny', reason: 'no deletes' } }),
      line(6, 'tool/result', { step: 1, call_id: 'c1', name: 'bash', content: 'Error: no deletes', is_error: true, error: { code: 'HOOK_DENIED', message: 'no deletes' } }),
      line(7, 'step/end', { turn: 1, step: 1 }),
      line(9, 'turn/end', { turn: 1, reason: { kind: 'max-steps', steps: 12 } }),
    ])
    expect(names(events)).toEqual(['session.started', 'turn.started', 'tool.requested', 'usage', 'warning', 'tool.result', 'warning', 'turn.ended', 'session.ended'])
    expect(events[0]).toMatchObject({ adapter: 'native', offered_tools: ['read_file', 'bash'], model: 'm' })
    expect(events[2]).toMatchObject({ input: { command: 'rm -rf build' }, operations: ['shell'], subjects: ['proc:rm', 'file:build'] })
    expect(events[4]).toMatchObject({ code: 'hook-refused', message: 'no deletes' })
    expect(events[5]).toMatchObject({ is_error: true })
    expect(events[6]).toMatchObject({ code: 'native-seq-gap' })
    expect(events[8]).toMatchObject({ is_error: true, subtype: 'max-steps', num_turns: 1 })
  })

  it('reads a session tree in Path order: agents/ before session.jsonl', async () => {
    const root = tree({
      'session.jsonl': `${JSON.stringify(line(0, 'session', { model: 'root-model' }))}\n`,
      'agents/001-helper.jsonl': `${JSON.stringify(line(0, 'session', { model: 'agent-model' }))}\n`,
    })
    const events = await convertPath(root, { from: 'native-jsonl' })
    expect(events.map((event) => event.event === 'session.started' && event.model)).toEqual(['agent-model', 'root-model'])
  })
})
