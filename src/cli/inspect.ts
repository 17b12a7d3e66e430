import { censusToText, inspectTranscript } from '../trace/census.js'
import { UsageError, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'
import { writeWithBackpressure } from './io.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, openTranscriptInput, refusalExit } from './trace-input.js'

export const inspectCommand: Command = {
  name: 'inspect',
  summary: "Reports what is in a transcript: events by family, tools called, timings, its reader and closure.",
  usage: '[--transcript] FILE|DIR|- [--from FORMAT] [--format text|json]',
  options: [
    TRANSCRIPT_OPTION,
    FROM_OPTION,
    { name: 'format', type: 'string', choices: ['text', 'json'], description: 'how to print the census (default: text)' },
  ],
  async run(args, io) {
    const transcriptPath = transcriptArgument(args)
    let census
    try {
      const transcript = await openTranscriptInput(io, transcriptPath, stringOption(args, 'from'))
      census = await inspectTranscript(transcript.bytes, { source: transcriptPath, requireRead: true, ...transcript.read })
    } catch (error) {
      return refusalExit(io, error)
    }
    // A census is a report, not a gate: exit 0 whatever it says.
    await writeWithBackpressure(io.stdout, stringOption(args, 'format') === 'json' ? `${JSON.stringify(census, null, 2)}\n` : censusToText(census))
    return EXIT.OK
  },
}

/** The one transcript inspected: `--transcript P` or `P` alone, as `convert` takes it. */
function transcriptArgument(args: ParsedArgs): string {
  const option = stringOption(args, 'transcript')
  const [positional, extra] = args.positionals
  if (option !== undefined && positional !== undefined) throw new UsageError(`inspect reads one transcript: --transcript or an argument, not both; got ${JSON.stringify(positional)}`)
  if (extra !== undefined) throw new UsageError(`inspect reads one transcript; got ${args.positionals.length}`)
  const path = option ?? positional
  if (path === undefined) throw new UsageError('name the transcript to inspect: --transcript FILE|DIR|-, or FILE|DIR|- as an argument')
  return path
}
