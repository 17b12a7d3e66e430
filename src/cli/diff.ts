import { resolve } from 'node:path'
import { diffRuns } from '../report/diff.js'
import { writeDiffHtml } from '../report/diff-html.js'
import { diffToText } from '../report/diff-text.js'
import { readRunShape, type RunShape } from '../report/run-shape.js'
import type { TraceSpec } from '../trace/spec/model.js'
import { EXIT } from '../util/exit-codes.js'
import { UsageError, stringOption } from './args.js'
import type { Command } from './command.js'
import type { CliIO } from './io.js'
import { writeWithBackpressure } from './io.js'
import { FROM_OPTION, loadSpec, openTranscriptInput, refusalExit, checkFromOption } from './trace-input.js'

async function readSide(io: CliIO, path: string, from: string | undefined, spec: TraceSpec | undefined): Promise<RunShape> {
  const transcript = await openTranscriptInput(io, path, from)
  return readRunShape(transcript.bytes, { source: path, requireRead: true, ...transcript.read, ...(spec === undefined ? {} : { spec }) })
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'Compares two runs tool call by tool call (added, removed, changed arguments by JSON path, changed results), then text, usage and verdicts; exit 0 same, 1 different.',
  usage: 'A B [--from FORMAT] [--spec FILE] [--html FILE]',
  options: [
    { ...FROM_OPTION, description: 'the format of both transcripts (default: detected for each from its first lines)' },
    { name: 'spec', type: 'string', valueName: 'FILE', description: 'a trace-spec/1 specification: check both runs and list the verdicts that changed' },
    { name: 'html', type: 'string', valueName: 'FILE', description: 'also write the diff as a self-contained HTML page' },
  ],
  async run(args, io) {
    const [pathA, pathB, extra] = args.positionals
    if (pathA === undefined || pathB === undefined) throw new UsageError('diff takes two transcripts: diff A B')
    if (extra !== undefined) throw new UsageError(`diff takes two transcripts; got a third: ${JSON.stringify(extra)}`)
    if (pathA === '-' && pathB === '-') throw new UsageError('only one of A and B can be stdin')
    const from = stringOption(args, 'from')
    const specPath = stringOption(args, 'spec')
    let a: RunShape
    let b: RunShape
    try {
      checkFromOption(stringOption(args, 'from'))
      const spec = specPath === undefined ? undefined : loadSpec(io, specPath)
      a = await readSide(io, pathA, from, spec)
      b = await readSide(io, pathB, from, spec)
    } catch (error) {
      return refusalExit(io, error)
    }
    const diff = diffRuns(a, b)
    await writeWithBackpressure(io.stdout, diffToText(diff))
    const html = stringOption(args, 'html')
    if (html !== undefined) writeDiffHtml(resolve(io.cwd, html), diff)
    return diff.differences === 0 ? EXIT.OK : EXIT.GAP
  },
}
