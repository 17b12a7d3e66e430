import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { EventReadError } from './errors.js'
import { readEventLine, readEventStream, readEventText, readEventTextOrThrow, type EventReadResult } from './read.js'

const TEXT = '{"format":"metaharness.event/1","seq":1,"run":"r","event":"text","text":"hi","request_id":null}'

async function collect(chunks: (string | Uint8Array)[], maxLineBytes?: number): Promise<EventReadResult[]> {
  const results: EventReadResult[] = []
  for await (const result of readEventStream(Readable.from(chunks), maxLineBytes ? { maxLineBytes } : {})) results.push(result)
  return results
}

function codeOf(result: EventReadResult): string {
  return result.ok ? 'ok' : result.diagnostic.code
}

describe('readEventLine refuses what upstream refuses, by name and line', () => {
  it.each([
    ['[1,2]', 'NOT_AN_OBJECT'],
    ['"text"', 'NOT_AN_OBJECT'],
    ['{not json', 'NOT_JSON'],
    ['{"seq":1,"run":"r","event":"text","text":"x"}', 'UNKNOWN_FORMAT'],
    ['{"format":"metaharness.event/2","seq":1,"run":"r","event":"text","text":"x"}', 'UNKNOWN_FORMAT'],
    ['{"format":"metaharness.event/1","seq":1,"run":"r","event":"texts","text":"x"}', 'UNKNOWN_NAME'],
    ['{"format":"metaharness.event/1","seq":1,"run":"r","text":"x"}', 'MALFORMED'],
    ['{"format":"metaharness.event/1","seq":-1,"run":"r","event":"text","text":"x"}', 'MALFORMED'],
    ['{"format":"metaharness.event/1","seq":1,"event":"text","text":"x"}', 'MALFORMED'],
    ['{"format":"metaharness.event/1","seq":1,"run":"r","event":"text","text":7}', 'MALFORMED'],
    ['{"format":"metaharness.event/1","seq":1,"run":"r","event":"tool.requested","call_id":"c","name":"n","decision_required":false,"seam":"sideways"}', 'MALFORMED'],
  ])('%s → %s', (line, code) => {
    const result = readEventLine(line, 4)
    expect(codeOf(result)).toBe(code)
    if (!result.ok) expect(result.diagnostic.line).toBe(4)
  })

  it('names the unknown format and event in upstream words', () => {
    const format = readEventLine('{"format":"x","event":"text"}', 1)
    expect(format.ok ? '' : format.diagnostic.message).toBe('unknown format tag "x", expected "metaharness.event/1"')
    const name = readEventLine('{"format":"metaharness.event/1","seq":1,"run":"r","event":"x"}', 1)
    expect(name.ok ? '' : name.diagnostic.message).toBe('unknown event name "x"')
  })

  it('points at the malformed field', () => {
    const result = readEventLine('{"format":"metaharness.event/1","seq":1,"run":"r","event":"turn.started","turn":"one"}', 9)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.diagnostic.pointer).toBe('/turn')
      expect(result.diagnostic.message).toMatch(/^malformed turn.started: \/turn: /)
    }
  })

  it('ignores unknown fields silently and reads absent options as null', () => {
    const result = readEventLine('{"format":"metaharness.event/1","seq":3,"run":"r","event":"text","text":"hi","extra":{"x":1}}', 1)
    expect(result.ok && result.event).toEqual({ format: 'metaharness.event/1', seq: 3, run: 'r', event: 'text', text: 'hi', request_id: null })
  })

  it('accepts older builds that lack later fields (final_answer, exit_code, withheld)', () => {
    const ended = readEventLine(
      '{"format":"metaharness.event/1","seq":1,"run":"r","event":"session.ended","census":{"allowed":0,"denied":0,"replaced":0,"abstained":0,"by_seam":{},"by_decider":{}}}',
      1,
    )
    expect(ended.ok && ended.event.event === 'session.ended' && ended.event.final_answer).toBeNull()
  })
})

describe('readEventStream: bad input never crashes or hangs', () => {
  it('an empty file yields nothing', async () => {
    expect(await collect([])).toEqual([])
  })

  it('reads a truncated last line as what it is (here: not JSON), with its number', async () => {
    const results = await collect([`${TEXT}\n${TEXT.slice(0, 30)}`])
    expect(results.map(codeOf)).toEqual(['ok', 'NOT_JSON'])
    expect(results[1]?.ok === false && results[1].diagnostic.line).toBe(2)
  })

  it('splits lines across chunk boundaries, counts blank lines and drops \\r', async () => {
    const text = `${TEXT}\r\n\n${TEXT}\n`
    const chunks = Array.from(text).map((char) => Buffer.from(char))
    const results = await collect(chunks)
    expect(results.map((result) => (result.ok ? result.line : -1))).toEqual([1, 3])
  })

  it('refuses a line that is not UTF-8 with its line number', async () => {
    const results = await collect([Buffer.from(`${TEXT}\n`), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])])
    expect(results.map(codeOf)).toEqual(['ok', 'NOT_UTF8'])
    expect(results[1]?.ok === false && results[1].diagnostic.line).toBe(2)
  })

  it('reads a 10 MB line', async () => {
    const big = JSON.stringify({ format: 'metaharness.event/1', seq: 1, run: 'r', event: 'text', text: 'x'.repeat(10 * 1024 * 1024) })
    const results = await collect([big.slice(0, 5_000_000), big.slice(5_000_000), '\n'])
    expect(results.map(codeOf)).toEqual(['ok'])
  })

  it('reports a line over the limit by length without holding it, and goes on', async () => {
    const results = await collect(['x'.repeat(100), 'y'.repeat(100), `\n${TEXT}\n`], 150)
    expect(results.map(codeOf)).toEqual(['LINE_TOO_LONG', 'ok'])
    expect(results[0]?.ok === false && results[0].diagnostic.message).toContain('200 bytes')
  })
})

describe('readEventText / OrThrow', () => {
  it('collects every refusal and throws the first one with its location', () => {
    const { events, diagnostics } = readEventText(`${TEXT}\n[]\n\n{"format":"x"}\n`)
    expect(events).toHaveLength(1)
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line])).toEqual([
      ['NOT_AN_OBJECT', 2],
      ['UNKNOWN_FORMAT', 4],
    ])
    expect(() => readEventTextOrThrow('[]\n', 'run.jsonl')).toThrow(EventReadError)
    expect(() => readEventTextOrThrow('[]\n', 'run.jsonl')).toThrow('NOT_AN_OBJECT at run.jsonl:1')
  })
})
