import { resolve } from 'node:path'
import { WIRES, type Wire } from '../../adapters/launch/declaration.js'
import { recordVector } from '../contract/record-vector.js'
import { EXIT } from '../util/exit-codes.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import { adapterArgument } from './adapter-argument.js'
import { stringOption, UsageError } from './args.js'
import type { Command } from './command.js'

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new UsageError(`vector new needs --${name}`)
  return value
}

/**
 * `vitest-harness vector new <adapter> --out DIR --scenario FILE --prompt TEXT`: runs the real
 * binary against an in-process loopback provider answering from the scenario, and writes a C1
 * launch vector, C2 replays of its stdout record and trajectory, and the version pair — each
 * checked against the adapter before the command says so. Exit 1 when the version pair is off the
 * pin (written, with a warning), 2 when nothing could be recorded.
 */
export const vectorNewCommand: Command = {
  name: 'new',
  summary: 'Records contract vectors (C1 launch, C2 replays, version pair) from a real run against the loopback provider',
  usage: '<adapter> --out DIR --scenario FILE --prompt TEXT [--id ID] [--workspace DIR] [--scratch DIR] [--program PATH] [--wire WIRE] [--model NAME]',
  options: [
    { name: 'out', type: 'string', valueName: 'DIR', description: 'the vectors folder to write into (one sub-folder per vector; never overwritten)' },
    { name: 'scenario', type: 'string', valueName: 'FILE', description: 'the scripted answers the loopback provider gives; `{workspace}` in it is the run\'s workspace' },
    { name: 'prompt', type: 'string', valueName: 'TEXT', description: 'the prompt the harness is launched with' },
    { name: 'id', type: 'string', valueName: 'ID', description: 'the vectors\' id prefix (default: recorded)' },
    { name: 'workspace', type: 'string', valueName: 'DIR', description: 'a folder copied in as the run\'s workspace (default: empty)' },
    { name: 'scratch', type: 'string', valueName: 'DIR', description: 'the scratch root the run is built under; emptied first (default: a new temporary folder)' },
    { name: 'program', type: 'string', valueName: 'PATH', description: 'the binary to run (default: the harness cache, then the child\'s PATH)' },
    { name: 'wire', type: 'string', valueName: 'WIRE', description: `the provider wire (${WIRES.join(', ')}; default: the launch's first)` },
    { name: 'model', type: 'string', valueName: 'NAME', description: 'the model name the provider answers for' },
  ],
  async run(args, io) {
    const adapter = adapterArgument(args, 'vector new')
    const wire = stringOption(args, 'wire')
    if (wire !== undefined && !(WIRES as readonly string[]).includes(wire)) throw new UsageError(`--wire must be one of ${WIRES.join(', ')}; got ${JSON.stringify(wire)}`)
    const optional = (name: string): string | undefined => {
      const value = stringOption(args, name)
      return value === undefined ? undefined : resolve(io.cwd, value)
    }
    const workspace = optional('workspace')
    const scratch = optional('scratch')
    const program = stringOption(args, 'program')
    const id = stringOption(args, 'id')
    const model = stringOption(args, 'model')
    const recording = await recordVector(adapter, {
      out: resolve(io.cwd, required(stringOption(args, 'out'), 'out')),
      scenario: resolve(io.cwd, required(stringOption(args, 'scenario'), 'scenario')),
      prompt: required(stringOption(args, 'prompt'), 'prompt'),
      env: { ...io.env },
      ...(workspace ? { workspace } : {}),
      ...(scratch ? { scratch } : {}),
      ...(program === undefined ? {} : { program: program.includes('/') ? resolve(io.cwd, program) : program }),
      ...(wire === undefined ? {} : { wire: wire as Wire }),
      ...(id === undefined ? {} : { id }),
      ...(model === undefined ? {} : { model }),
    })
    io.stdout.write(escapeForTerminal(`recorded from ${recording.program} ${recording.version}\n`))
    for (const vector of recording.vectors) {
      const state = !vector.passed ? 'FAIL' : vector.detail ? 'warn' : 'pass'
      io.stdout.write(escapeForTerminal(`${state} ${vector.kind} ${vector.id} → ${vector.dir}${vector.detail ? ` — ${vector.detail}` : ''}\n`))
    }
    return recording.vectors.every((vector) => vector.passed && !vector.detail) ? EXIT.OK : EXIT.GAP
  },
}

/** `vitest-harness vector …`: contract vectors. */
export const vectorCommand: Command = {
  name: 'vector',
  summary: "Contract vectors: 'vector new' records them from a real run against the loopback provider",
  usage: 'new <adapter> --out DIR --scenario FILE --prompt TEXT',
  options: [],
  subcommands: [vectorNewCommand],
  async run(_args, io) {
    io.stderr.write("error: name a subcommand: 'vitest-harness vector new <adapter> --out DIR --scenario FILE --prompt TEXT'\n")
    return EXIT.REFUSAL
  },
}
