import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { call, closed, ended, metaharness, result, start, streamJson, text } from '../../../test/helpers/trace.js'
import { TranscriptReader, type TranscriptReadResult } from './read.js'
import type { AssistantRequest, IrEvent, IrSink, StreamEnd } from './types.js'

/** Collects what a reader produced. */
class Collect implements IrSink {
  readonly events: IrEvent[] = []
  readonly requests: AssistantRequest[] = []
  ended: StreamEnd | null = null
  constructor(readonly wantsRequestEvents = false) {}
  event(event: IrEvent): void {
    this.events.push(event)
  }
  request(request: AssistantRequest): void {
    this.requests.push(request)
  }
  end(end: StreamEnd): void {
    this.ended = end
  }
}

function read(input: string | Uint8Array | (string | Uint8Array)[], options: { wantsRequestEvents?: boolean; maxLineBytes?: number } = {}): { sink: Collect; result: TranscriptReadResult } {
  const sink = new Collect(options.wantsRequestEvents)
  const reader = new TranscriptReader(sink, { maxLineBytes: options.maxLineBytes })
  for (const chunk of Array.isArray(input) ? input : [input]) reader.push(chunk)
  return { sink, result: reader.end() }
}

function refusalsOf(result: TranscriptReadResult) {
  if (result.ok) throw new Error('expected the transcript to be refused')
  return result.refusals
}

describe('choosing the reader from the first non-blank line', () => {
  it('reads a tagged stream as metaharness.event/1 and anything else as Claude Code stream-json', () => {
    expect(read(`\n\n${metaharness([start()])}`).result).toMatchObject({ ok: true, format: 'metaharness.event/1', adapter: { name: 'metaharness/event-stream', written_against: ['metaharness.event/1'] } })
    expect(read(streamJson([{ type: 'result', subtype: 'success' }])).result).toMatchObject({ ok: true, adapter: { name: 'claude-code/stream-json', written_against: ['2.1.238'] } })
    // The other direction of the same seam is not this wire.
    expect(read('{"format":"metaharness.command/1","id":"c","command":"halt"}\n').result).toMatchObject({ ok: true, format: 'claude-code/stream-json' })
  })

  it('digests the transcript’s bytes exactly as sha256sum does, however they were chunked', () => {
    const bytes = metaharness([start(), text('hi'), ended()])
    const whole = read(bytes).result
    const byByte = read([...Buffer.from(bytes)].map((byte) => Uint8Array.of(byte))).result
    const expected = createHash('sha256').update(bytes).digest('hex')
    expect(whole.digest).toBe(expected)
    expect(byByte.digest).toBe(expected)
  })
})

describe('metaharness.event/1 into the IR', () => {
  it('projects the control plane into nothing and keeps 1-based source lines counting blank lines', () => {
    const lines = metaharness([
      { event: 'step.entered', step: { workflow: 'w', state: 's', index: 1, attempt: 1 }, frame_digest: 'd' },
      { event: 'turn.started', turn: 1, frame_digest: 'd' },
      text('working', 'r-1'),
      { event: 'turn.ended', turn: 1, stop_reason: 'end_turn' },
      { event: 'command.result', id: 'c', outcome: { result: 'ok', applies_at: null } },
      { event: 'warning', code: 'VERSION_OFF_PIN', message: 'off pin' },
      { event: 'auth.expired', credential_source: 'none', detail: 'expired', source_line: 9 },
      { event: 'tool.decided', call_id: 'c-1', decision: { decision: 'allow' }, decided_by: 'embedder', seam: 'hook', latency_ms: 1 },
      { event: 'step.left', step: { workflow: 'w', state: 's', index: 1, attempt: 1 }, outcome: { outcome: 'completed' } },
    ]).split('\n')
    lines.splice(2, 0, '')
    const { sink } = read(lines.join('\n'))
    expect(sink.events.map((event) => [event.family, event.index, event.sourceLine])).toEqual([['assistant_text', 0, 4]])
  })

  it('keeps an unknown event name, and a nameless request, opaque with the digest of the line', () => {
    const line = '{"format":"metaharness.event/1","seq":1,"run":"T/1","event":"tool.streamed","call_id":"c-1","chunk":1.0}'
    const { sink } = read(`${line}\n${metaharness([call('c-2', 'Read', {}, { name: null })]).replace('"seq":1', '"seq":2')}`)
    expect(sink.events.map((event) => event.family)).toEqual(['opaque', 'opaque'])
    const first = sink.events[0] as Extract<IrEvent, { family: 'opaque' }>
    expect(first.opaque.eventType).toBe('tool.streamed')
    // serde_json's compact, key-sorted form, keeping `1.0` as written.
    const compact = '{"call_id":"c-1","chunk":1.0,"event":"tool.streamed","format":"metaharness.event/1","run":"T/1","seq":1}'
    expect(first.opaque.digest).toBe(createHash('sha256').update(compact).digest('hex'))
    expect((sink.events[1] as Extract<IrEvent, { family: 'opaque' }>).opaque.eventType).toBe('tool.requested')
  })

  it('carries a vendor opaque record one layer up with the vendor’s type and digest', () => {
    const digest = '695fc789d8ad9d9a41c17c757915c593473d564b97701b62abf43f65dd3aaac8'
    const { sink } = read(metaharness([{ event: 'opaque', vendor_type: 'hologram', vendor_subtype: 'p', digest, source_line: 4 }]))
    expect(sink.events[0]).toMatchObject({ family: 'opaque', opaque: { eventType: 'hologram', subtype: 'p', digest } })
  })

  it('falls back to the path argument for subjects, reads a joined argv as the command, and leaves absent flags absent', () => {
    const { sink } = read(metaharness([call('c-1', 'Write', { file_path: 'src/a.rs' }), call('c-2', 'run', { argv: ['/usr/bin/cargo', 'test'] }), result('c-1', { is_error: null, content: { a: 1 } })]))
    expect(sink.events[0]).toMatchObject({ call: { subjects: ['file:src/a.rs'], operations: [] } })
    expect(sink.events[1]).toMatchObject({ call: { joinedArgv: '/usr/bin/cargo test' } })
    expect(sink.events[2]).toMatchObject({ result: { isError: null, content: '{"a":1}', contentBytes: 7, fields: { a: 1 } } })
  })

  it('records usage as requests, attributing the model output since the previous one when asked', () => {
    const { sink } = read(metaharness([text('a'), call('c-1', 'Bash', {}), result('c-1'), { event: 'usage', request_id: null, model: 'm', usage: { input_tokens: 3 } }]), { wantsRequestEvents: true })
    expect(sink.requests).toEqual([{ sourceLine: 4, requestId: null, model: 'm', inputTokens: 3, outputTokens: null, cacheReadInputTokens: null, cacheCreationInputTokens: null, events: [0, 1] }])
  })

  it('closes with stream.closed as the last line, or with the attestation, and never otherwise', () => {
    expect(read(metaharness([start(), ended(), closed(2)])).result).toMatchObject({ closure: { witness: 'closing_event', events: 2, reason: 'completed' } })
    expect(read(metaharness([start(), closed(1), ended()])).result).toMatchObject({ closure: null })
    expect(read(metaharness([start({ hermetic: { stream_complete: true, stream_events: 2, stream_reason: 'completed' } }), ended()])).result).toMatchObject({
      closure: { witness: 'attestation', events: 2, reason: 'completed' },
    })
    expect(read(metaharness([start({ hermetic: { stream_complete: false } }), ended()])).result).toMatchObject({ closure: null })
  })
})

describe('Claude Code stream-json into the IR', () => {
  it('makes one IR event per content block, on the line that carried them', () => {
    const { sink } = read(
      streamJson([
        { type: 'assistant', request_id: 'r', message: { content: [{ type: 'text', text: 'a' }, { type: 'mystery_block', data: '…' }, { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] } },
      ]),
    )
    expect(sink.events.map((event) => [event.family, event.index, event.sourceLine])).toEqual([
      ['assistant_text', 0, 1],
      ['opaque', 1, 1],
      ['tool_call', 2, 1],
    ])
  })

  it('reads a block the vocabulary says carries no call (redacted thinking, an image) as nothing, not as opaque', () => {
    const { sink } = read(
      streamJson([
        { type: 'assistant', message: { content: [{ type: 'redacted_thinking', data: '…' }, { type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] } },
        { type: 'user', message: { content: [{ type: 'image', source: { type: 'base64', data: '' } }] } },
      ]),
    )
    expect(sink.events.map((event) => event.family)).toEqual(['tool_call'])
  })

  it('classifies calls by the Claude Code tool table (a departure from upstream, whose operations stay empty)', () => {
    const { sink } = read(streamJson([{ type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'cat a.txt' } }] } }]))
    expect(sink.events[0]).toMatchObject({ family: 'tool_call', call: { operations: ['shell'], subjects: ['proc:cat', 'file:a.txt'] } })
  })

  it('records a recognised envelope that yields nothing as opaque, digesting the raw line', () => {
    const line = '{"type":"user","message":{"content":[]}}'
    const { sink } = read(`${line}\n`)
    expect(sink.events).toHaveLength(1)
    expect(sink.events[0]).toMatchObject({ family: 'opaque', opaque: { eventType: 'user', digest: createHash('sha256').update(line).digest('hex') } })
  })

  it('reads a record the vocabulary says carries no call as nothing, and an unlisted one as opaque', () => {
    const { sink } = read(
      streamJson([
        { type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'auto' } },
        { type: 'stream_event', event: { type: 'content_block_delta' } },
        { type: 'system', subtype: 'telemetry_flush' },
        { type: 'result', subtype: 'success' },
      ]),
    )
    expect(sink.events.map((event) => [event.family, event.sourceLine])).toEqual([
      ['opaque', 3],
      ['run_outcome', 4],
    ])
  })

  it('reads names as strings, object names, or JSON, and keeps a negative estimate delta', () => {
    const { sink } = read(streamJson([{ type: 'system', subtype: 'init', skills: ['a', { name: 'b' }, { unnamed: true }] }, { type: 'system', subtype: 'thinking_tokens', estimated_tokens: 80, estimated_tokens_delta: -20 }]))
    expect(sink.events[0]).toMatchObject({ start: { skills: ['a', 'b', '{"unnamed":true}'], availableOperations: null } })
    expect(sink.events[1]).toMatchObject({ estimatedTokens: 80, estimatedTokensDelta: -20 })
  })
})

describe('a transcript that is not one is refused line by line, never crashed on', () => {
  it('refuses a line that is not JSON with its line number', () => {
    const refusals = refusalsOf(read('{"type":"system","subtype":"init"}\nnot json at all\n').result)
    expect(refusals.map((refusal) => [refusal.code, refusal.location])).toEqual([['TRACE-ADAPT-001', 'line[2]']])
    expect(refusals[0]?.message).toContain('line 2 is not JSON')
  })

  it('refuses a line that is not UTF-8 with its line number', () => {
    const bytes = Buffer.concat([Buffer.from(`${metaharness([start()])}\n`), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])])
    const refusals = refusalsOf(read(bytes).result)
    expect(refusals).toEqual([{ code: 'TRACE-ADAPT-001', location: 'line[3]', message: 'line 3 is not UTF-8' }])
  })

  it('refuses a 10 MB line by its length without holding it, and goes on counting lines', () => {
    const huge = `{"type":"assistant","pad":"${'x'.repeat(10 * 1024 * 1024)}"}`
    const refusals = refusalsOf(read([`${streamJson([{ type: 'system', subtype: 'init' }])}`, huge.slice(0, 5_000_000), huge.slice(5_000_000), '\nnope\n']).result)
    expect(refusals.map((refusal) => refusal.location)).toEqual(['line[2]', 'line[3]'])
    expect(refusals[0]?.message).toBe(`line 2 is ${huge.length} bytes, over the reader's limit of 8388608 bytes`)
    // The limit is a choice, not a ceiling on JSON: raised, the same line reads.
    expect(read(`${huge}\n`, { maxLineBytes: 16 * 1024 * 1024 }).result.ok).toBe(true)
  })

  it('refuses a line of an event stream that carries another tag, or none', () => {
    const refusals = refusalsOf(read(`${metaharness([start()])}{"type":"result"}\n[1]\n`).result)
    expect(refusals.map((refusal) => refusal.location)).toEqual(['line[2]', 'line[3]'])
    expect(refusals[0]?.message).toContain('carries the format tag `<none>`')
  })

  it('refuses a transcript with no events (TRACE-ADAPT-002), and a stream of control plane alone is not empty', () => {
    for (const empty of ['', '\n\n   \n\t\n']) expect(refusalsOf(read(empty).result).map((refusal) => refusal.code)).toEqual(['TRACE-ADAPT-002'])
    expect(read(metaharness([{ event: 'turn.started', turn: 1, frame_digest: null }])).result).toMatchObject({ ok: true, events: 0 })
  })

  it('accumulates every refusal and caps the list, keeping the count', () => {
    const sink = new Collect()
    const reader = new TranscriptReader(sink, { maxRefusals: 3 })
    reader.push('x\n'.repeat(10))
    const result = reader.end()
    expect(result).toMatchObject({ ok: false, total: 10 })
    expect(refusalsOf(result)).toHaveLength(3)
    expect(sink.ended).toBeNull()
  })
})
