import { describe, expect, it } from 'vitest'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'

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
    expect(names(events)).toEqual(['session.started', 'injection', 'injection', 'tool.requested', 'tool.result', 'text', 'opaque'])
    expect(events[0]).toMatchObject({ adapter: 'hermes', session_id: 'h1', model: 'hermes-model' })
    expect(events[3]).toMatchObject({ input: { path: 'a.txt' }, operations: ['file.read'], subjects: ['file:a.txt'] })
    expect(events[4]).toMatchObject({ call_id: 't1', is_error: null })
  })

  it('a snapshot without a messages list is refused with a typed error', async () => {
    const root = tree({ 'session_2.json': '{"session_id":"x"}' })
    await expect(convertPath(root, { from: 'hermes-session-json' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_BAD_SHAPE' })
  })
})
