import { EventStreamWriter } from '../../events/write.js'
import type { Emission } from '../../events/types.js'
import { TraceAdvisoryError, TraceTranscriptError } from '../errors.js'
import { openTranscriptPath, openTranscriptPathSync, openTranscriptText } from '../ir/any-format.js'
import { TranscriptReader, type TranscriptChunk, type TranscriptReadOptions, type TranscriptReadResult } from '../ir/read.js'
import { markAdvisory } from '../spec/advisory.js'
import type { TraceSpec } from '../spec/model.js'
import type { TraceReport } from '../report-types.js'
import { TraceChecker } from './checker.js'
import { ReadWitness } from '../ir/read-witness.js'
import { redactReport } from './report.js'
import type { UnreadRecords } from './unread.js'

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
  /**
   * Refuse (`VH_NOTHING_READ`, a `TranscriptError`) a transcript nothing of which was read — every
   * event opaque, or only an empty session opening — instead of reporting on it. Upstream's
   * checker reports such a run (every absence unknown); the CLI refuses it. Default: false.
   */
  requireRead?: boolean
}

/** A check in progress: push the transcript's bytes, then `end()` for the report. */
export class TraceCheck {
  private readonly checker: TraceChecker
  private readonly reader: TranscriptReader
  private readonly witness: ReadWitness | undefined

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
    this.witness = options.requireRead ? new ReadWitness(this.checker) : undefined
    this.reader = new TranscriptReader(this.witness ?? this.checker, options)
  }

  push(chunk: TranscriptChunk): void {
    this.reader.push(chunk)
  }

  /** True once the transcript is refused as a source that may never end: push no more, call `end`. */
  get stopped(): boolean {
    return this.reader.stopped
  }

  /** The report; throws `TraceTranscriptError` (with every refused line) when the transcript is unreadable. */
  end(): TraceReport {
    const result: TranscriptReadResult = this.reader.end()
    if (!result.ok) throw new TraceTranscriptError(result.refusals, result.format, result.total, this.options.source)
    if (this.witness?.nothingRead) throw this.witness.refusal(this.options.source ?? 'the transcript', result.adapter.name)
    const report = this.checker.report(result.digest)
    return this.options.redact ? redactReport(report) : report
  }

  /** The records nobody could read, by type and first lines (for the text report); read after `end()`. */
  unread(): UnreadRecords {
    return this.checker.unread()
  }
}

/** A report and what the text rendering says of the records nobody could read. */
export interface DetailedCheck {
  report: TraceReport
  unread: UnreadRecords
}

/** As `checkTranscript`, with the unread records counted for `reportToText`. */
export async function checkTranscriptDetailed(spec: TraceSpec, source: AsyncIterable<TranscriptChunk> | Iterable<TranscriptChunk>, options: CheckOptions = {}): Promise<DetailedCheck> {
  const check = new TraceCheck(spec, options)
  for await (const chunk of source) {
    check.push(chunk)
    // An endless line was refused at its limit: nothing after it can change the answer.
    if (check.stopped) break
  }
  const report = check.end()
  return { report, unread: check.unread() }
}

/**
 * Checks a transcript streamed from any byte source (a file, stdin) in one pass: memory is what
 * the expectations hold, not the transcript, so a gigabyte checks in the memory a kilobyte does.
 */
export async function checkTranscript(spec: TraceSpec, source: AsyncIterable<TranscriptChunk> | Iterable<TranscriptChunk>, options: CheckOptions = {}): Promise<TraceReport> {
  return (await checkTranscriptDetailed(spec, source, options)).report
}

/** Options for checking a transcript in any supported format. */
export interface AnyFormatCheckOptions extends CheckOptions {
  /**
   * The transcript's format (a name `vitest-harness convert --from` takes). Default: detected from
   * the first lines. A `metaharness.event/1` stream and Claude Code stream-json are read as they
   * are, as upstream reads them; any other format is converted by its adapter and read as the event
   * stream, with the original's digest and `<format> via metaharness/event-stream` as the adapter.
   */
  from?: string
}

/**
 * Checks a transcript file — or a directory of them — in any supported format, streamed.
 *
 * @example
 * const report = await checkTranscriptFile(readSpecFile('dev.trace.yaml'), 'rollout-2026-08-01.jsonl')
 * report.adapter.name // 'codex/rollout-jsonl via metaharness/event-stream'
 */
export function checkTranscriptFile(spec: TraceSpec, path: string, options: AnyFormatCheckOptions = {}): Promise<TraceReport> {
  const { from, ...rest } = options
  const opened = openTranscriptPath(path, from, options.source ?? path)
  return checkTranscript(spec, opened.bytes, { source: path, ...rest, ...opened.read })
}

/**
 * Checks a transcript already in memory, synchronously, with the trace reader alone: a
 * `metaharness.event/1` stream or Claude Code stream-json, chosen from the first line as upstream
 * chooses (or by `options.format`). `checkAnySync({ text })` reads any format.
 */
export function checkTranscriptText(spec: TraceSpec, text: TranscriptChunk, options: CheckOptions = {}): TraceReport {
  const check = new TraceCheck(spec, options)
  check.push(text)
  return check.end()
}

/** Checks a transcript in any supported format held in memory, synchronously. */
export function checkAnyFormatText(spec: TraceSpec, text: string | Uint8Array, options: AnyFormatCheckOptions = {}): TraceReport {
  const { from, ...rest } = options
  const opened = openTranscriptText(text, from, options.source)
  return checkTranscriptText(spec, opened.bytes, { ...rest, ...opened.read })
}

/** Checks a transcript file (or directory) in any supported format, read whole, synchronously. */
export function checkTranscriptFileSync(spec: TraceSpec, path: string, options: AnyFormatCheckOptions = {}): TraceReport {
  const { from, ...rest } = options
  const opened = openTranscriptPathSync(path, from, options.source ?? path)
  return checkTranscriptText(spec, opened.bytes, { source: path, ...rest, ...opened.read })
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
