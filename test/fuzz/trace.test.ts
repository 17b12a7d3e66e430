import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TraceTranscriptError } from '../../src/trace/errors.js'
import { checkTranscriptText } from '../../src/trace/check/check.js'
import { TranscriptReader } from '../../src/trace/ir/read.js'
import { parseSpec, parseSpecValue, readSpec } from '../../src/trace/spec/read.js'
import type { IrSink } from '../../src/trace/ir/types.js'

// Whatever bytes arrive, the reader reads them or refuses them with a code; whatever a document
// holds, the spec reader validates it or refuses it with a code. Neither throws anything else.

const nothing: IrSink = { event() {}, request() {}, end() {} }

const SPEC = readSpec(`format: trace-spec/1
id: fuzz/every-family
expectations:
  - {id: a, expect: {tool.called: {tool: Bash}}}
  - {id: b, expect: {tool.absent: {tool: Edit}}}
  - {id: c, expect: {order: {first: {tool: Read}, before: {tool: Write}}}}
  - {id: d, expect: {result: {is_error: false}}}
  - {id: e, expect: {tool.result: {tool: Bash, result: {stdout: {regex: "^ok"}}}}}
  - {id: f, expect: {usage.trend: {field: input_tokens, trend: non_decreasing}}}
  - {id: g, expect: {step.exec_time: {tool: Bash, ms: {at_most: 10}}}}
  - {id: h, expect: {env.tool_available: {tool: Bash}}}
`)

const EVENT_NAMES = ['session.started', 'session.ended', 'text', 'tool.requested', 'tool.result', 'tool.decided', 'usage', 'rate_limit', 'opaque', 'stream.closed', 'nonsense']
const FIELDS = ['call_id', 'name', 'input', 'is_error', 'content', 'usage', 'info', 'request_id', 'at', 'hermetic', 'subjects', 'operations', 'tool_use_result', 'census', 'permission_denials']

/** Metaharness-shaped lines with arbitrary payloads: the right envelope, anything inside. */
const eventLine = fc.record({ event: fc.constantFrom(...EVENT_NAMES), payload: fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue()) })

describe('the transcript reader never crashes', () => {
  it('on arbitrary bytes: it reads them or refuses them, with codes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 8 }), (chunks) => {
        const reader = new TranscriptReader(nothing)
        for (const chunk of chunks) reader.push(chunk)
        const result = reader.end()
        if (!result.ok) for (const refusal of result.refusals) expect(['TRACE-ADAPT-001', 'TRACE-ADAPT-002']).toContain(refusal.code)
      }),
      { numRuns: 300 },
    )
  })

  it('on event streams with arbitrary payloads: every check ends in a report', () => {
    fc.assert(
      fc.property(fc.array(eventLine, { minLength: 1, maxLength: 20 }), (events) => {
        const text = events.map(({ event, payload }, index) => JSON.stringify({ ...payload, format: 'metaharness.event/1', seq: index + 1, run: 'f', event })).join('\n')
        expect(checkTranscriptText(SPEC, text).expectations).toHaveLength(8)
      }),
      { numRuns: 300 },
    )
  })

  it('on stream-json lines of any JSON: a report, or the refusal of a transcript with no events', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 10 }), (values) => {
        try {
          expect(checkTranscriptText(SPEC, values.map((value) => JSON.stringify(value)).join('\n')).expectations).toHaveLength(8)
        } catch (error) {
          expect(error).toBeInstanceOf(TraceTranscriptError)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('the spec reader never crashes', () => {
  it('on arbitrary JSON values: a specification, or refusals with codes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = parseSpecValue(value)
        if (!result.ok) for (const refusal of result.refusals) expect(refusal.code).toMatch(/^TRACE-SPEC-00[1-8]$/)
      }),
      { numRuns: 500 },
    )
  })

  it('on arbitrary text, and on a YAML alias that refers to itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(parseSpec(text).ok).toBe(false)
      }),
      { numRuns: 300 },
    )
    expect(parseSpec('format: trace-spec/1\nid: a\nexpectations: &x [*x]\n').ok).toBe(false)
  })
})
