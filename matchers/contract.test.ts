import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { b10xAdapter } from '../adapters/b10x/adapter.js'
import { LaunchRefusal } from '../adapters/errors.js'
import { planScriptedLaunch } from '../adapters/scripted/launch.js'
import { EventStreamWriter } from '../src/events/write.js'
import { builtInVectorsDir } from '../src/util/package-info.js'
import { harnessMatchers } from './index.js'

expect.extend(harnessMatchers)

const GOLDEN = join(builtInVectorsDir(), 'b10x', 'golden-loop-record', 'loop.expected.jsonl')
const golden = readFileSync(GOLDEN, 'utf8')
const goldenLines = golden.split('\n')
const changedOnLine3 = golden.replace('"seq":3,', '"seq":33,')

function closedStream(): string {
  const writer = new EventStreamWriter('m')
  return (
    writer.write({ event: 'turn.started', turn: 1 }) +
    writer.write({ event: 'tool.requested', call_id: 'c1', name: 'search', input: { pattern: 'TODO' }, decision_required: false, seam: 'none' }) +
    writer.write({ event: 'warning', code: 'unpublished-tool', message: 'no such tool' }) +
    writer.write({ event: 'tool.result', call_id: 'c1', is_error: true }) +
    writer.close('completed')
  )
}

describe('toReplayByteExact', () => {
  it('passes on the same bytes, as text or as bytes', () => {
    expect(golden).toReplayByteExact(golden)
    expect(Buffer.from(golden)).toReplayByteExact(golden)
  })

  it('fails naming the first differing line', () => {
    expect(changedOnLine3).not.toBe(golden)
    expect(() => expect(changedOnLine3).toReplayByteExact(golden)).toThrowError(
      `expected the replayed stream to equal the expected stream byte for byte: $.seq: expected 3, got 33 (line 3)\nline 3: expected ${goldenLines[2]}, observed ${changedOnLine3.split('\n')[2]}`,
    )
  })

  it('fails on a missing trailing newline, which no line comparison sees', () => {
    expect(() => expect(golden.slice(0, -1)).toReplayByteExact(golden)).toThrowError(
      'expected the replayed stream to equal the expected stream byte for byte: the streams differ only in trailing bytes',
    )
  })

  it('.not passes on a different stream and fails on the same one', () => {
    expect(changedOnLine3).not.toReplayByteExact(golden)
    expect(() => expect(golden).not.toReplayByteExact(golden)).toThrowError(
      `expected the replayed stream not to equal the expected stream byte for byte, and all ${Buffer.byteLength(golden)} bytes are equal`,
    )
  })

  it('works as an asymmetric matcher', () => {
    expect({ stream: golden }).toEqual({ stream: expect.toReplayByteExact(golden) })
    expect({ stream: changedOnLine3 }).not.toEqual({ stream: expect.toReplayByteExact(golden) })
  })
})

describe('toMatchLaunchRecord', () => {
  const record = readFileSync(join(builtInVectorsDir(), 'scripted', 'c1-scripted-launch', 'launch.json'), 'utf8')
  const plan = planScriptedLaunch({ program: '/usr/bin/node', vendor: '/opt/vh/bin/scripted-vendor.js', script: '/scratch/vh/script.jsonl', home: '/home/operator' })

  it('passes on the recorded launch, whatever the key order', () => {
    expect(plan).toMatchLaunchRecord(record)
    expect({ env: plan.env, args: plan.args, program: plan.program }).toMatchLaunchRecord(JSON.parse(record) as object)
  })

  it('fails showing both records', () => {
    const other = { ...plan, env: { ...plan.env, HOME: '/root' } }
    expect(() => expect(other).toMatchLaunchRecord(record)).toThrowError(
      /^expected the launch to match the recorded launch record \(parsed JSON, key order irrelevant\): \$\.env\.HOME: unexpected "\/root"\nexpected \{"program":"\/usr\/bin\/node",.*\}, observed \{.*"HOME":"\/root"\}\}$/,
    )
  })

  it('.not fails when the launch matches', () => {
    expect({ ...plan, args: [] }).not.toMatchLaunchRecord(record)
    expect(() => expect(plan).not.toMatchLaunchRecord(record)).toThrowError(/^expected the launch not to match the recorded launch record, and it does: /)
  })

  it('works as an asymmetric matcher', () => {
    expect({ launch: plan }).toEqual({ launch: expect.toMatchLaunchRecord(record) })
  })
})

describe('toRefuseCommand', () => {
  const refused = { result: 'refused', refused: { code: 'UNSUPPORTED_CONTROL', reason: 'the b10x adapter cannot honour tool.decide' } }

  it('passes on an outcome, a command.result event or line, and a launch refusal with the code', () => {
    expect(refused).toRefuseCommand('UNSUPPORTED_CONTROL')
    expect({ event: 'command.result', id: 'c-1', outcome: refused }).toRefuseCommand('UNSUPPORTED_CONTROL')
    expect(JSON.stringify({ format: 'metaharness.event/1', seq: 1, run: 'r', event: 'command.result', id: 'c-1', outcome: refused })).toRefuseCommand(
      'UNSUPPORTED_CONTROL',
    )
    expect({ refusal: { code: 'UNSUPPORTED_CONTROL', display: 'no' } }).toRefuseCommand('UNSUPPORTED_CONTROL')
    expect(new LaunchRefusal('UNSUPPORTED_CONTROL', 'observe with a frame')).toRefuseCommand('UNSUPPORTED_CONTROL')
  })

  it('fails on another code and on an honoured command, saying what happened', () => {
    expect(() => expect(refused).toRefuseCommand('TOO_LATE')).toThrowError(
      'expected the command to be refused with TOO_LATE, and it was refused with UNSUPPORTED_CONTROL: the b10x adapter cannot honour tool.decide',
    )
    expect(() => expect({ result: 'ok', applies_at: null }).toRefuseCommand('TOO_LATE')).toThrowError(
      'expected the command to be refused with TOO_LATE, and it was honoured',
    )
    expect(() => expect(42).toRefuseCommand('TOO_LATE')).toThrowError('expected a command outcome, a command.result event or a launch refusal; received 42')
  })

  it('.not passes on an honoured command and fails on the refusal', () => {
    expect({ result: 'ok', applies_at: null }).not.toRefuseCommand('UNSUPPORTED_CONTROL')
    expect(() => expect(refused).not.toRefuseCommand('UNSUPPORTED_CONTROL')).toThrowError(
      'expected the command not to be refused with UNSUPPORTED_CONTROL, and it was refused with UNSUPPORTED_CONTROL: the b10x adapter cannot honour tool.decide',
    )
  })

  it('works as an asymmetric matcher over a list of results', () => {
    expect([refused]).toEqual([expect.toRefuseCommand('UNSUPPORTED_CONTROL')])
  })
})

describe('toEmitEvents', () => {
  const stream = closedStream()

  it('passes on an ordered subsequence, names or partial events, nested objects partial', () => {
    expect(stream).toEmitEvents(['turn.started', 'tool.result'])
    expect(stream).toEmitEvents([{ event: 'tool.requested', input: { pattern: 'TODO' } }, { event: 'warning', code: 'unpublished-tool' }, { event: 'tool.result', is_error: true }])
    expect(stream).toEmitEvents([{ event: 'tool.requested', name: expect.stringMatching(/^sea/) }])
    expect(stream.split('\n').filter(Boolean)).toEmitEvents(['stream.closed'])
  })

  it('fails when the order is wrong, naming the first expected event it could not find', () => {
    expect(() => expect(stream).toEmitEvents(['tool.result', 'warning'])).toThrowError(
      'expected the stream to emit 2 event(s) in order; 1 matched, and no event after event 4 tool.result matches expected[1] warning',
    )
    expect(() => expect(stream).toEmitEvents([{ event: 'warning', code: 'approval-denied' }])).toThrowError(
      'expected the stream to emit 1 event(s) in order; 0 matched, and no event in the stream matches expected[0] warning {"code":"approval-denied"}',
    )
  })

  it('fails naming where the nearest event of that name differs, by JSON path with both values', () => {
    expect(() => expect(stream).toEmitEvents([{ event: 'warning', code: 'approval-denied' }])).toThrowError(
      /matches expected\[0\] warning \{"code":"approval-denied"\}; event \d+ warning differs at \$\.code: expected "approval-denied", got "unpublished-tool"$/,
    )
  })

  it('takes only metaharness.event/1 names: a misspelt one is a type error (this file is typechecked by npm test)', () => {
    // @ts-expect-error 'tool.requestedd' is no event name
    expect(() => expect(stream).toEmitEvents(['tool.requestedd'])).toThrowError(/no event in the stream matches expected\[0\] tool\.requestedd/)
    // @ts-expect-error a partial event's name is typed as well
    expect(() => expect(stream).toEmitEvents([{ event: 'tool.resutl', is_error: true }])).toThrowError(/matches expected\[0\] tool\.resutl/)
  })

  it('fails on a stream it cannot read, with the line and the code', () => {
    expect(() => expect('{"format":"other/1"}\n').toEmitEvents(['text'])).toThrowError(/^expected a readable stream, and line 1 is refused: UNKNOWN_FORMAT /)
  })

  it('.not fails when the events are there, in order', () => {
    expect(stream).not.toEmitEvents(['tool.result', 'turn.started'])
    expect(() => expect(stream).not.toEmitEvents(['turn.started', 'warning'])).toThrowError(
      'expected the stream not to emit these events in order, and it does (events 1 turn.started, 3 warning)',
    )
  })
})

describe('toHaveStreamCompleteness', () => {
  const closed = closedStream()
  const truncated = closed.split('\n').slice(0, 4).join('\n')

  it('passes on the kind the stream is', () => {
    expect(closed).toHaveStreamCompleteness('complete')
    expect(truncated).toHaveStreamCompleteness('truncated')
    expect(closed + closed.split('\n').slice(0, 1).join('\n')).toHaveStreamCompleteness('inconsistent')
  })

  it('fails with upstream’s rendering of what the stream is', () => {
    expect(() => expect(truncated).toHaveStreamCompleteness('complete')).toThrowError(
      'expected the stream to be complete, and it is not: stream: TRUNCATED — no stream.closed marker; the run may have been cut short',
    )
  })

  it('.not fails on the kind it is', () => {
    expect(truncated).not.toHaveStreamCompleteness('complete')
    expect(() => expect(closed).not.toHaveStreamCompleteness('complete')).toThrowError(
      'expected the stream not to be complete, and it is: stream: complete — 4 event(s) before the marker, reason completed',
    )
  })
})

describe('toDeclareCapabilities', () => {
  it('passes on a partial declaration of an adapter or its capabilities', () => {
    expect(b10xAdapter).toDeclareCapabilities({ adapter: { class: 'direct_provider' }, commands: { 'tool.decide': { refused: 'UNSUPPORTED_CONTROL' } } })
    expect(b10xAdapter.capabilities()).toDeclareCapabilities({ versions_pinned: ['0.12.1'], rendering: { shell: 'run', 'web.read': null } })
  })

  it('fails naming where the declaration differs', () => {
    expect(() => expect(b10xAdapter).toDeclareCapabilities({ tiers: { call: 'delivered' } })).toThrowError(
      'expected the declaration to include {"tiers":{"call":"delivered"}}; at tiers.call it declares "unverified", expected "delivered"',
    )
    expect(() => expect(42).toDeclareCapabilities({})).toThrowError('expected an adapter or its capabilities; received 42')
  })

  it('.not fails when the declaration includes it', () => {
    expect(b10xAdapter).not.toDeclareCapabilities({ commands: { 'tool.decide': 'honoured' } })
    expect(() => expect(b10xAdapter).not.toDeclareCapabilities({ commands: { halt: 'honoured' } })).toThrowError(
      'expected the declaration not to include {"commands":{"halt":"honoured"}}, and it does',
    )
  })

  it('works as an asymmetric matcher', () => {
    expect({ adapter: b10xAdapter }).toEqual({ adapter: expect.toDeclareCapabilities({ decision_modes: { observe: 'delivered' } }) })
  })
})
