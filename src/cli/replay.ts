import { escapeForTerminal } from '../util/terminal-text.js'
import { createReadStream } from 'node:fs'
import { checkInputFile } from '../util/read-input.js'
import { resolve } from 'node:path'
import { findAdapter, adapterIds } from '../../adapters/registry.js'
import { replayStream } from '../../adapters/replay.js'
import { NO_ATTESTATION } from '../../adapters/shared/hermetic.js'
import type { SeamOptions } from '../../adapters/types.js'
import { loadVectorManifest, vectorFile } from '../contract/manifest.js'
import { replayVector } from '../contract/run-vector.js'
import { writeFileAtomic } from '../util/atomic-write.js'
import { isCi } from '../util/ci.js'
import { UsageError, flagOption, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'
import { writeWithBackpressure, type CliIO } from './io.js'

function seamFromFlags(args: ParsedArgs): SeamOptions {
  return {
    run: stringOption(args, 'run') ?? 'replay',
    harnessVersion: stringOption(args, 'harness-version') ?? null,
    model: stringOption(args, 'model') ?? null,
    cwd: stringOption(args, 'cwd') ?? null,
    transcriptPath: stringOption(args, 'transcript-path') ?? null,
    hermetic: {
      ...NO_ATTESTATION,
      mode: stringOption(args, 'hermetic-mode') ?? NO_ATTESTATION.mode,
      decisions: stringOption(args, 'decisions') ?? NO_ATTESTATION.decisions,
    },
  }
}

async function replayVectorCommand(args: ParsedArgs, io: CliIO, dir: string): Promise<typeof EXIT.OK | typeof EXIT.REFUSAL> {
  const vector = loadVectorManifest(resolve(io.cwd, dir))
  if (vector.kind !== 'replay') throw new UsageError(`the vector ${vector.id} is a ${vector.kind} vector; only replay vectors replay`)
  const adapter = findAdapter(vector.adapter)
  if (!adapter) throw new UsageError(`the vector names the adapter ${JSON.stringify(vector.adapter)}, which is not registered`)
  const stream = replayVector(vector, adapter)
  if (flagOption(args, 'write')) {
    // Regenerating a golden is a deliberate act on a workstation, never a way to make CI green.
    if (isCi(io.env)) throw new UsageError('--write is refused when CI is set: expected files are regenerated deliberately, not in CI')
    const target = vectorFile(vector, vector.expected.events)
    writeFileAtomic(target, stream)
    io.stderr.write(escapeForTerminal(`wrote ${target}\n`))
    return EXIT.OK
  }
  await writeWithBackpressure(io.stdout, stream)
  return EXIT.OK
}

export const replayCommand: Command = {
  name: 'replay',
  summary: "Replays a harness's own record into the metaharness.event/1 stream on stdout.",
  usage: '--adapter ID [--run ID] [seam options] [FILE|-]  |  --vector DIR [--write]',
  options: [
    { name: 'adapter', type: 'string', valueName: 'ID', description: 'the adapter that reads the record (b10x, …)' },
    { name: 'run', type: 'string', valueName: 'ID', description: 'the run id written on every line (default: replay)' },
    { name: 'harness-version', type: 'string', valueName: 'V', description: 'the version the binary reported' },
    { name: 'model', type: 'string', valueName: 'M', description: 'the model the launch asked for' },
    { name: 'cwd', type: 'string', valueName: 'P', description: 'the workspace the run was pointed at' },
    { name: 'transcript-path', type: 'string', valueName: 'P', description: 'where the raw record is retained' },
    { name: 'hermetic-mode', type: 'string', choices: ['strict', 'on', 'off'], description: 'the attested hermetic mode (default: off)' },
    { name: 'decisions', type: 'string', choices: ['observe', 'ask', 'frame'], description: 'the attested decision mode (default: observe)' },
    { name: 'vector', type: 'string', valueName: 'DIR', description: "replay a vector's record with its pinned seam" },
    { name: 'write', type: 'boolean', description: "with --vector: rewrite the vector's expected file (refused in CI)" },
  ],
  async run(args, io) {
    const vectorDir = stringOption(args, 'vector')
    if (vectorDir !== undefined) {
      if (args.positionals.length > 0) throw new UsageError('--vector reads its own record; do not name a FILE')
      return replayVectorCommand(args, io, vectorDir)
    }
    if (flagOption(args, 'write')) throw new UsageError('--write needs --vector DIR')
    const id = stringOption(args, 'adapter')
    if (id === undefined) throw new UsageError(`--adapter is required (one of ${adapterIds().join(', ')})`)
    const adapter = findAdapter(id)
    if (!adapter) throw new UsageError(`--adapter must be one of ${adapterIds().join(', ')}; got ${JSON.stringify(id)}`)
    if (args.positionals.length > 1) throw new UsageError(`replay reads one record; got ${args.positionals.length}`)
    const input = args.positionals[0] ?? '-'
    let source: AsyncIterable<Uint8Array | string>
    let name = 'stdin'
    if (input === '-') source = io.stdin
    else {
      const path = resolve(io.cwd, input)
      checkInputFile(path, { what: 'record', shownAs: input })
      source = createReadStream(path)
      name = input
    }
    const seam = seamFromFlags(args)
    for await (const chunk of replayStream(adapter.createProjector(seam), source, seam.run, { source: name, requireRead: true, readerName: `${adapter.id}'s record` })) {
      await writeWithBackpressure(io.stdout, chunk)
    }
    return EXIT.OK
  },
}
