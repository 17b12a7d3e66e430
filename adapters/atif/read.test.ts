import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TranscriptError } from '../errors.js'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'

const trajectory = (version: string, steps: unknown[], extra: object = {}) => JSON.stringify({ schema_version: version, session_id: 's', agent: { name: 'a', version: '1', model_name: 'm' }, steps, ...extra }, null, 2)

describe('atif-json and terminus-atif-json', () => {
  it('accepts v1.0 to v1.7 and refuses v1.8 with a typed error', async () => {
    for (const minor of [0, 5, 7]) {
      const root = tree({ 't.json': trajectory(`ATIF-v1.${minor}`, [{ step_id: 1, source: 'user', message: 'hi' }]) })
      expect(names(await convertPath(join(root, 't.json')))).toEqual(['session.started', 'injection'])
    }
    const root = tree({ 't.json': trajectory('ATIF-v1.8', []) })
    await expect(convertPath(join(root, 't.json'), { from: 'atif-json' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_UNSUPPORTED_VERSION', line: 1 })
  })

  it('validator failures are warnings; an unknown step source is opaque at its line; a result without a call id answers the only call', async () => {
    const root = tree({
      't.json': trajectory('ATIF-v1.6', [
        { step_id: 1, source: 'agent', message: 'x', tool_calls: [{ tool_call_id: 'k', function_name: 'bash_command', arguments: { keystrokes: 'ls -la\n' } }], observation: { results: [{ content: [{ type: 'text', text: 'a b' }] }] } },
        { step_id: 3, source: 'robot', message: 'y' },
      ]),
    })
    const events = await convertPath(join(root, 't.json'))
    expect(names(events)).toEqual(['session.started', 'text', 'tool.requested', 'tool.result', 'warning', 'opaque'])
    expect(events[2]).toMatchObject({ operations: ['shell'], subjects: ['proc:ls'] })
    expect(events[3]).toMatchObject({ call_id: 'k' })
    expect(events[4]).toMatchObject({ code: 'atif-step-id' })
    expect(events[5]).toMatchObject({ vendor_type: 'step', vendor_subtype: 'robot', source_line: 36 })
  })

  it('a terminus trial record: a failed trial ends in error and closes as such', async () => {
    const root = tree({ 'task.json': JSON.stringify({ task: 'hello-world', rewards: {}, reward: null, failed: true, error: 'AgentTimeoutError', steps: [{ step_id: 1, source: 'user', message: 'go' }] }) })
    const events = await convertPath(root)
    expect(names(events)).toEqual(['session.started', 'injection', 'session.ended', 'stream.closed'])
    expect(events[0]).toMatchObject({ adapter: 'terminus' })
    expect(events[2]).toMatchObject({ is_error: true, subtype: 'AgentTimeoutError' })
    expect(events[3]).toMatchObject({ reason: 'error' })
  })

  it('a document that is not JSON is refused with its file and line: no tolerance', async () => {
    const root = tree({ 'bad.json': '{\n  "schema_version": "ATIF-v1.4",\n  "steps": [,]\n}\n' })
    const error = await convertPath(join(root, 'bad.json'), { from: 'atif-json' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TranscriptError)
    expect(error).toMatchObject({ code: 'VH_TRANSCRIPT_NOT_JSON', line: 3 })
  })
})
