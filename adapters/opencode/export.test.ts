import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { detectTranscriptFile } from '../transcript/read.js'

// The shape `opencode export <session>` prints (JSON.stringify with two-space indent): nine messages' worth of records.
const EXPORT = {
  info: { id: 'ses_e1', slug: 'quiet-moon', version: '1.18.21', projectID: 'p', directory: '/w', title: 'fix', time: { created: 1790000000000, updated: 1790000009000 } },
  messages: [
    { info: { id: 'msg_1', sessionID: 'ses_e1', role: 'user', time: { created: 1790000000001 }, agent: 'build', model: { providerID: 'x', modelID: 'm1' } }, parts: [{ id: 'prt_1', type: 'text', text: 'run the tests' }, { id: 'prt_1b', type: 'file', mime: 'text/plain', url: 'file:///w/a.txt' }] },
    {
      info: { id: 'msg_2', sessionID: 'ses_e1', role: 'assistant', modelID: 'm1', providerID: 'x', time: { created: 1790000000002, completed: 1790000000005 } },
      parts: [
        { id: 'prt_2', type: 'step-start', snapshot: 'abc' },
        { id: 'prt_3', type: 'reasoning', text: 'run pytest', time: { start: 1790000000003 } },
        { id: 'prt_4', type: 'tool', tool: 'bash', callID: 'call_1', state: { status: 'completed', input: { command: 'pytest -q' }, output: '1 passed', time: { start: 1790000000003, end: 1790000000004 } } },
        { id: 'prt_5', type: 'patch', hash: 'def', files: ['/w/a.txt'] },
        { id: 'prt_6', type: 'step-finish', reason: 'tool-calls', tokens: { input: 10, output: 2, reasoning: 1, cache: { read: 0, write: 0 } }, cost: 0 },
      ],
    },
    { info: { id: 'msg_3', sessionID: 'ses_e1', role: 'assistant', modelID: 'm1', time: { created: 1790000000006 } }, parts: [{ id: 'prt_7', type: 'text', text: 'All tests pass.' }, { id: 'prt_8', type: 'step-finish', reason: 'stop', tokens: { input: 12, output: 4, reasoning: 0, cache: { read: 8, write: 0 } }, cost: 0 }] },
  ],
}

describe('opencode-export-json', () => {
  it('is detected as an opencode export (not hermes) and read: calls, results, usage, no record opaque', async () => {
    const root = tree({})
    const path = join(root, 'ses_e1.json')
    writeFileSync(path, JSON.stringify(EXPORT, null, 2))
    expect(detectTranscriptFile(path)?.name).toBe('opencode-export-json')
    const events = await convertPath(path)
    expect(names(events)).toEqual(['session.started', 'injection', 'thinking', 'tool.requested', 'tool.result', 'usage', 'text', 'usage'])
    expect(events[0]).toMatchObject({ adapter: 'opencode', session_id: 'ses_e1', cwd: '/w', harness_version: '1.18.21' })
    expect(events[3]).toMatchObject({ call_id: 'call_1', operations: ['shell'], subjects: ['proc:pytest'] })
    expect(events[4]).toMatchObject({ call_id: 'call_1', is_error: false })
    expect(events[7]).toMatchObject({ model: 'm1', usage: { input_tokens: 12, cache_read_input_tokens: 8 } })
  })

  it('is detected when it is longer than the 64 KiB head only in bytes (multi-byte text)', () => {
    const root = tree({})
    const path = join(root, 'long.json')
    // 40 000 three-byte characters: 120 000 bytes, but fewer than 65 536 characters in the first 64 KiB.
    const long = { ...EXPORT, messages: [{ ...EXPORT.messages[0], parts: [{ id: 'prt_long', type: 'text', text: '—'.repeat(40_000) }] }, ...EXPORT.messages.slice(1)] }
    writeFileSync(path, JSON.stringify(long, null, 2))
    expect(detectTranscriptFile(path)?.name).toBe('opencode-export-json')
  })

  it('an unknown part is opaque, and a version it was not written against names it in a drift warning', async () => {
    const root = tree({})
    const path = join(root, 'ses_e2.json')
    const drifted = { info: { ...EXPORT.info, version: '2.0.0' }, messages: [{ info: { id: 'msg_9', role: 'assistant' }, parts: [{ id: 'p', type: 'hologram' }] }] }
    writeFileSync(path, JSON.stringify(drifted, null, 2))
    const events = await convertPath(path)
    expect(names(events)).toEqual(['session.started', 'opaque', 'warning'])
    expect(events[2]).toMatchObject({ code: 'version_drift' })
    expect(events[2]?.event === 'warning' && events[2].message).toContain('part/hologram (1)')
  })
})
