import { checkTranscriptDetailed, type DetailedCheck } from '../trace/check/check.js'
import { reportToText, verdictSentence } from '../trace/check/render.js'
import { reportExitCode } from '../trace/check/report.js'
import { UsageError, flagOption, listOption, stringOption } from './args.js'
import type { Command } from './command.js'
import { writeWithBackpressure } from './io.js'
import { runFleetCheck } from './check-fleet.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, UPSTREAM_TRACE_REFUSAL, loadSpec, openTranscriptInput, refusalExit, checkFromOption } from './trace-input.js'

export const checkCommand: Command = {
  name: 'check',
  summary: 'Judges a transcript against a trace-spec/1 specification: ok, gap or unknown per expectation.',
  usage: '--spec FILE (--transcript FILE|DIR|- | FILE|DIR|GLOB…) [--from FORMAT] [--format text|json] [--advisory ID]… [--redact] [--jobs N] [--out FILE]',
  options: [
    { name: 'spec', type: 'string', valueName: 'FILE', description: 'the trace-spec/1 specification (YAML or JSON)' },
    TRANSCRIPT_OPTION,
    FROM_OPTION,
    { name: 'format', type: 'string', choices: ['text', 'json'], description: 'how to print the report (default: text)' },
    { name: 'advisory', type: 'string', repeatable: true, valueName: 'ID', description: 'downgrade one expectation to advisory for this run' },
    { name: 'redact', type: 'boolean', description: 'cite event indices and digests only: no transcript content' },
    { name: 'jobs', type: 'string', valueName: 'N', description: 'a fleet (transcripts named as arguments): how many worker threads check at once (default: every core)' },
    { name: 'out', type: 'string', valueName: 'FILE', description: 'a fleet: also write every report to FILE as trace-report/1 JSON lines' },
  ],
  async run(args, io) {
    const specPath = stringOption(args, 'spec')
    const transcriptPath = stringOption(args, 'transcript')
    if (specPath === undefined) throw new UsageError('--spec is required')
    if (transcriptPath !== undefined && args.positionals.length > 0) throw new UsageError(`check takes --transcript or a fleet of FILE|DIR|GLOB arguments, not both; got ${JSON.stringify(args.positionals[0])}`)
    // Transcripts named as arguments are a fleet: each checked on a worker thread.
    if (args.positionals.length > 0) return runFleetCheck(args, io, specPath)
    if (transcriptPath === undefined) throw new UsageError('name what to check: --transcript FILE|DIR|-, or a fleet of FILE|DIR|GLOB arguments')
    if (stringOption(args, 'jobs') !== undefined || stringOption(args, 'out') !== undefined) throw new UsageError('--jobs and --out are for a fleet of transcripts named as arguments')
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
