import { censusToText, inspectTranscript } from '../trace/census.js'
import { UsageError, stringOption } from './args.js'
import type { Command } from './command.js'
import { EXIT } from './exit-codes.js'
import { writeWithBackpressure } from './io.js'
import { refusalExit, transcriptSource } from './trace-input.js'

export const inspectCommand: Command = {
  name: 'inspect',
  summary: "Reports what is in a transcript: events by family, tools called, timings, its reader and closure.",
  usage: '--transcript FILE|- [--format text|json]',
  options: [
    { name: 'transcript', type: 'string', valueName: 'FILE', description: 'a metaharness.event/1 stream or Claude Code stream-json (- for stdin)' },
    { name: 'format', type: 'string', choices: ['text', 'json'], description: 'how to print the census (default: text)' },
  ],
  async run(args, io) {
    const transcriptPath = stringOption(args, 'transcript')
    if (transcriptPath === undefined) throw new UsageError('--transcript is required')
    if (args.positionals.length > 0) throw new UsageError(`inspect takes no positional arguments; got ${JSON.stringify(args.positionals[0])}`)
    let census
    try {
      census = await inspectTranscript(transcriptSource(io, transcriptPath), { source: transcriptPath })
    } catch (error) {
      return refusalExit(io, error)
    }
    // A census is a report, not a gate: exit 0 whatever it says.
    await writeWithBackpressure(io.stdout, stringOption(args, 'format') === 'json' ? `${JSON.stringify(census, null, 2)}\n` : censusToText(census))
    return EXIT.OK
  },
}
