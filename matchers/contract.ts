import type { MatcherResult as ExpectationResult, MatcherState } from 'vitest'
import { LaunchRefusal } from '../adapters/errors.js'
import type { Capabilities } from '../adapters/types.js'
import { describeValueDifferences, firstStreamDifference, launchRecordsEqual } from '../src/contract/compare.js'
import { renderCompleteness, streamCompleteness, type StreamCompleteness } from '../src/events/completeness.js'
import { readEventText } from '../src/events/read.js'
import type { EventName } from '../src/events/format.js'
import type { EventLine } from '../src/events/types.js'

/**
 * One expected event of `toEmitEvents`: its name, or a partial event (nested objects match
 * partially). Names are `metaharness.event/1`'s own, so a misspelt one (`'tool.requestedd'`) is a
 * type error, not a matcher that can never pass.
 */
export type ExpectedEvent = EventName | ({ event?: EventName } & Record<string, unknown>)

declare module 'vitest' {
  // `T = any` is vitest's own declaration; merged declarations must repeat it exactly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /** The replayed stream equals `expected` byte for byte; a failure names the first differing line. */
    toReplayByteExact(expected: string | Uint8Array): T
    /** The launch (`{program, args, env}`) equals the recorded launch record as parsed JSON: key order is irrelevant. */
    toMatchLaunchRecord(record: object | string): T
    /** A command outcome, `command.result` event or launch refusal that refuses with this code. */
    toRefuseCommand(code: string): T
    /** The stream emits these events in this order, others allowed in between; each expected event matches partially. */
    toEmitEvents(expected: readonly ExpectedEvent[]): T
    /** Whether the stream proves it ended: `complete`, `inconsistent` or `truncated`. */
    toHaveStreamCompleteness(kind: StreamCompleteness['kind']): T
    /** An adapter (or its capabilities) declares at least this: objects match partially, leaves exactly. */
    toDeclareCapabilities(partial: object): T
  }
}

const decoder = new TextDecoder()

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return decoder.decode(value)
  return undefined
}

function asBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? new TextEncoder().encode(value) : value
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function compact(value: unknown): string {
  return JSON.stringify(value) ?? String(value)
}

function notApplicable(what: string, received: unknown, state: MatcherState): ExpectationResult {
  return { pass: false, message: () => `expected ${what}; received ${state.utils.stringify(received)}` }
}

type Events = { events: Record<string, unknown>[] } | { problem: string }

function readStream(received: unknown): Events {
  if (Array.isArray(received)) {
    const events = received.map((item) => (typeof item === 'string' ? (JSON.parse(item) as unknown) : item))
    if (events.every((event) => event !== null && typeof event === 'object')) return { events: events as Record<string, unknown>[] }
    return { problem: 'an array of events holds something that is not an event' }
  }
  const text = asText(received)
  if (text === undefined) return { problem: 'a stream: its text, its bytes or an array of events' }
  const { events, diagnostics } = readEventText(text)
  const first = diagnostics[0]
  if (first) return { problem: `a readable stream, and line ${first.line} is refused: ${first.code} ${first.message}` }
  return { events: events as unknown as Record<string, unknown>[] }
}

function isAsymmetric(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isAsymmetric(value)
}

/** Where `actual` stops matching `expected` (objects partially, arrays element by element, leaves by `equals`), or undefined. */
function partialMismatch(actual: unknown, expected: unknown, path: string, equals: MatcherState['equals']): string | undefined {
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return path || '(the value)'
    for (const [key, want] of Object.entries(expected)) {
      const where = partialMismatch(actual[key], want, `${path}.${key}`, equals)
      if (where !== undefined) return where
    }
    return undefined
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path || '(the value)'
    for (let i = 0; i < expected.length; i++) {
      const where = partialMismatch(actual[i], expected[i], `${path}[${i}]`, equals)
      if (where !== undefined) return where
    }
    return undefined
  }
  return equals(actual, expected) ? undefined : path || '(the value)'
}

/** `actual` cut down to the keys `shape` names, so a diff against a partial shows only what was asked. */
function projectOnto(actual: unknown, shape: unknown): unknown {
  if (isPlainObject(shape) && isPlainObject(actual)) {
    return Object.fromEntries(Object.keys(shape).map((key) => [key, projectOnto(actual[key], shape[key])]))
  }
  if (Array.isArray(shape) && Array.isArray(actual) && shape.length === actual.length) {
    return actual.map((item, index) => projectOnto(item, shape[index]))
  }
  return actual
}

function valueAt(value: unknown, path: string): unknown {
  let current = value
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

// The refusal code a value carries: a code, 'ok' for an honoured command, or undefined when it is no outcome at all.
function refusalOf(received: unknown): { code: string; reason: string } | 'ok' | undefined {
  let value = received
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  if (value instanceof LaunchRefusal) return { code: value.code, reason: value.display }
  if (value === null || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  if (record['event'] === 'command.result') return refusalOf(record['outcome'])
  const refusal = record['refusal'] as { code?: unknown; display?: unknown } | undefined
  if (refusal && typeof refusal.code === 'string') return { code: refusal.code, reason: typeof refusal.display === 'string' ? refusal.display : '' }
  if (record['result'] === 'ok') return 'ok'
  const refused = record['refused'] as { code?: unknown; reason?: unknown } | undefined
  if (record['result'] === 'refused' && refused && typeof refused.code === 'string') {
    return { code: refused.code, reason: typeof refused.reason === 'string' ? refused.reason : '' }
  }
  return undefined
}

/** Where the first event of the missing one's name, after the last match, differs from it: `; event 4 tool.requested differs at $.input.command: expected "a", got "b"`. */
function nearestMismatch(events: readonly unknown[], from: number, missing: ExpectedEvent, equals: MatcherState['equals']): string {
  const partial = typeof missing === 'string' ? { event: missing } : missing
  if (partial.event === undefined) return ''
  for (let i = from; i < events.length; i++) {
    const event = events[i] as Record<string, unknown>
    if (event['event'] !== partial.event) continue
    const where = partialMismatch(event, partial, '', equals)
    if (where === undefined) return ''
    const path = where === '(the value)' ? '$' : `$${where}`
    return `; event ${describeEvent(event, i)} differs at ${path}: expected ${compact(valueAt(partial, where))}, got ${compact(valueAt(event, where))}`
  }
  return ''
}

function describeEvent(event: Record<string, unknown>, index: number): string {
  const seq = typeof event['seq'] === 'number' ? event['seq'] : index + 1
  return `${seq} ${String(event['event'])}`
}

function describeExpected(expected: ExpectedEvent): string {
  if (typeof expected === 'string') return expected
  const { event, ...rest } = expected
  return Object.keys(rest).length === 0 ? String(event ?? '*') : `${String(event ?? '*')} ${compact(rest)}`
}

/** The contract matchers; `expect.extend` them, or use the setup entry `vitest-harness/setup`. */
export const contractMatchers = {
  toReplayByteExact(this: MatcherState, received: unknown, expected: string | Uint8Array): ExpectationResult {
    if (asText(received) === undefined) return notApplicable('a replayed stream (a string or bytes)', received, this)
    const actualBytes = asBytes(received as string | Uint8Array)
    const expectedBytes = asBytes(expected)
    const actual = asText(received) as string
    const want = asText(expected) as string
    const pass = sameBytes(actualBytes, expectedBytes)
    return {
      pass,
      message: () =>
        pass
          ? `expected the replayed stream not to equal the expected stream byte for byte, and all ${actualBytes.length} bytes are equal`
          : `expected the replayed stream to equal the expected stream byte for byte: ${firstStreamDifference(want, actual) ?? 'the bytes differ in their encoding'}`,
      actual,
      expected: want,
    }
  },

  toMatchLaunchRecord(this: MatcherState, received: unknown, record: object | string): ExpectationResult {
    let observed: unknown
    let recorded: unknown
    try {
      observed = typeof received === 'string' ? JSON.parse(received) : received
      recorded = typeof record === 'string' ? JSON.parse(record) : record
    } catch (error) {
      return { pass: false, message: () => `expected a launch and a launch record as JSON: ${(error as Error).message}` }
    }
    if (observed === null || typeof observed !== 'object') return notApplicable('a launch {program, args, env}', received, this)
    const actual = JSON.parse(JSON.stringify(observed)) as unknown
    const expected = JSON.parse(JSON.stringify(recorded)) as unknown
    const pass = launchRecordsEqual(expected, actual)
    return {
      pass,
      message: () =>
        pass
          ? `expected the launch not to match the recorded launch record, and it does: ${compact(actual)}`
          : `expected the launch to match the recorded launch record (parsed JSON, key order irrelevant): ${describeValueDifferences(expected, actual) ?? 'they differ'}\nexpected ${compact(expected)}, observed ${compact(actual)}`,
      actual,
      expected,
    }
  },

  toRefuseCommand(this: MatcherState, received: unknown, code: string): ExpectationResult {
    const refusal = refusalOf(received)
    if (refusal === undefined) return notApplicable('a command outcome, a command.result event or a launch refusal', received, this)
    const pass = refusal !== 'ok' && refusal.code === code
    const seen = refusal === 'ok' ? 'it was honoured' : `it was refused with ${refusal.code}${refusal.reason ? `: ${refusal.reason}` : ''}`
    return {
      pass,
      message: () => (pass ? `expected the command not to be refused with ${code}, and ${seen}` : `expected the command to be refused with ${code}, and ${seen}`),
      actual: refusal === 'ok' ? 'ok' : refusal.code,
      expected: code,
    }
  },

  toEmitEvents(this: MatcherState, received: unknown, expected: readonly ExpectedEvent[]): ExpectationResult {
    const stream = readStream(received)
    if ('problem' in stream) return { pass: false, message: () => `expected ${stream.problem}` }
    const { events } = stream
    const matchedAt: number[] = []
    let from = 0
    for (const want of expected) {
      const partial = typeof want === 'string' ? { event: want } : want
      let found = -1
      for (let i = from; i < events.length; i++) {
        if (partialMismatch(events[i], partial, '', this.equals) === undefined) {
          found = i
          break
        }
      }
      if (found === -1) break
      matchedAt.push(found)
      from = found + 1
    }
    const pass = matchedAt.length === expected.length
    const missing = expected[matchedAt.length]
    const after = matchedAt.length === 0 ? 'in the stream' : `after event ${describeEvent(events[matchedAt.at(-1) as number] as Record<string, unknown>, matchedAt.at(-1) as number)}`
    return {
      pass,
      message: () =>
        pass
          ? `expected the stream not to emit these events in order, and it does (events ${matchedAt.map((index) => describeEvent(events[index] as Record<string, unknown>, index)).join(', ')})`
          : `expected the stream to emit ${expected.length} event(s) in order; ${matchedAt.length} matched, and no event ${after} matches expected[${matchedAt.length}] ${describeExpected(missing as ExpectedEvent)}${nearestMismatch(events, from, missing as ExpectedEvent, this.equals)}`,
      actual: events.map(describeEvent),
      expected: expected.map(describeExpected),
    }
  },

  toHaveStreamCompleteness(this: MatcherState, received: unknown, kind: StreamCompleteness['kind']): ExpectationResult {
    const stream = readStream(received)
    if ('problem' in stream) return { pass: false, message: () => `expected ${stream.problem}` }
    const completeness = streamCompleteness(stream.events as unknown as Pick<EventLine, 'event'>[])
    const pass = completeness.kind === kind
    return {
      pass,
      message: () => (pass ? `expected the stream not to be ${kind}, and it is: ${renderCompleteness(completeness)}` : `expected the stream to be ${kind}, and it is not: ${renderCompleteness(completeness)}`),
      actual: completeness.kind,
      expected: kind,
    }
  },

  toDeclareCapabilities(this: MatcherState, received: unknown, partial: object): ExpectationResult {
    const declared =
      received !== null && typeof received === 'object' && typeof (received as { capabilities?: unknown }).capabilities === 'function'
        ? (received as { capabilities(): Capabilities }).capabilities()
        : received
    if (declared === null || typeof declared !== 'object' || !('adapter' in declared)) {
      return notApplicable('an adapter or its capabilities', received, this)
    }
    const where = partialMismatch(declared, partial, '', this.equals)
    const pass = where === undefined
    return {
      pass,
      message: () =>
        pass
          ? `expected the declaration not to include ${compact(partial)}, and it does`
          : `expected the declaration to include ${compact(partial)}; at ${(where as string).replace(/^\./, '')} it declares ${compact(valueAt(declared, where as string))}, expected ${compact(valueAt(partial, where as string))}`,
      actual: projectOnto(declared, partial),
      expected: partial,
    }
  },
}
