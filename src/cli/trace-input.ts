import { isUtf8 } from 'node:buffer'
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { TraceAdvisoryError, TraceSpecError, TraceTranscriptError } from '../trace/errors.js'
import { readSpec } from '../trace/spec/read.js'
import type { TraceSpec } from '../trace/spec/model.js'
import { checkTranscript } from '../trace/check/check.js'
import type { TraceReport } from '../trace/report-types.js'
import { UsageError } from './args.js'
import { EXIT, type ExitCode } from './exit-codes.js'
import type { CliIO } from './io.js'

/** Shared by `check` and `inspect`: where their inputs come from and how a refusal is printed. */

function existingFile(io: CliIO, path: string, what: string): string {
  const full = resolve(io.cwd, path)
  if (!existsSync(full)) throw new UsageError(`cannot read the ${what} ${path}: no such file`)
  if (statSync(full).isDirectory()) throw new UsageError(`cannot read the ${what} ${path}: it is a directory`)
  return full
}

/** Reads and validates a specification; a refusal throws `TraceSpecError` naming the path as given. */
export function loadSpec(io: CliIO, path: string): TraceSpec {
  const bytes = readFileSync(existingFile(io, path, 'specification'))
  if (!isUtf8(bytes)) throw new TraceSpecError([{ code: 'TRACE-SPEC-002', location: 'document', message: 'the specification is not UTF-8' }], path)
  return readSpec(bytes.toString('utf8'), path)
}

/** The transcript's bytes, streamed: a file, or stdin for `-`. */
export function transcriptSource(io: CliIO, path: string): AsyncIterable<Uint8Array | string> {
  if (path === '-') return io.stdin
  return createReadStream(existingFile(io, path, 'transcript'), { highWaterMark: 1 << 16 })
}

/** Prints a trace refusal the way upstream words it (every refusal line) and says exit 2. */
export function refusalExit(io: CliIO, error: unknown): ExitCode {
  if (error instanceof TraceSpecError || error instanceof TraceTranscriptError || error instanceof TraceAdvisoryError) {
    io.stderr.write(`error: ${error.message}\n`)
    return EXIT.REFUSAL
  }
  throw error
}

/**
 * The checker as `vitest-harness evidence` needs it: a spec file and a transcript file (or `-`),
 * the `--advisory` downgrades, and the report; refusals throw.
 */
export async function checkTraceFiles(specPath: string, transcriptPath: string, advisory: readonly string[], io: CliIO): Promise<TraceReport> {
  return checkTranscript(loadSpec(io, specPath), transcriptSource(io, transcriptPath), { advisory, source: transcriptPath })
}
