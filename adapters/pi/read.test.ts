import { describe, expect, it } from 'vitest'
import { convertLines, names } from '../../test/helpers/project.js'

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
    expect(names(events)).toEqual(['session.started', 'injection', 'tool.requested', 'usage', 'tool.result', 'warning', 'opaque'])
    expect(events[0]).toMatchObject({ model: 'gpt-x', cwd: '/w', session_id: 'S' })
    expect(events[2]).toMatchObject({ call_id: 'c1', operations: ['file.read'], subjects: ['file:note.txt'] })
    expect(events[3]).toMatchObject({ usage: { input_tokens: 10, cache_read_input_tokens: 4, cost_usd: 0.25 } })
    expect(events[4]).toMatchObject({ call_id: 'c1', is_error: true })
    expect(events[5]).toMatchObject({ code: 'pi-error', message: '429 rate limited' })
  })
})
