import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertTranscriptSync, planTranscript } from '../../../adapters/transcript/read.js'
import { kindExamples } from '../../../scripts/trace-spec-kind-docs.js'
import { specOf } from '../../../test/helpers/trace.js'
import { NO_SHELL_SPEC, REQUIRED_SPEC } from '../../../test/helpers/wild.js'
import { EVENT_FORMAT } from '../../events/format.js'
import type { Emission } from '../../events/types.js'
import { TraceChecker } from '../check/checker.js'
import type { TraceSpec } from '../spec/model.js'
import { readSpecFile } from '../spec/read.js'
import { openTranscriptPathSync, type OpenedTranscript } from './any-format.js'
import { TranscriptReader, type TranscriptChunk } from './read.js'
import type { IrSink } from './types.js'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const WILD = join(ROOT, 'test', 'fixtures', 'wild')
const REFERENCE = join(ROOT, '..', 'shared', 'reference')

// One specification per kind (each reads little, so the most is passed over), every kind at once,
// and the real specifications the project checks its corpus with.
function specs(): TraceSpec[] {
  const examples = kindExamples()
  const list = [...examples.map(({ kind, expect }) => specOf(`only/${kind.replaceAll(/[._]/g, "-")}`, [expect])), specOf('every-kind', examples.map(({ expect }) => expect)), NO_SHELL_SPEC, REQUIRED_SPEC]
  const honest = join(REFERENCE, 'aep', 'eval', 'development-honest', 'expectations.trace.yaml')
  if (existsSync(honest)) list.push(readSpecFile(honest))
  return list
}

/** The checker behind a sink that does not say what it reads: every line is read whole. */
function readingEverything(checker: TraceChecker): IrSink {
  return {
    event: (event) => checker.event(event),
    request: (request) => checker.request(request),
    end: (end) => checker.end(end),
    get wantsRequestEvents() {
      return checker.wantsRequestEvents
    },
  }
}

/** Reads `bytes` in `chunk`-byte pieces (or a conversion's events) into a checker; the result, the report, and how much was passed over. */
function check(spec: TraceSpec, bytes: Buffer | OpenedTranscript<TranscriptChunk>, passing: boolean, chunk = 0, maxLineBytes?: number) {
  const checker = new TraceChecker(spec)
  const options = Buffer.isBuffer(bytes) ? {} : bytes.read
  const reader = new TranscriptReader(passing ? checker : readingEverything(checker), maxLineBytes === undefined ? options : { ...options, maxLineBytes })
  if (!Buffer.isBuffer(bytes)) reader.push(bytes.bytes)
  else for (let at = 0, step = chunk || bytes.length || 1; at < bytes.length; at += step) reader.push(bytes.subarray(at, at + step))
  const result = reader.end()
  // The unread records are what the text report prints beside the verdicts.
  return { result, report: result.ok ? checker.report(result.digest) : null, unread: result.ok ? checker.unread() : null, passedOver: reader.linesPassedOver }
}

function expectSameAsFullRead(spec: TraceSpec, bytes: Buffer | OpenedTranscript<TranscriptChunk>, chunk?: number, maxLineBytes?: number): number {
  const full = check(spec, bytes, false, chunk, maxLineBytes)
  const passing = check(spec, bytes, true, chunk, maxLineBytes)
  expect(full.passedOver).toBe(0)
  expect({ result: passing.result, report: passing.report, unread: passing.unread }).toEqual({ result: full.result, report: full.report, unread: full.unread })
  return passing.passedOver
}

/** The corpus folders, each with its files: one test per folder, so a failure names it. */
function wildFolders(): [string, string[]][] {
  return readdirSync(WILD)
    .filter((folder) => statSync(join(WILD, folder)).isDirectory())
    .sort()
    .map((folder) => [folder, readdirSync(join(WILD, folder)).filter((name) => name !== 'MANIFEST.md').sort().map((name) => join(WILD, folder, name))])
}

function referenceStreams(): string[] {
  if (!existsSync(REFERENCE)) return []
  const found: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.jsonl') && readFileSync(path, 'utf8').includes(`"format":"${EVENT_FORMAT}"`)) found.push(path)
    }
  }
  walk(REFERENCE)
  return found.sort()
}

describe('passing over the lines a specification cannot use changes no report', () => {
  const all = specs()

  it('reads more than 100 wild transcripts', () => {
    expect(wildFolders().flatMap(([, files]) => files).length).toBeGreaterThan(100)
  })

  describe.each(wildFolders())('wild %s', (_folder, files) => {
    it('printed as the event stream, under every kind alone and all together', () => {
      let passed = 0
      let printedAny = 0
      for (const file of files) {
        const { format } = planTranscript(file)
        const printed = format.name === EVENT_FORMAT ? readFileSync(file) : format.name === 'claude-code/stream-json' ? null : Buffer.from(convertTranscriptSync(file, { from: format.name, run: 'wild' }))
        if (printed === null) continue
        printedAny += 1
        for (const spec of all) passed += expectSameAsFullRead(spec, printed)
      }
      // Not vacuous: most kinds read little, so lines were passed over (none for a stream upstream reads as it is).
      if (printedAny > 0) expect(passed).toBeGreaterThan(0)
    })

    it('its converted events, as a conversion hands them to the reader, and with a line limit that refuses some', () => {
      let passed = 0
      let converted = 0
      for (const file of files) {
        const { format } = planTranscript(file)
        if (format.name === EVENT_FORMAT || format.name === 'claude-code/stream-json') continue
        converted += 1
        const opened = openTranscriptPathSync(file)
        for (const spec of all) passed += expectSameAsFullRead(spec, opened)
        // Lines over the limit are refused from the printed line, never passed over.
        for (const spec of [all[0] as TraceSpec, NO_SHELL_SPEC]) for (const limit of [200, 600]) expectSameAsFullRead(spec, opened, 0, limit)
      }
      if (converted > 0) expect(passed).toBeGreaterThan(0)
    })
  })

  it("over upstream's own event streams", () => {
    const streams = referenceStreams()
    expect(streams.length).toBeGreaterThan(3)
    for (const stream of streams) for (const spec of all) expectSameAsFullRead(spec, readFileSync(stream), 97)
  })

  it('refuses a malformed line it would have passed over exactly as a full read refuses it', () => {
    const spec = specOf('calls-only', [{ 'tool.called': { tools: ['Bash'], count: { at_least: 1 } } }])
    const good = (seq: number, body: string) => `{"format":"${EVENT_FORMAT}","seq":${seq},"run":"R",${body}}`
    const head = [good(1, '"event":"session.started","adapter":"x"'), good(2, '"event":"tool.requested","call_id":"c","name":"Bash","input":{"command":"ls"}')]
    const tail = [good(4, '"event":"session.ended","is_error":false'), good(5, '"event":"stream.closed","events":5')]
    const broken = [
      `{"format":"${EVENT_FORMAT}","seq":3,"run":"R","event":"text","text":"cut off`,
      `{"format":"${EVENT_FORMAT}","seq":3,"run":"R","event":"text","text":"a\u0001raw control character"}`,
      `{"format":"${EVENT_FORMAT}","seq":3,"run":"R","event":"text","text":"a bad \\x escape"}`,
      `{"format":"${EVENT_FORMAT}","seq":3,"run":"R","event":"text","text":"x",}`,
      `{"format":"${EVENT_FORMAT}","seq":03,"run":"R","event":"text","text":"x"}`,
      `{"format":"${EVENT_FORMAT}","seq":3,"run":"R","event":"text","text":"x"} trailing`,
      `{"format":"metaharness.event/2","seq":3,"run":"R","event":"text","text":"x"}`,
      `{"seq":3,"run":"R","event":"text","text":"x"}`,
    ]
    for (const line of broken) {
      const bytes = Buffer.from([...head, line, ...tail].join('\n') + '\n')
      const passing = check(spec, bytes, true)
      expect(passing.result.ok, line).toBe(false)
      expect(passing).toEqual(check(spec, bytes, false))
    }
  })

  it('over one stream of every event in every variant, cut into chunks of 1, 7, 64 bytes and whole', () => {
    const lines: string[] = [streamLine(0, 'session.started', 1, 'plain')]
    for (const name of NAMES) for (let n = 0; n < 8; n++) lines.push(streamLine(lines.length, name, n, 'plain'))
    for (const spelling of ['unnamed', 'unclassified', 'escaped-name', 'escaped-key', 'duplicate-event', 'spaced', 'crlf', 'no-at', 'deep', 'blank'])
      for (const name of ['tool.requested', 'warning', 'text']) lines.push(streamLine(lines.length, name, lines.length % 8, spelling))
    // The last terminal record has neither a census nor the vendor's list: its denials are the seam's decisions.
    lines.push(streamLine(lines.length, 'session.ended', 0, 'plain'))
    const bytes = Buffer.from(lines.join('\n') + '\n')
    let passed = 0
    for (const chunk of [1, 7, 64, bytes.length]) for (const spec of all) passed += expectSameAsFullRead(spec, bytes, chunk)
    expect(passed).toBeGreaterThan(1000)
  })

  it('counts a decision it passes over: the seam decided, so a run with no census has no denials rather than an unknown', () => {
    const spec = specOf('denials', [{ 'permission.denied': { count: { exactly: 0 } } }])
    const line = (seq: number, body: string) => `{"format":"${EVENT_FORMAT}","seq":${seq},"run":"R",${body}}`
    const bytes = Buffer.from(
      [line(1, '"event":"session.started","adapter":"x"'), line(2, '"event":"tool.decided","call_id":"c","decision":{"decision":"allow"}'), line(3, '"event":"session.ended","is_error":false')].join('\n') + '\n',
    )
    expect(expectSameAsFullRead(spec, bytes)).toBe(1)
    expect(check(spec, bytes, true).report?.expectations[0]?.verdict).toBe('ok')
  })

  it('reads a refusal’s warning when a run outcome is checked (a harness’s refusal is a denial), and passes over any other', () => {
    const spec = specOf('refusals', [{ 'permission.denied': { count: { at_most: 0 } } }])
    const line = (seq: number, body: string) => `{"format":"${EVENT_FORMAT}","seq":${seq},"run":"R",${body}}`
    const stream = (warning: string) =>
      Buffer.from(
        [
          line(1, '"event":"session.started","adapter":"x","hermetic":{"mode":"off","decisions":"observe"}'),
          line(2, `"event":"warning",${warning}`),
          line(3, '"event":"session.ended","is_error":false,"permission_denials":[],"census":{"allowed":0,"denied":0,"replaced":0,"abstained":0}'),
        ].join('\n') + '\n',
      )
    const warnings = ['"code":"approval-denied","message":"the approver denied c-1"', '"code":"hook-refused","message":"no"', '"code":"other","message":"m"']
    const passedOver = warnings.map((warning) => expectSameAsFullRead(spec, stream(warning)))
    const verdicts = warnings.map((warning) => check(spec, stream(warning), true).report?.expectations[0]?.verdict)
    expect(verdicts).toEqual(['gap', 'gap', 'ok'])
    expect(passedOver).toEqual([0, 0, 1])
  })

  it('reads a converted denial whole and passes over the other decisions, as their printed lines would be', () => {
    const spec = specOf('denials-converted', [{ 'permission.denied': { count: { exactly: 0 } } }])
    const decided = (decision: Extract<Emission, { event: 'tool.decided' }>['decision']): Emission => ({ event: 'tool.decided', call_id: 'c-1', decision, decided_by: 'embedder', seam: 'hook', latency_ms: 1 })
    const opening: Emission = { event: 'session.started', adapter: 'x', adapter_class: 'harness', transcript: {}, hermetic: { mode: 'off', decisions: 'observe' } }
    // The census counts no denial: only the seam's decision can make one.
    const closing: Emission = { event: 'session.ended', is_error: false, census: { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} } }
    const origin = { adapter: { name: 'x via metaharness/event-stream', written_against: [EVENT_FORMAT] }, digest: () => 'd' }
    const verdicts: string[] = []
    for (const decision of [{ decision: 'deny', reason: 'no' }, { decision: 'allow' }, { decision: 'abstain' }] as const) {
      const opened: OpenedTranscript<TranscriptChunk> = { bytes: { run: 'R', emissions: [opening, decided(decision), closing] }, read: { format: EVENT_FORMAT, origin } }
      expectSameAsFullRead(spec, opened)
      verdicts.push(check(spec, opened, true).report?.expectations[0]?.verdict ?? 'none')
    }
    expect(verdicts).toEqual(['gap', 'ok', 'ok'])
  })

  it('over generated streams of every event, oddly spelled, cut into any chunks (property)', () => {
    const names = NAMES
    const spelling = fc.constantFrom('plain', 'spaced', 'escaped-name', 'escaped-key', 'duplicate-event', 'crlf', 'no-at', 'unnamed', 'unclassified', 'deep', 'blank')
    const line = fc.record({ name: fc.constantFrom(...names), n: fc.nat({ max: 7 }), spelling })
    const run = fc.record({ lines: fc.array(line, { maxLength: 40 }), chunk: fc.integer({ min: 1, max: 300 }) })
    fc.assert(
      fc.property(run, ({ lines, chunk }) => {
        const text = [streamLine(0, 'session.started', 0, 'plain'), ...lines.map((entry, k) => streamLine(k + 1, entry.name, entry.n, entry.spelling))].join('\n') + '\n'
        for (const spec of all) expectSameAsFullRead(spec, Buffer.from(text), chunk)
      }),
      { numRuns: 200, seed: 0x15 },
    )
  })
})

const NAMES = ['text', 'thinking', 'thinking.estimate', 'injection', 'tool.requested', 'tool.decided', 'tool.result', 'rate_limit', 'usage', 'warning', 'turn.started', 'turn.ended', 'step.entered', 'step.left', 'command.result', 'auth.expired', 'opaque', 'mystery', 'session.ended', 'stream.closed']

/** A warning's code by `n`: each the reader acts on (refusals, calls elsewhere, requests unmarked), and two it does not. */
const WARNING_CODES = ['other_0', 'approval-denied', 'requests_unmarked', 'hook-refused', 'subagent_calls_unseen', 'other_5', 'program-refused', 'nested_calls_unseen']

/** One event-stream line of `name`, its fields varied by `n`, written in the given `spelling`. */
function streamLine(seq: number, name: string, n: number, spelling: string): string {
  if (spelling === 'blank') return '   '
  const at = spelling === 'no-at' ? '' : `"at":"2026-08-23T09:00:${String(10 + seq).slice(-2)}.${n}00Z",`
  const call = `call_${n % 3}`
  const bodies: Record<string, string> = {
    'session.started': `"adapter":"gen","model":"m","offered_tools":["Bash","Read","Write"],"hermetic":{"decisions":"${['observe', 'frame', 'ask'][n % 3]}","stream_complete":${n % 2 === 0},"stream_events":3}`,
    text: `"text":"words ${n} \\"quoted\\" \\u00e9","request_id":"r${n % 2}"`,
    thinking: `"text":"hmm ${n}"`,
    'thinking.estimate': `"estimate":${n * 100},"delta":${n - 3}`,
    injection: `"text":"injected ${n}"`,
    'tool.requested':
      spelling === 'unnamed'
        ? `"call_id":"${call}","name":${n},"input":{}`
        : `"call_id":"${call}","name":"${['Bash', 'Read', 'Write', 'Edit'][n % 4]}","input":{"command":"cargo test ${n}","file_path":"src/f${n}.rs"}${n % 2 ? ',"operations":["shell"]' : ''}`,
    // Allowed and denied, in the plain spelling and in ones only a whole read decides.
    'tool.decided': `"call_id":"${call}","decision":${['{"decision":"allow"}', '{"decision":"deny"}', '{"decision":"allow","by":"policy"}', n === 3 ? '"allow"' : '{"decision":"deny","decision":"allow"}'][n % 4]}`,
    'tool.result': `"call_id":"${call}","is_error":${n % 3 === 0},"content":"out ${n}","bytes":${n}`,
    rate_limit: `"info":{"status":"${n % 2 ? 'allowed' : 'rejected'}","utilization":0.${n}}`,
    usage: `"request_id":"r${n % 2}","model":"m","usage":{"input_tokens":${n},"output_tokens":${n * 2}}`,
    // A harness's refusal is a denial the run outcome counts.
    warning: spelling === 'unclassified' ? `"code":"unclassified_tool","message":"tool \\"Bash\\" is in no operation table of the gen adapter"` : `"code":"${WARNING_CODES[n] ?? 'other'}","message":"the approver denied ${call}"`,
    opaque: `"vendor_type":"v${n}","digest":"d${n}"`,
    mystery: `"what":${n}`,
    // Without a census or the vendor's list, the denials are the seam's decisions alone; a census
    // of zeros counts only where a seam could decide.
    'session.ended':
      n % 3 === 0
        ? `"is_error":false,"num_turns":${n}`
        : n % 3 === 1
          ? `"is_error":false,"num_turns":${n},"census":{"allowed":0,"denied":0,"replaced":0,"abstained":0}`
          : `"is_error":false,"num_turns":${n},"permission_denials":[${n % 2 ? '{"tool_use_id":"call_1"}' : ''}],"census":{"denied":${n % 2}}`,
    'stream.closed': `"events":${seq + 1},"reason":"completed"`,
  }
  const body = bodies[name] ?? ''
  const event = spelling === 'escaped-name' ? JSON.stringify(name).replace(/[a-z]/, (letter) => `\\u00${letter.charCodeAt(0).toString(16)}`) : JSON.stringify(name)
  const eventKey = spelling === 'escaped-key' ? '"ev\\u0065nt"' : '"event"'
  const duplicate = spelling === 'duplicate-event' ? '"event":"turn.started",' : ''
  const deep = spelling === 'deep' ? `,"nest":${'['.repeat(600)}${']'.repeat(600)}` : ''
  const fields = `{"format":"${EVENT_FORMAT}","seq":${seq + 1},"run":"R",${at}${duplicate}${eventKey}:${event}${body ? ',' : ''}${body}${deep}}`
  if (spelling === 'spaced') return fields.replaceAll(',"', ' ,\t"').replaceAll('":', '" : ')
  if (spelling === 'crlf') return `${fields}\r`
  return fields
}
