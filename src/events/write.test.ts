import { describe, expect, it } from 'vitest'
import { EVENT_NAMES } from './format.js'
import { readEventLine } from './read.js'
import type { Emission } from './types.js'
import { EventStreamWriter, writeEventLine } from './write.js'

const CENSUS = { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} }

// One emission of every event, with only the required fields set: the writer fills the rest.
const MINIMAL: { [N in (typeof EVENT_NAMES)[number]]: Extract<Emission, { event: N }> } = {
  'session.started': { event: 'session.started', adapter: 'x', adapter_class: 'harness', transcript: {}, hermetic: { mode: 'off', decisions: 'observe' } },
  'session.ended': { event: 'session.ended', census: CENSUS },
  'step.entered': { event: 'step.entered', step: { workflow: 'w', state: 's', index: 1, attempt: 1 } },
  'step.left': { event: 'step.left', step: { workflow: 'w', state: 's', index: 1, attempt: 1 }, outcome: { outcome: 'failed', reason: 'r' } },
  'turn.started': { event: 'turn.started', turn: 1 },
  'turn.ended': { event: 'turn.ended', turn: 1 },
  text: { event: 'text', text: 'hi' },
  thinking: { event: 'thinking', text: 'hm' },
  'thinking.estimate': { event: 'thinking.estimate', estimate: 12 },
  injection: { event: 'injection', text: 'x' },
  'tool.requested': { event: 'tool.requested', call_id: 'c', name: 'Read', input: { b: 1, a: 2 }, decision_required: false, seam: 'none' },
  'tool.decided': { event: 'tool.decided', call_id: 'c', decision: { decision: 'deny', reason: 'no' }, decided_by: 'embedder', seam: 'hook' },
  'tool.result': { event: 'tool.result', call_id: 'c' },
  usage: { event: 'usage', usage: {} },
  rate_limit: { event: 'rate_limit', info: { utilization: 0 } },
  'command.result': { event: 'command.result', id: 'c1', outcome: { result: 'refused', refused: { code: 'UNSUPPORTED_CONTROL', reason: 'r' } } },
  warning: { event: 'warning', code: 'W', message: 'm' },
  opaque: { event: 'opaque', digest: 'a'.repeat(64) },
  'auth.expired': { event: 'auth.expired' },
  'stream.closed': { event: 'stream.closed', events: 3, reason: 'completed' },
}

describe('writeEventLine', () => {
  it.each(EVENT_NAMES)('%s: writes a line the strict reader accepts', (name) => {
    const line = writeEventLine(7, 'r', MINIMAL[name])
    expect(line.endsWith('}\n')).toBe(true)
    expect(line.startsWith(`{"format":"metaharness.event/1","seq":7,"run":"r","event":"${name}"`)).toBe(true)
    const read = readEventLine(line.slice(0, -1), 1)
    expect(read.ok).toBe(true)
  })

  it('writes payload fields in declared order with explicit nulls', () => {
    expect(writeEventLine(1, 'r', MINIMAL['tool.result'])).toBe(
      '{"format":"metaharness.event/1","seq":1,"run":"r","event":"tool.result","exit_code":null,"outcome_source":null,"call_id":"c","is_error":null,"content":null,"bytes":null,"tool_use_result":null}\n',
    )
    expect(writeEventLine(1, 'r', MINIMAL.usage)).toBe(
      '{"format":"metaharness.event/1","seq":1,"run":"r","event":"usage","request_id":null,"model":null,"usage":{"input_tokens":null,"output_tokens":null,"cache_read_input_tokens":null,"cache_creation_input_tokens":null,"service_tier":null,"thinking_tokens":null,"iterations":null,"speed":null,"cost_usd":null}}\n',
    )
  })

  it('puts `at` after `run` only when the vendor recorded one', () => {
    expect(writeEventLine(2, 'r', { ...MINIMAL.text, at: '2026-08-23T02:57:58.487Z' })).toBe(
      '{"format":"metaharness.event/1","seq":2,"run":"r","at":"2026-08-23T02:57:58.487Z","event":"text","text":"hi","request_id":null}\n',
    )
    expect(writeEventLine(2, 'r', { ...MINIMAL.text, at: null })).not.toContain('"at"')
  })

  it('skips exactly the listed fields when empty: available_operations, operations, subjects', () => {
    const started = writeEventLine(1, 'r', MINIMAL['session.started'])
    expect(started).not.toContain('available_operations')
    expect(started).toContain('"withheld":null')
    expect(writeEventLine(1, 'r', { ...MINIMAL['session.started'], available_operations: [] })).toContain('"available_operations":[]')
    const requested = writeEventLine(1, 'r', MINIMAL['tool.requested'])
    expect(requested).not.toContain('operations')
    expect(requested).not.toContain('subjects')
    expect(writeEventLine(1, 'r', { ...MINIMAL['tool.requested'], operations: ['file.read'], subjects: ['file:a'] })).toContain(
      '"input":{"a":2,"b":1},"operations":["file.read"],"subjects":["file:a"],"decision_required":false',
    )
  })

  it('prints f64 fields the Rust way and u64 fields as integers', () => {
    expect(writeEventLine(1, 'r', MINIMAL.rate_limit)).toContain('"utilization":0.0')
    expect(writeEventLine(1, 'r', { event: 'session.ended', total_cost_usd: 2, num_turns: 2, census: CENSUS })).toContain(
      '"num_turns":2,"duration_ms":null,"duration_api_ms":null,"ttft_ms":null,"time_to_request_ms":null,"total_cost_usd":2.0',
    )
  })

  it('writes maps (census, model_usage) with sorted keys and tagged unions tag first', () => {
    const ended = writeEventLine(1, 'r', { event: 'session.ended', census: { ...CENSUS, by_seam: { z: 1, a: 2 } } })
    expect(ended).toContain('"by_seam":{"a":2,"z":1}')
    expect(writeEventLine(1, 'r', { event: 'tool.decided', call_id: 'c', decision: { reason: 'no', decision: 'deny' }, decided_by: 'frame', seam: 'hook' })).toContain(
      '"decision":{"decision":"deny","reason":"no"}',
    )
  })
})

describe('EventStreamWriter', () => {
  it('numbers lines from 1 and closes once, counting the lines before the marker', () => {
    const writer = new EventStreamWriter('run-1')
    const text = writer.write(MINIMAL.text) + writer.write(MINIMAL.thinking) + writer.close('completed') + writer.close('error')
    const lines = text.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[2]).toBe('{"format":"metaharness.event/1","seq":3,"run":"run-1","event":"stream.closed","events":2,"reason":"completed","run_id":"run-1"}')
    expect(() => writer.write(MINIMAL.text)).toThrow(/already closed/)
  })
})
