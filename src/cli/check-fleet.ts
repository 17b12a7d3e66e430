import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expandTranscriptArguments, fleetLabel } from '../fleet/expand.js'
import type { FleetResult } from '../fleet/messages.js'
import { checkFleet } from '../fleet/pool.js'
import { renderFleetSummary, worstExit } from '../fleet/summary.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import type { ExitCode } from '../util/exit-codes.js'
import { UsageError, flagOption, listOption, stringOption, type ParsedArgs } from './args.js'
import { writeWithBackpressure } from './io.js'
import type { CliIO } from './io.js'
import { UPSTREAM_TRACE_REFUSAL, loadSpec, refusalExit } from './trace-input.js'

function jobsOption(args: ParsedArgs): number | undefined {
  const text = stringOption(args, 'jobs')
  if (text === undefined) return undefined
  const jobs = Number(text)
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs takes a whole number of worker threads, 1 or more; got ${JSON.stringify(text)}`)
  return jobs
}

/** The trace-report/1 JSON lines of a fleet: one report a line, in the fleet's order; refusals have none. */
function reportLines(results: readonly FleetResult[]): string {
  let out = ''
  for (const result of results) if (result.outcome === 'report') out += `${JSON.stringify(result.report)}\n`
  return out
}

/**
 * `check --spec S <dir|glob>…`: every transcript the arguments name, checked on worker threads
 * (`--jobs`, default every core); each one's report in the fleet's order, then a summary table;
 * `--out FILE` also writes the reports as trace-report/1 JSON lines. Exits with the worst
 * transcript's code (see `worstExit`).
 */
export async function runFleetCheck(args: ParsedArgs, io: CliIO, specPath: string): Promise<ExitCode> {
  const jobs = jobsOption(args)
  let paths: string[]
  try {
    // The spec is refused once, here, not once per worker.
    loadSpec(io, specPath)
    paths = expandTranscriptArguments(args.positionals, io.cwd)
  } catch (error) {
    return refusalExit(io, error, UPSTREAM_TRACE_REFUSAL)
  }
  const labels = paths.map((path) => fleetLabel(path, io.cwd))
  const setup = { specPath: resolve(io.cwd, specPath), advisory: listOption(args, 'advisory'), redact: flagOption(args, 'redact'), from: stringOption(args, 'from') }
  const results = await checkFleet(
    setup,
    paths.map((path, index) => ({ index, path, source: labels[index] as string })),
    jobs === undefined ? {} : { jobs },
  )
  const json = stringOption(args, 'format') === 'json'
  const lines = reportLines(results)
  const out = stringOption(args, 'out')
  if (out !== undefined) writeFileSync(resolve(io.cwd, out), lines)
  for (const result of results) {
    // The refusal names its transcript, as `check --transcript` prints it.
    if (result.outcome === 'refused') io.stderr.write(escapeForTerminal(`error: ${result.message}\n`))
    else if (!json) await writeWithBackpressure(io.stdout, `== ${escapeForTerminal(labels[result.index] as string)}\n${result.text}\n`)
  }
  if (json) await writeWithBackpressure(io.stdout, lines)
  const summary = escapeForTerminal(renderFleetSummary(results, labels))
  if (json) io.stderr.write(summary)
  else await writeWithBackpressure(io.stdout, summary)
  return worstExit(results)
}
