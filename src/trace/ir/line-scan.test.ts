import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EnvelopeScan, scanEnvelope } from './line-scan.js'

const scan = new EnvelopeScan()

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const picked = (start: number, end: number) => (start === -1 ? null : scan.source.toString('utf8', start, end))
const stringAt = (value: Record<string, unknown>, key: string) => (typeof value[key] === 'string' ? value[key] : null)

/**
 * The one property that matters: whatever the scan accepts, `JSON.parse` accepts, as an object
 * whose top-level `format`, `event`, `at` and `code` are the strings picked out (the last of
 * duplicated keys, as `JSON.parse` keeps) and whose `name` is a string exactly when it says so.
 */
function expectSound(text: string): boolean {
  const bytes = Buffer.from(text, 'utf8')
  const accepted = scanEnvelope(bytes, 0, bytes.length, scan)
  if (!accepted) return false
  const read = parsed(bytes.toString('utf8'))
  expect(read.ok, text).toBe(true)
  if (!read.ok) return true
  const value = read.value as Record<string, unknown>
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true)
  expect({
    format: picked(scan.formatStart, scan.formatEnd),
    event: picked(scan.eventStart, scan.eventEnd),
    at: picked(scan.atStart, scan.atEnd),
    code: picked(scan.codeStart, scan.codeEnd),
    named: scan.named,
  }).toEqual({ format: stringAt(value, 'format'), event: stringAt(value, 'event'), at: stringAt(value, 'at'), code: stringAt(value, 'code'), named: typeof value['name'] === 'string' })
  // The decision's range is its whole container, exactly as the parse reads it; no range otherwise.
  const decision = value['decision']
  if (scan.decisionEnd === -1) expect(typeof decision === 'object' && decision !== null).toBe(false)
  else expect(JSON.parse(scan.source.toString('utf8', scan.decisionStart, scan.decisionEnd))).toEqual(decision)
  return true
}

// Envelope values: plain strings most of the time, sometimes another type or an escape.
const envelopeValue = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9.:/_-]{0,12}$/).map((text) => JSON.stringify(text)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string().map((text) => JSON.stringify(text)) },
)
const key = fc.oneof(fc.constantFrom('format', 'event', 'at', 'code', 'name', 'decision', 'seq', 'run', 'fo', 'events'), fc.string({ maxLength: 6 }))
const member = fc.tuple(key, fc.oneof(envelopeValue, fc.json({ maxDepth: 4 })))
const space = fc.constantFrom('', '', '', ' ', '\t', '\r', '\n', '  ')
const line = fc.tuple(fc.array(fc.tuple(member, space, space), { maxLength: 10 }), space).map(
  ([members, end]) => `${end}{${members.map(([[name, value], before, after]) => `${before}${JSON.stringify(name)}${after}:${before}${value}${after}`).join(',')}}${end}`,
)

describe('the envelope scan reads what JSON.parse reads, and nothing else', () => {
  it('accepts every plain event line and picks out its envelope', () => {
    const text = '{"format":"metaharness.event/1","seq":7,"run":"R/1","at":"2026-08-23T09:00:00.070Z","event":"tool.requested","call_id":"c","name":"Bash","input":{"command":"ls -la","n":[1,-2.5e+3,0,true,false,null,{}]},"code":"x"}'
    expect(expectSound(text)).toBe(true)
    expect(picked(scan.eventStart, scan.eventEnd)).toBe('tool.requested')
    expect(scan.named).toBe(true)
  })

  it('is sound over generated objects in any spacing, and accepts each one whose picked values need no escape (property)', () => {
    fc.assert(
      fc.property(line, (text) => {
        const value = JSON.parse(text) as Record<string, unknown>
        const accepted = expectSound(text)
        const needsWholeParse = /"(format|event|at|code)"\s*:\s*"[^"]*\\/.test(text) || Object.keys(value).some((name) => JSON.stringify(name).includes('\\'))
        if (!needsWholeParse) expect(accepted, text).toBe(true)
      }),
      { numRuns: 3000, seed: 0x15a },
    )
  })

  it('is sound over every one-character change of a valid line (property)', () => {
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('delete', 'insert', 'replace'), char: fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', '.', 'e', '+', 'u', 'a', 't', 'n', '\u0000', '\u001f', '\u00e9', '\ud83d\ude00') })
    fc.assert(
      fc.property(line, fc.array(edit, { minLength: 1, maxLength: 3 }), (text, edits) => {
        let changed = text
        for (const { at, kind, char } of edits) {
          const i = changed.length === 0 ? 0 : at % changed.length
          changed = kind === 'delete' ? changed.slice(0, i) + changed.slice(i + 1) : kind === 'insert' ? changed.slice(0, i) + char + changed.slice(i) : changed.slice(0, i) + char + changed.slice(i + 1)
        }
        expectSound(changed)
      }),
      { numRuns: 5000, seed: 0x15b },
    )
  })

  it('is sound over arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expectSound(`{${text}}`)
        expectSound(text)
      }),
      { numRuns: 3000, seed: 0x15c },
    )
  })

  it('refuses what JSON refuses, case by case', () => {
    const refused = [
      '',
      ' ',
      '[]',
      '"x"',
      '{',
      '{"a":1,}',
      '{"a":1 "b":2}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":-}',
      '{"a":1e}',
      '{"a":+1}',
      '{"a":"\\x"}',
      '{"a":"\\u12g4"}',
      '{"a":"tab\there"}',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":[1,]}',
      '{"a":{}}}',
      '{"a":1} x',
      '\ufeff{"a":1}',
      "{'a':1}",
      '{"a":NaN}',
    ]
    for (const text of refused) {
      const bytes = Buffer.from(text)
      expect(scanEnvelope(bytes, 0, bytes.length, scan), text).toBe(false)
      expectSound(text)
    }
  })

  it('leaves to the whole parse an escaped picked value or top-level key, and nesting past its stack', () => {
    for (const text of ['{"event":"te\\u0078t"}', '{"ev\\u0065nt":"text"}', '{"format":"a\\/b"}', `{"event":"text","deep":${'['.repeat(600)}${']'.repeat(600)}}`]) {
      const bytes = Buffer.from(text)
      expect(parsed(text).ok).toBe(true)
      expect(scanEnvelope(bytes, 0, bytes.length, scan), text).toBe(false)
    }
    // An escape anywhere else is read in place.
    expect(expectSound('{"event":"text","text":"a \\"quote\\" \\u00e9 \\\\ \\n"}')).toBe(true)
  })

  it('reads a line in place within a larger buffer', () => {
    const bytes = Buffer.from('xx{"event":"text"}yy')
    expect(scanEnvelope(bytes, 2, bytes.length - 2, scan)).toBe(true)
    expect(picked(scan.eventStart, scan.eventEnd)).toBe('text')
    expect(scanEnvelope(bytes, 2, bytes.length - 3, scan)).toBe(false)
  })
})
