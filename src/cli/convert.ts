import { escapeForTerminal } from '../util/terminal-text.js'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { convertLineStream, convertTranscript, type LinePolicy } from '../../adapters/transcript/read.js'
import { detectedFormat } from '../../adapters/transcript/detect.js'
import { refusingCompressedStream } from '../../adapters/transcript/compressed.js'
import { peekTranscriptStream } from '../../adapters/transcript/peek.js'
import { formatNames } from '../../adapters/formats.js'
import { TranscriptError } from '../../adapters/errors.js'
import { UsageError, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'
import { writeWithBackpressure, type CliIO } from './io.js'

/** A FIFO, `<(…)` or character device: a source that reads once, with no position to seek back to. */
function isStream(path: string): boolean {
  try {
    const stats = statSync(path)
    return stats.isFIFO() || stats.isCharacterDevice()
  } catch {
    return false
  }
}

function seamOf(args: ParsedArgs): { harnessVersion?: string; model?: string; cwd?: string; projection?: 'upstream' | 'enriched' } {
  const seam: { harnessVersion?: string; model?: string; cwd?: string; projection?: 'upstream' | 'enriched' } = {}
  const version = stringOption(args, 'harness-version')
  const model = stringOption(args, 'model')
  const cwd = stringOption(args, 'cwd')
  const projection = stringOption(args, 'projection')
  if (version !== undefined) seam.harnessVersion = version
  if (model !== undefined) seam.model = model
  if (cwd !== undefined) seam.cwd = cwd
  if (projection === 'upstream' || projection === 'enriched') seam.projection = projection
  return seam
}

async function write(io: CliIO, chunks: AsyncIterable<string>): Promise<void> {
  for await (const chunk of chunks) await writeWithBackpressure(io.stdout, chunk)
}

export const convertCommand: Command = {
  name: 'convert',
  summary: "Converts a harness's own transcript (a file, a directory, or stdin) into the metaharness.event/1 stream on stdout.",
  usage: '[--from FORMAT] [--run ID] IN|-',
  options: [
    { name: 'from', type: 'string', valueName: 'FORMAT', description: `the transcript format (default: detected from the first lines); one of ${formatNames().join(', ')}` },
    { name: 'run', type: 'string', valueName: 'ID', description: 'the run id written on every line (default: convert)' },
    { name: 'lines', type: 'string', choices: ['reef', 'lenient'], description: 'unreadable lines: reef refuses one mid-file (default for a directory), lenient keeps it as opaque (default for a file)' },
    { name: 'projection', type: 'string', choices: ['enriched', 'upstream'], description: "enriched (default) adds operations and per-request usage; upstream reproduces metaharness's own projection" },
    { name: 'harness-version', type: 'string', valueName: 'V', description: 'the version the binary reported, where the record does not say' },
    { name: 'model', type: 'string', valueName: 'M', description: 'the model the launch asked for, where the record does not say' },
    { name: 'cwd', type: 'string', valueName: 'P', description: 'the workspace the run was pointed at, where the record does not say' },
  ],
  async run(args, io) {
    if (args.positionals.length !== 1) throw new UsageError(`convert reads one transcript (a file, a directory or -); got ${args.positionals.length}`)
    const input = args.positionals[0] as string
    const from = stringOption(args, 'from')
    const run = stringOption(args, 'run') ?? 'convert'
    const lines = stringOption(args, 'lines') as LinePolicy | undefined
    const seam = seamOf(args)
    try {
      const path = input === '-' ? undefined : resolve(io.cwd, input)
      // The library reads a missing folder as an empty trajectory (Reef's rule); a name typed on the command line that names nothing is a mistake.
      if (path !== undefined && !existsSync(path)) throw new TranscriptError('VH_TRANSCRIPT_MISSING', input, null, 'no such file or directory')
      if (path === undefined || isStream(path)) {
        // A pipe or `<(…)` reads once, from where it stands, as stdin does: its head is read ahead to detect the format, then replayed.
        const source = input === '-' ? 'stdin' : input
        let stream: AsyncIterable<Uint8Array | string> = path === undefined ? io.stdin : createReadStream(path, { highWaterMark: 1 << 16 })
        let format: string
        if (from !== undefined) {
          format = from
          stream = await refusingCompressedStream(stream, source)
        } else {
          const peeked = await peekTranscriptStream(stream, source)
          format = detectedFormat(peeked.detection, source).name
          stream = peeked.replay()
        }
        await write(io, convertLineStream(stream, format, { run, seam, requireRead: true, ...(lines ? { lines } : {}), ...(path === undefined ? {} : { source: input }) }))
      } else {
        await write(io, convertTranscript(resolve(io.cwd, input), { run, seam, requireRead: true, ...(from ? { from } : {}), ...(lines ? { lines } : {}) }))
      }
    } catch (error) {
      if (!(error instanceof TranscriptError)) throw error
      // A transcript the format's rules refuse: a refusal, never a verdict (exit 2), with where and why.
      io.stderr.write(escapeForTerminal(`error: ${error.message}\n`))
      return EXIT.REFUSAL
    }
    return EXIT.OK
  },
}
