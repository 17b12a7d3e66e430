import { escapeForTerminal } from '../util/terminal-text.js'
import { isUtf8 } from 'node:buffer'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { TraceAdvisoryError, TraceSpecError, TraceTranscriptError } from '../trace/errors.js'
import { readSpec } from '../trace/spec/read.js'
import type { TraceSpec } from '../trace/spec/model.js'
import { TranscriptError } from '../../adapters/errors.js'
import { findFormat, formatNames } from '../../adapters/formats.js'
import { checkTranscript } from '../trace/check/check.js'
import { openTranscriptPath, openTranscriptStream, type OpenedTranscript } from '../trace/ir/any-format.js'
import type { TranscriptChunk } from '../trace/ir/read.js'
import type { TraceReport } from '../trace/report-types.js'
import { UsageError } from './args.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import type { CliIO } from './io.js'
import { INPUT_LIMITS, InputError, readBoundedFile } from '../util/read-input.js'

/** Shared by `check` and `inspect`: where their inputs come from and how a refusal is printed. */

/** Reads and validates a specification; a refusal throws `TraceSpecError` naming the path as given. */
export function loadSpec(io: CliIO, path: string): TraceSpec {
  const bytes = readBoundedFile(resolve(io.cwd, path), { maxBytes: INPUT_LIMITS.spec, what: 'specification', shownAs: path, env: io.env })
  if (!isUtf8(bytes)) throw new TraceSpecError([{ code: 'TRACE-SPEC-002', location: 'document', message: 'the specification is not UTF-8' }], path)
  return readSpec(bytes.toString('utf8'), path)
}

/** The transcript formats `--from` accepts. */
function fromFormats(): string {
  return formatNames().join(', ')
}

/** The `--transcript` option as `check`, `inspect` and `evidence` declare it. */
export const TRANSCRIPT_OPTION = {
  name: 'transcript',
  type: 'string',
  valueName: 'FILE',
  description: 'the run, in any supported transcript format: a file, a directory, or - for stdin',
} as const

/** The `--from` option as `check`, `inspect` and `evidence` declare it. */
export const FROM_OPTION = {
  name: 'from',
  type: 'string',
  valueName: 'FORMAT',
  description: `the transcript format (default: detected from the first lines); metaharness.event/1 and claude-code/stream-json are read as upstream reads them, any other is converted by its adapter first; one of ${fromFormats()}`,
} as const

/** Refuses a `--from` that names no format (`VH_USAGE`): called before any file is read, so a usage error is reported as one. */
export function checkFromOption(from: string | undefined): void {
  if (from !== undefined && !findFormat(from)) throw new UsageError(`--from names no transcript format: ${JSON.stringify(from)}; the formats are ${fromFormats()}`)
}

/**
 * The transcript, opened for the trace reader: a file or directory in any supported format, or
 * stdin for `-` (its format detected from what is read ahead), converted by its adapter where the
 * reader does not read it itself.
 */
export async function openTranscriptInput(io: CliIO, path: string, from: string | undefined): Promise<OpenedTranscript<AsyncIterable<TranscriptChunk>>> {
  checkFromOption(from)
  if (path === '-') return openTranscriptStream(io.stdin, from, '-')
  const full = resolve(io.cwd, path)
  if (!existsSync(full)) throw new TranscriptError('VH_TRANSCRIPT_MISSING', path, null, 'cannot read the transcript: no such file or directory')
  const stats = statSync(full)
  if (stats.isSocket() || stats.isBlockDevice()) throw new InputError('VH_INPUT_NOT_A_FILE', path, `cannot read the transcript: it is a ${stats.isSocket() ? 'socket' : 'block device'}, not a file`)
  // A pipe, `<(…)` or character device can be read once, from where it stands: streamed as stdin is,
  // its format detected from what is read ahead (a file's head is read twice, which a pipe cannot give).
  if (!stats.isFile() && !stats.isDirectory()) return openTranscriptStream(createReadStream(full, { highWaterMark: 1 << 16 }), from, path)
  return openTranscriptPath(full, from, path)
}

/**
 * What upstream's trace verbs exit with when they refuse a specification, a transcript or an
 * `--advisory` id: 1, with the reason on stderr (`aep observe trace check|evidence`; pinned by
 * upstream's `trace_cli.rs`). Usage errors stay 2, as clap's are.
 */
export const UPSTREAM_TRACE_REFUSAL = EXIT.GAP

/**
 * Prints a trace refusal the way upstream words it (every refusal line). The refusals upstream's
 * checker makes (`TraceSpecError`, `TraceTranscriptError`, `TraceAdvisoryError`) exit as upstream's
 * `check` and `evidence` do (`upstreamCode`); the ones it does not have (an ambiguous or uncertain
 * format, a file nothing of which was read: `TranscriptError`) exit 2.
 */
export function refusalExit(io: CliIO, error: unknown, upstreamCode: ExitCode = EXIT.REFUSAL): ExitCode {
  if (error instanceof TraceSpecError || error instanceof TraceTranscriptError || error instanceof TraceAdvisoryError) {
    io.stderr.write(escapeForTerminal(`error: ${error.message}\n`))
    return upstreamCode
  }
  if (error instanceof TranscriptError) {
    io.stderr.write(escapeForTerminal(`error: ${error.message}\n`))
    return EXIT.REFUSAL
  }
  throw error
}

/**
 * The checker as `vitest-harness evidence` needs it: a spec file and a transcript (a file or
 * directory in any supported format, or `-`), the `--advisory` downgrades and `--from`, and the
 * report; refusals throw.
 */
export async function checkTraceFiles(specPath: string, transcriptPath: string, advisory: readonly string[], io: CliIO, from?: string): Promise<TraceReport> {
  checkFromOption(from)
  const spec = loadSpec(io, specPath)
  const transcript = await openTranscriptInput(io, transcriptPath, from)
  return checkTranscript(spec, transcript.bytes, { advisory, source: transcriptPath, requireRead: true, ...transcript.read })
}
