import { checkTranscriptDetailed, type DetailedCheck } from '../trace/check/check.js'
import { reportToText, verdictSentence } from '../trace/check/render.js'
import { reportExitCode } from '../trace/check/report.js'
import { UsageError, flagOption, listOption, stringOption } from './args.js'
import type { Command } from './command.js'
import { writeWithBackpressure } from './io.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, UPSTREAM_TRACE_REFUSAL, loadSpec, openTranscriptInput, refusalExit, checkFromOption } from './trace-input.js'

export const checkCommand: Command = {
  name: 'check',
  summary: 'Judges a transcript against a trace-spec/1 specification: ok, gap or unknown per expectation.',
  usage: '--spec FILE --transcript FILE|DIR|- [--from FORMAT] [--format text|json] [--advisory ID]… [--redact]',
  options: [
    { name: 'spec', type: 'string', valueName: 'FILE', description: 'the trace-spec/1 specification (YAML or JSON)' },
    TRANSCRIPT_OPTION,
    FROM_OPTION,
    { name: 'format', type: 'string', choices: ['text', 'json'], description: 'how to print the report (default: text)' },
    { name: 'advisory', type: 'string', repeatable: true, valueName: 'ID', description: 'downgrade one expectation to advisory for this run' },
    { name: 'redact', type: 'boolean', description: 'cite event indices and digests only: no transcript content' },
  ],
  async run(args, io) {
    const specPath = stringOption(args, 'spec')
    const transcriptPath = stringOption(args, 'transcript')
    if (specPath === undefined) throw new UsageError('--spec is required')
    if (transcriptPath === undefined) throw new UsageError('--transcript is required')
    if (args.positionals.length > 0) throw new UsageError(`check takes no positional arguments; got ${JSON.stringify(args.positionals[0])}`)
    let checked: DetailedCheck
    try {
      checkFromOption(stringOption(args, 'from'))
      const spec = loadSpec(io, specPath)
      const transcript = await openTranscriptInput(io, transcriptPath, stringOption(args, 'from'))
      checked = await checkTranscriptDetailed(spec, transcript.bytes, {
        advisory: listOption(args, 'advisory'),
        redact: flagOption(args, 'redact'),
        source: transcriptPath,
        requireRead: true,
        ...transcript.read,
      })
    } catch (error) {
      return refusalExit(io, error, UPSTREAM_TRACE_REFUSAL)
    }
    const { report, unread } = checked
    if (stringOption(args, 'format') === 'json') await writeWithBackpressure(io.stdout, `${JSON.stringify(report, null, 2)}\n`)
    else await writeWithBackpressure(io.stdout, `${reportToText(report, { unread })}${verdictSentence(report)}\n`)
    return reportExitCode(report)
  },
}
