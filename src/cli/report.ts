import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { buildCheckOnlyReport, buildRunReport } from '../report/build.js'
import { ReportInputError } from '../report/errors.js'
import { readTraceReport } from '../report/trace-report-input.js'
import { writeReportHtml } from '../report/write.js'
import { EXIT } from '../util/exit-codes.js'
import { UsageError, stringOption } from './args.js'
import type { Command } from './command.js'
import { inputFile } from './input-file.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, loadSpec, openTranscriptInput, refusalExit } from './trace-input.js'

export const reportCommand: Command = {
  name: 'report',
  summary: 'Writes one self-contained HTML page of a run: its timeline and, with a spec or a trace report, each verdict linked to the events it cites.',
  usage: '--transcript FILE|DIR|- [--from FORMAT] [--spec FILE | --trace-report FILE] [--out FILE] [--title TEXT]',
  options: [
    TRANSCRIPT_OPTION,
    FROM_OPTION,
    { name: 'spec', type: 'string', valueName: 'FILE', description: 'a trace-spec/1 specification to check the transcript against in the same pass' },
    { name: 'trace-report', type: 'string', valueName: 'FILE', description: 'a trace-report/1 JSON (check --format json) to show instead of checking; alone, without --transcript, it shows the verdicts only' },
    { name: 'out', type: 'string', valueName: 'FILE', description: 'where to write the page (default: report.html)' },
    { name: 'title', type: 'string', valueName: 'TEXT', description: "the page's heading (default: the spec id, else the transcript path)" },
  ],
  async run(args, io) {
    const transcriptPath = stringOption(args, 'transcript')
    const specPath = stringOption(args, 'spec')
    const reportPath = stringOption(args, 'trace-report')
    const title = stringOption(args, 'title')
    if (args.positionals.length > 0) throw new UsageError(`report takes no positional arguments; got ${JSON.stringify(args.positionals[0])}`)
    if (transcriptPath === undefined && reportPath === undefined) throw new UsageError('report needs --transcript, --trace-report, or both')
    if (specPath !== undefined && reportPath !== undefined) throw new UsageError('--spec and --trace-report both give the verdicts; pass one')
    if (specPath !== undefined && transcriptPath === undefined) throw new UsageError('--spec needs --transcript: there is nothing to check')
    const out = resolve(io.cwd, stringOption(args, 'out') ?? 'report.html')
    let data
    try {
      const traceReport = reportPath === undefined ? undefined : readTraceReport(readFileSync(inputFile(io, reportPath, 'trace report'), 'utf8'), reportPath)
      if (transcriptPath === undefined) {
        data = buildCheckOnlyReport(traceReport!, { source: reportPath, ...(title === undefined ? {} : { title }) })
      } else {
        const spec = specPath === undefined ? undefined : loadSpec(io, specPath)
        const transcript = await openTranscriptInput(io, transcriptPath, stringOption(args, 'from'))
        data = await buildRunReport(transcript.bytes, {
          source: transcriptPath,
          ...transcript.read,
          ...(spec === undefined ? {} : { spec }),
          ...(traceReport === undefined ? {} : { traceReport }),
          ...(title === undefined ? {} : { title }),
        })
      }
    } catch (error) {
      if (error instanceof ReportInputError) {
        io.stderr.write(`error: ${error.message}\n`)
        return EXIT.REFUSAL
      }
      return refusalExit(io, error)
    }
    const bytes = writeReportHtml(out, data)
    io.stdout.write(`wrote ${out} (${data.events.length} events${data.check ? `, ${data.check.expectations.length} expectations, verdict ${data.check.verdict}` : ''}, ${bytes} bytes)\n`)
    // A page is a view, not a gate: exit 0 whatever the verdict.
    return EXIT.OK
  },
}
