import { rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { renderEvidenceDocument } from '../evidence/document.js'
import { verifyEvidenceSet } from '../evidence/evidence-set-verify.js'
import { EVIDENCE_DOCUMENT_NAME } from '../evidence/set-manifest.js'
import { renderIntakeDiagnostic, validateEvidenceText } from '../evidence/intake.js'
import { clockFromOption, parseObservedAtOption } from '../evidence/observed-at.js'
import { traceConformanceRecord, traceEvidenceCommand } from '../evidence/trace-conformance.js'
import type { TraceReport } from '../trace/report-types.js'
import { writeFileAtomic } from '../util/atomic-write.js'
import { UsageError, listOption, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import { writeWithBackpressure, type CliIO } from './io.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, UPSTREAM_TRACE_REFUSAL, refusalExit } from './trace-input.js'
import { readInputText } from './input-file.js'
import { INPUT_LIMITS, InputError } from '../util/read-input.js'

/** A bad option value is a usage error (`VH_USAGE`, exit 2), whatever the parser of the value calls it. */
function optionValue<T>(parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if (error instanceof Error) throw new UsageError(error.message)
    throw error
  }
}

/**
 * The trace checker as the `evidence` command needs it: reads the spec and the transcript, applies
 * the `--advisory` downgrades, returns the `trace-report/1` report. Refusals throw.
 */
export type CheckTrace = (specPath: string, transcriptPath: string, advisory: readonly string[], io: CliIO, from?: string) => TraceReport | Promise<TraceReport>

async function readInput(path: string, io: CliIO): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = []
    let total = 0
    for await (const chunk of io.stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
      total += bytes.length
      if (total > INPUT_LIMITS.evidence) throw new InputError('VH_INPUT_TOO_LARGE', 'stdin', `the evidence document is larger than the ${INPUT_LIMITS.evidence / 1024 / 1024} MiB limit`)
      chunks.push(bytes)
    }
    return Buffer.concat(chunks).toString('utf8')
  }
  return readInputText(io, path, 'evidence document', INPUT_LIMITS.evidence)
}

function isDirectory(io: CliIO, path: string): boolean {
  if (path === '-') return false
  try {
    return statSync(resolve(io.cwd, path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * A folder is an evidence set: its manifest must list exactly its files, byte for byte, or the
 * folder is refused whole (exit 2) — a set that lost a document must not pass for a smaller one.
 * Returns the documents to put through intake, or `undefined` when the set is refused.
 */
async function checkSet(dir: string, io: CliIO): Promise<string[] | undefined> {
  const check = verifyEvidenceSet(resolve(io.cwd, dir))
  const shown = (file: string): string => join(dir, file.slice(resolve(io.cwd, dir).length + 1) || '.')
  if (check.problems.length > 0 || !check.manifest) {
    const lines = check.problems.map((problem) => `error: ${shown(problem.file)}: ${problem.code}: ${problem.message}`)
    lines.push(`error: ${dir}: refused — not the complete evidence set its manifest describes; none of its documents is read`)
    io.stderr.write(escapeForTerminal(`${lines.join('\n')}\n`))
    return undefined
  }
  const { counts, records, run_id: runId } = check.manifest
  await writeWithBackpressure(io.stdout, escapeForTerminal(`${dir}: evidence set ${runId} — ${check.files.length} file(s) as its manifest lists them, ${records} record(s); by status ${counts.passed} passed, ${counts.failed} failed, ${counts.inconclusive} inconclusive\n`))
  return check.files.filter((name) => EVIDENCE_DOCUMENT_NAME.test(name)).map((name) => join(dir, name))
}

/** `vitest-harness evidence validate`: the engine's intake rules, file by file; a folder is checked against its manifest first. */
export const evidenceValidateCommand: Command = {
  name: 'validate',
  summary: "Applies the AEP engine's intake rules to evidence documents: exit 0 all accepted, 1 any refused; a folder must match its evidence-set manifest (exit 2 when not)",
  usage: '[--now YYYY-MM-DD|EPOCH_MS] FILE|DIR…',
  options: [
    {
      name: 'now',
      type: 'string',
      valueName: 'YYYY-MM-DD|EPOCH_MS',
      description: "the engine's clock: an instant, or a day read at its last millisecond (default: now)",
    },
  ],
  async run(args: ParsedArgs, io: CliIO): Promise<ExitCode> {
    if (args.positionals.length === 0) throw new UsageError('name at least one evidence file (or - for stdin)')
    const nowOption = stringOption(args, 'now')
    const now = nowOption === undefined ? Date.now() : clockFromOption(optionValue(() => parseObservedAtOption(nowOption, '--now')))
    let anyRefused = false
    let setRefused = false
    const files: string[] = []
    for (const named of args.positionals) {
      if (!isDirectory(io, named)) {
        files.push(named)
        continue
      }
      const documents = await checkSet(named, io)
      if (documents === undefined) setRefused = true
      else files.push(...documents)
    }
    for (const file of files) {
      const report = validateEvidenceText(await readInput(file, io), { now })
      const lines = report.diagnostics.map((diagnostic) => renderIntakeDiagnostic(file, diagnostic))
      const records = `${report.records} record${report.records === 1 ? '' : 's'}`
      if (report.documentRefused) {
        lines.push(`${file}: VH_EVIDENCE_REFUSED: refused — the engine reads none of its ${records}`)
      } else {
        lines.push(`${file}: ${records} — ${report.accepted.length} accepted, ${report.refused.length} refused`)
      }
      anyRefused ||= report.refused.length > 0 || report.documentRefused
      await writeWithBackpressure(io.stdout, escapeForTerminal(`${lines.join('\n')}\n`))
    }
    // A refused set is a refusal, not a verdict: it outranks any refused record.
    return setRefused ? EXIT.REFUSAL : anyRefused ? EXIT.GAP : EXIT.OK
  },
}

/**
 * The mint half: check a transcript against a spec and write the `trace_conformance` record. A
 * refusal with `--out F` removes F: the previous run's record must not stand as this run's.
 */
async function mintTraceEvidence(args: ParsedArgs, io: CliIO, checkTrace: CheckTrace): Promise<ExitCode> {
  const out = stringOption(args, 'out')
  try {
    return await mintTraceEvidenceTo(args, io, checkTrace, out)
  } catch (error) {
    if (out !== undefined) rmSync(resolve(io.cwd, out), { force: true })
    throw error
  }
}

async function mintTraceEvidenceTo(args: ParsedArgs, io: CliIO, checkTrace: CheckTrace, out: string | undefined): Promise<ExitCode> {
  const spec = stringOption(args, 'spec')
  const transcript = stringOption(args, 'transcript')
  if (!spec || !transcript) throw new UsageError('--spec and --transcript are required (or use `evidence validate FILE…`)')
  const advisory = listOption(args, 'advisory')
  const from = stringOption(args, 'from')
  const observedAtOption = stringOption(args, 'observed-at')
  // Parsed before the check runs, so a bad value refuses without reading anything.
  const observedAt = observedAtOption === undefined ? undefined : optionValue(() => parseObservedAtOption(observedAtOption, '--observed-at')).at
  // Paths as given: relative to the working directory, `-` for stdin.
  let report: TraceReport
  try {
    report = await checkTrace(spec, transcript, advisory, io, from)
  } catch (error) {
    // Refused before anything was written: stdout stays empty, the reason is on stderr, and a
    // previous run's record at --out does not stand as this run's.
    if (out !== undefined) rmSync(resolve(io.cwd, out), { force: true })
    return refusalExit(io, error, UPSTREAM_TRACE_REFUSAL)
  }
  const record = traceConformanceRecord(report, observedAt ?? Date.now(), { command: traceEvidenceCommand(spec, transcript, advisory, from), inputs: [spec, transcript] })
  const document = renderEvidenceDocument([record], stringOption(args, 'format') === 'json' ? 'json' : 'yaml')
  if (out === undefined) {
    await writeWithBackpressure(io.stdout, document)
  } else {
    writeFileAtomic(resolve(io.cwd, out), document)
    await writeWithBackpressure(io.stdout, `${out} — ${record.status}\n`)
  }
  // A record was written: the verdict is in it, whatever it is.
  return EXIT.OK
}

/**
 * `vitest-harness evidence`: `evidence --spec F --transcript F …` mints a `trace_conformance` record
 * exactly as `aep observe trace evidence` does (exit 0 whenever a record is written), with the
 * checker given (the CLI's reads files; tests pass their own); `evidence validate FILE…` applies the
 * engine's intake rules.
 */
export function createEvidenceCommand(checkTrace: CheckTrace): Command {
  return {
    name: 'evidence',
    summary: 'Checks a transcript against a trace spec and writes the trace_conformance evidence record (exit 0 whenever a record is written)',
    usage: '--spec F --transcript F [--from FORMAT] [--out F] [--format yaml|json|text] [--advisory ID]… [--observed-at YYYY-MM-DD|EPOCH_MS]',
    options: [
      { name: 'spec', type: 'string', valueName: 'FILE', description: 'the trace-spec/1 specification the run is judged against' },
      TRANSCRIPT_OPTION,
      FROM_OPTION,
      { name: 'out', type: 'string', valueName: 'FILE', description: 'write the record here (atomically) and print `<file> — <status>`; a refusal removes the file; default: stdout' },
      { name: 'format', type: 'string', choices: ['yaml', 'json', 'text'], description: 'yaml (default; text is the same document) or pretty JSON' },
      { name: 'advisory', type: 'string', repeatable: true, valueName: 'ID', description: 'downgrade an expectation to advisory for this run (recorded in the record)' },
      { name: 'observed-at', type: 'string', valueName: 'YYYY-MM-DD|EPOCH_MS', description: 'when the check is recorded as made (default: now)' },
    ],
    subcommands: [evidenceValidateCommand],
    run: (args, io) => mintTraceEvidence(args, io, checkTrace),
  }
}
