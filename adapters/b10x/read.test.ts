import { describe, expect, it } from 'vitest'
import { digestLine } from '../../src/events/digest.js'
import { readEventTextOrThrow } from '../../src/events/read.js'
import { checkAnyFormatText } from '../../src/trace/check/check.js'
import { specOf } from '../../test/helpers/trace.js'
import type { SeamOptions } from '../types.js'
import { replayB10xLoop } from './index.js'
import { B10X_LOOP_VOCABULARY } from './loop-vocabulary.js'
import { B10xProjector } from './read.js'

const SEAM: SeamOptions = { run: 't', harnessVersion: '0.12.1', model: 'seam-model', cwd: '/w' }

function one(line: string) {
  const events = new B10xProjector(SEAM).pushLine(line, 3)
  expect(events).toHaveLength(1)
  return events[0]
}

describe('B10xProjector: the loop record, kind by kind', () => {
  it('started: passes the lists through, leaves absent withheld as null, mcp_servers is []', () => {
    const event = one('{"kind":"started","model":"m","published_tools":["file_read",7],"operations":["file.read"],"credential_source":"none"}')
    expect(event).toMatchObject({
      event: 'session.started',
      adapter: 'b10x',
      adapter_class: 'direct_provider',
      harness_version: '0.12.1',
      model: 'm',
      offered_tools: ['file_read'],
      available_operations: ['file.read'],
      withheld: null,
      skills: [],
      agents: [],
      mcp_servers: [],
      cwd: '/w',
      credential_source: 'none',
    })
  })

  it('started without a model falls back to the seam model', () => {
    expect(one('{"kind":"started"}')).toMatchObject({ model: 'seam-model', offered_tools: null })
  })

  it('tool-requested: observe-only, decided by nobody, subjects and operation not carried', () => {
    const event = one('{"kind":"tool-requested","call_id":"c1","name":"file_read","arguments":{"path":"a"},"operation":"file.read","subjects":["file:a"]}')
    expect(event).toEqual({ event: 'tool.requested', call_id: 'c1', name: 'file_read', input: { path: 'a' }, decision_required: false, deadline_ms: null, seam: 'none' })
  })

  it('tool-completed: is_error from failed, null when absent', () => {
    expect(one('{"kind":"tool-completed","call_id":"c","failed":true}')).toMatchObject({ is_error: true })
    expect(one('{"kind":"tool-completed","call_id":"c"}')).toMatchObject({ is_error: null })
  })

  it('usage: only what the loop reported; cached_input_tokens is the cache read', () => {
    expect(one('{"kind":"usage","model":"m","input_tokens":42,"output_tokens":8,"cached_input_tokens":7,"cache_creation_input_tokens":3}')).toEqual({
      event: 'usage',
      request_id: null,
      model: 'm',
      usage: { input_tokens: 42, output_tokens: 8, cache_read_input_tokens: 7 },
    })
  })

  it('approval-resolved: a denial is a warning naming the call; an approval is bookkeeping', () => {
    expect(one('{"kind":"approval-resolved","call_id":"c9","approved":false}')).toEqual({ event: 'warning', code: 'approval-denied', message: 'the approver denied c9' })
    expect(new B10xProjector(SEAM).pushLine('{"kind":"approval-resolved","call_id":"c9","approved":true}', 1)).toEqual([])
  })

  it.each(['tool-arguments-delta', 'approval-required', 'rates', 'cost'])('%s is read and emits nothing', (kind) => {
    expect(new B10xProjector(SEAM).pushLine(`{"kind":"${kind}","micro_usd":5}`, 1)).toEqual([])
  })

  it('cost lines sum into session.ended.total_cost_usd; no cost line leaves it null', () => {
    const priced = replayB10xLoop('{"kind":"cost","micro_usd":1500000}\n{"kind":"cost","micro_usd":1}\n{"kind":"finished","stop":{"kind":"completed"},"turns":1}\n', SEAM)
    expect(priced).toContain('"total_cost_usd":1.500001,')
    const whole = replayB10xLoop('{"kind":"cost","micro_usd":2000000}\n{"kind":"finished","stop":{"kind":"completed"}}\n', SEAM)
    expect(whole).toContain('"total_cost_usd":2.0,')
    expect(replayB10xLoop('{"kind":"finished","stop":{"kind":"completed"}}\n', SEAM)).toContain('"total_cost_usd":null,')
  })

  it('finished: the stop word is subtype and terminal reason; turns fall back to the stop', () => {
    expect(one('{"kind":"finished","stop":{"kind":"max-turns","turns":9}}')).toMatchObject({
      is_error: true,
      subtype: 'max-turns',
      terminal_reason: 'max-turns',
      num_turns: 9,
      permission_denials: [],
      subagents_spawned: 0,
    })
    expect(one('{"kind":"finished","stop":{"kind":"completed"},"turns":2}')).toMatchObject({ is_error: false, num_turns: 2 })
    expect(one('{"kind":"finished"}')).toMatchObject({ subtype: 'unknown', is_error: true, num_turns: null })
  })

  it('an unknown kind and a non-JSON line are opaque with the raw line digest and their line number', () => {
    const line = '{"kind":"invented-later","detail":1}'
    expect(one(line)).toEqual({ event: 'opaque', vendor_type: 'b10x', vendor_subtype: 'invented-later', digest: digestLine(line), source_line: 3 })
    expect(one('not json')).toMatchObject({ vendor_subtype: null, source_line: 3 })
    expect(one('[1]')).toMatchObject({ vendor_subtype: '' })
    expect(one('{"kind":7}')).toMatchObject({ vendor_subtype: '' })
  })

  it('undecodable bytes are opaque with the digest of the bytes', () => {
    const bytes = Uint8Array.from([0xff, 0xfe])
    expect(new B10xProjector(SEAM).pushUndecodable(bytes, 5)).toEqual([
      { event: 'opaque', vendor_type: 'b10x', vendor_subtype: null, digest: digestLine(bytes), source_line: 5 },
    ])
  })

  it('never invents a terminal record', () => {
    expect(new B10xProjector(SEAM).finish()).toEqual([])
    expect(replayB10xLoop('{"kind":"turn-started","turn":1}\n', SEAM)).not.toContain('session.ended')
  })
})

describe('replayB10xLoop', () => {
  it('writes a stream the strict reader accepts, blank lines counted for source_line', () => {
    const out = replayB10xLoop('{"kind":"turn-started","turn":1}\n\n{"kind":"mystery"}\n', SEAM)
    const events = readEventTextOrThrow(out)
    expect(events.map((event) => [event.seq, event.event])).toEqual([
      [1, 'turn.started'],
      [2, 'opaque'],
    ])
    expect(events[1]).toMatchObject({ source_line: 3 })
  })

  it('keeps argument values byte-exact: sorted keys, integral floats, long integers', () => {
    const out = replayB10xLoop('{"kind":"tool-requested","call_id":"c","name":"n","arguments":{"z":1.0,"a":12345678901234567890}}\n', SEAM)
    expect(out).toContain('"input":{"a":12345678901234567890,"z":1.0}')
  })

  it('reads numbers by their lexeme for the kinds that carry them, however the kind is spelt', () => {
    // `1.0` is not a u64 to serde_json: a token count written so is no count, and a turn so written is turn 0.
    for (const kind of ['usage', 'us\\u0061ge']) {
      const out = replayB10xLoop(`{"kind":"${kind}","model":"m","input_tokens":1.0,"output_tokens":2}\n`, SEAM)
      expect(out, kind).toContain('"usage":{"input_tokens":null,"output_tokens":2,')
    }
    expect(replayB10xLoop('{"kind":"turn-started","turn":3.0}\n', SEAM)).toContain('"event":"turn.started","turn":0,')
    // A kind that carries no number reads the same either way; an unknown one is cited by its raw line.
    expect(replayB10xLoop('{"kind":"text-delta","text":"1.0"}\n', SEAM)).toContain('"event":"text","text":"1.0",')
    expect(replayB10xLoop('{"kind":"reasoning-delta","text":"x","n":1.0}\n', SEAM)).toContain('"event":"opaque","vendor_type":"b10x","vendor_subtype":"reasoning-delta",')
  })

  it('a `{"kind": 7}` line, an array line and a truncated last line never crash', () => {
    const out = replayB10xLoop('{"kind": 7}\n[1,2]\n{"kind":"text-delta","te', SEAM)
    expect(readEventTextOrThrow(out).map((event) => event.event)).toEqual(['opaque', 'opaque', 'opaque'])
  })
})

describe('the enriched projection (what convert and check read) keeps what the loop resolved', () => {
  const ENRICHED: SeamOptions = { ...SEAM, projection: 'enriched' }
  const read = (lines: string[]) => readEventTextOrThrow(replayB10xLoop(`${lines.join('\n')}\n`, ENRICHED))

  it("carries each call's operation and subjects, which upstream's projection drops", () => {
    const line = '{"kind":"tool-requested","call_id":"c-1","name":"file_read","arguments":{"path":"README.md"},"operation":"file.read","subjects":["file:README.md"]}'
    expect(read([line])).toMatchObject([{ event: 'tool.requested', name: 'file_read', operations: ['file.read'], subjects: ['file:README.md'] }])
    expect(replayB10xLoop(`${line}\n`, SEAM)).not.toContain('"operations"')
  })

  it('names a tool the loop resolved no operation for unclassified, once, before its first call', () => {
    const call = (id: string) => `{"kind":"tool-requested","call_id":"${id}","name":"unpublished_thing","arguments":{}}`
    const events = read([call('c-1'), '{"kind":"warning","code":"unpublished-tool","message":"m"}', call('c-2')])
    expect(events.map((event) => (event.event === 'warning' ? `warning:${event.code}` : event.event))).toEqual(['warning:unclassified_tool', 'tool.requested', 'warning:unpublished-tool', 'tool.requested'])
  })

  it('reads the records the loop documents as carrying no call, and counts the subagents it delegated to', () => {
    const lines = [
      '{"kind":"delegate-started","call_id":"d-1","task":"look around"}',
      '{"kind":"delegated","call_id":"d-1","event":{"kind":"tool-requested","call_id":"c-9","name":"file_read","arguments":{}}}',
      '{"kind":"delegate-finished","call_id":"d-1","stop":{"kind":"completed"},"turns":1}',
      '{"kind":"answered","call_id":"a-1","value":{"ok":true}}',
      '{"kind":"finished","stop":{"kind":"completed"},"turns":2}',
      '{"id":"18d6439351e452d5-000410e9","kind":"session","path":"/state/sessions/18d6439351e452d5-000410e9.json"}',
    ]
    // The subagent's own events stay unread: its calls are not the reader's to guess.
    expect(read(lines).map((event) => event.event)).toEqual(['opaque', 'session.ended'])
    expect(read(lines)[1]).toMatchObject({ event: 'session.ended', subagents_spawned: 1 })
    const upstream = readEventTextOrThrow(replayB10xLoop(`${lines.join('\n')}\n`, SEAM))
    expect(upstream.map((event) => event.event)).toEqual(['opaque', 'opaque', 'opaque', 'opaque', 'session.ended', 'opaque'])
    expect(upstream[4]).toMatchObject({ subagents_spawned: 0 })
  })

  it("discards a retried attempt's text and thinking, as the loop says a consumer must, and keeps the rest in order", () => {
    const lines = [
      '{"kind":"turn-started","turn":1}',
      '{"kind":"reasoning-delta","text":"first try"}',
      '{"kind":"text-delta","text":"All tests"}',
      '{"kind":"text-delta","text":" pass."}',
      '{"kind":"turn-retried","turn":1,"attempt":1,"reason":"the stream broke"}',
      '{"kind":"text-delta","text":"Two tests"}',
      '{"kind":"tool-arguments-delta","call_id":"c-1","delta":"{}"}',
      '{"kind":"text-delta","text":" fail."}',
      '{"kind":"usage","model":"m","input_tokens":1,"output_tokens":2,"cached_input_tokens":0}',
    ]
    const events = read(lines)
    expect(events.map((event) => (event.event === 'text' ? `text:${event.text}` : event.event === 'warning' ? `warning:${event.code}` : event.event))).toEqual([
      'turn.started',
      'warning:turn-retried',
      'text:Two tests',
      'text: fail.',
      'usage',
    ])
    expect(events[1]).toMatchObject({ message: 'turn 1 was retried after attempt 1 (the stream broke); its 3 streamed event(s) were discarded' })
    // The check judges the answer the run gave, not the one the retry threw away, once the run finished after it.
    const spec = specOf('b10x/retried', [{ 'text.matches': { exact: 'Two tests fail.' } }])
    const finished = '{"kind":"finished","stop":{"kind":"completed"},"turns":1}'
    expect(checkAnyFormatText(spec, `${[...lines, finished].join('\n')}\n`, { from: 'b10x/loop-jsonl' }).expectations[0]?.verdict).toBe('ok')
    // Upstream's projection keeps every delta and leaves the retry opaque.
    expect(readEventTextOrThrow(replayB10xLoop(`${lines.join('\n')}\n`, SEAM)).filter((event) => event.event === 'text')).toHaveLength(4)
  })

  it('keeps what an attempt cut off had streamed when the record ends', () => {
    expect(read(['{"kind":"turn-started","turn":1}', '{"kind":"text-delta","text":"half an ans"}']).map((event) => event.event)).toEqual(['turn.started', 'text'])
  })

  it('reads a reasoning delta as thinking, not as a record nobody could read', () => {
    expect(read(['{"kind":"reasoning-delta","text":"weighing it"}'])).toMatchObject([{ event: 'thinking', text: 'weighing it', request_id: null }])
  })
})

describe('the b10x loop vocabulary', () => {
  const ENRICHED: SeamOptions = { ...SEAM, projection: 'enriched' }

  it('leaves no record it lists opaque, enriched, and warns of drift only for a version it was not written against', () => {
    const listed = Object.keys(B10X_LOOP_VOCABULARY.records).map((kind) => JSON.stringify({ kind, call_id: 'c', name: 'file_read', arguments: {}, operation: 'file.read', text: 't', turn: 1, attempt: 1, reason: 'r', failed: false, approved: true, decision: { kind: 'proceed' }, stop: { kind: 'completed' }, turns: 1 }))
    const events = readEventTextOrThrow(replayB10xLoop(`${listed.join('\n')}\n{"kind":"flow-started"}\n`, ENRICHED))
    expect(events.filter((event) => event.event === 'opaque').map((event) => (event.event === 'opaque' ? event.vendor_subtype : null))).toEqual(['flow-started'])
    expect(events.some((event) => event.event === 'warning' && event.code === 'version_drift')).toBe(false)
    const drifted = readEventTextOrThrow(replayB10xLoop('{"kind":"flow-started"}\n', { ...ENRICHED, harnessVersion: '0.14.0' }))
    expect(drifted.at(-1)).toMatchObject({ event: 'warning', code: 'version_drift', message: expect.stringContaining('flow-started (1)') as unknown })
  })
})
