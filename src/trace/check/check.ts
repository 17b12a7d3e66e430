import { createReadStream, readFileSync } from 'node:fs'
import { EventStreamWriter } from '../../events/write.js'
import type { Emission } from '../../events/types.js'
import { TraceAdvisoryError, TraceTranscriptError } from '../errors.js'
import { TranscriptReader, type TranscriptReadOptions, type TranscriptReadResult } from '../ir/read.js'
import { markAdvisory } from '../spec/advisory.js'
import type { TraceSpec } from '../spec/model.js'
import type { TraceReport } from '../report-types.js'
import { TraceChecker } from './checker.js'
import { redactReport } from './report.js'

/** How a check runs. */
export interface CheckOptions extends TranscriptReadOptions {
  /**
   * Expectation ids downgraded to advisory for this check: evaluated and reported, gating
   * nothing, and named in `advisory_overrides`. An id the specification does not declare is
   * refused (`TraceAdvisoryError`). Default: none.
   */
  advisory?: readonly string[]
  /** Replace every note with a digest of it (`--redact`). Default: false. */
  redact?: boolean
  /** Names the transcript in errors, e.g. its path. */
  source?: string
}

/** A check in progress: push the transcript's bytes, then `end()` for the report. */
export class TraceCheck {
  private readonly checker: TraceChecker
  private readonly reader: TranscriptReader

  constructor(
    spec: TraceSpec,
    private readonly options: CheckOptions = {},
  ) {
    const advisory = [...(options.advisory ?? [])]
    let checked = spec
    if (advisory.length > 0) {
      const marked = markAdvisory(spec, advisory)
      if (marked.unknown.length > 0) throw new TraceAdvisoryError(marked.unknown, spec.id)
      checked = marked.spec
    }
    this.checker = new TraceChecker(checked, advisory)
    this.reader = new TranscriptReader(this.checker, options)
  }

  push(chunk: Uint8Array | string): void {
    this.reader.push(chunk)
  }

  /** The report; throws `TraceTranscriptError` (with every refused line) when the transcript is unreadable. */
  end(): TraceReport {
    const result: TranscriptReadResult = this.reader.end()
    if (!result.ok) throw new TraceTranscriptError(result.refusals, result.format, result.total, this.options.source)
    const report = this.checker.report(result.digest)
    return this.options.redact ? redactReport(report) : report
  }
}

/**
 * Checks a transcript streamed from any byte source (a file, stdin) in one pass: memory is what
 * the expectations hold, not the transcript, so a gigabyte checks in the memory a kilobyte does.
 */
export async function checkTranscript(spec: TraceSpec, source: AsyncIterable<Uint8Array | string>, options: CheckOptions = {}): Promise<TraceReport> {
  const check = new TraceCheck(spec, options)
  for await (const chunk of source) check.push(chunk)
  return check.end()
}

/** Checks a transcript file, streamed. */
export function checkTranscriptFile(spec: TraceSpec, path: string, options: CheckOptions = {}): Promise<TraceReport> {
  return checkTranscript(spec, createReadStream(path, { highWaterMark: 1 << 16 }), { source: path, ...options })
}

/** Checks a transcript already in memory, synchronously (what the matchers use). */
export function checkTranscriptText(spec: TraceSpec, text: string | Uint8Array, options: CheckOptions = {}): TraceReport {
  const check = new TraceCheck(spec, options)
  check.push(text)
  return check.end()
}

/** Checks a transcript file read whole, synchronously. */
export function checkTranscriptFileSync(spec: TraceSpec, path: string, options: CheckOptions = {}): TraceReport {
  return checkTranscriptText(spec, readFileSync(path), { source: path, ...options })
}

/** Options for checking events an adapter already produced. */
export interface CheckEventsOptions extends CheckOptions {
  /** The run id the events are written under; part of the bytes the digest is taken over. Default: `events`. */
  run?: string
}

/**
 * Checks `metaharness.event/1` events an adapter produced (its projector's emissions), through the
 * same reader a file goes through: each event is written as the line `EventStreamWriter` writes
 * (`seq` from 1, under `options.run`), and those lines are what is read and digested. So the
 * report — `transcript_digest` included — is the one checking the replayed file would give.
 *
 * @example
 * const emissions = projector.pushLine(line, 1) // … every line, then projector.finish()
 * const report = checkEvents(spec, emissions, { run: 'golden' })
 */
export function checkEvents(spec: TraceSpec, events: Iterable<Emission>, options: CheckEventsOptions = {}): TraceReport {
  const check = new TraceCheck(spec, { source: 'the events', ...options })
  const writer = new EventStreamWriter(options.run ?? 'events')
  for (const emission of events) check.push(writer.write(emission))
  return check.end()
}

/** As `checkEvents`, for events that arrive asynchronously. */
export async function checkEventStream(spec: TraceSpec, events: AsyncIterable<Emission> | Iterable<Emission>, options: CheckEventsOptions = {}): Promise<TraceReport> {
  const check = new TraceCheck(spec, { source: 'the events', ...options })
  const writer = new EventStreamWriter(options.run ?? 'events')
  for await (const emission of events) check.push(writer.write(emission))
  return check.end()
}
