import { escapeForTerminal } from '../util/terminal-text.js'
import { join, resolve } from 'node:path'
import { existsSync } from 'node:fs'
import { checkCapabilities, renderCapabilities, renderRendering } from '../contract/capabilities.js'
import { loadVectors } from '../contract/manifest.js'
import { builtInVectorsDir } from '../util/package-info.js'
import { flagOption, stringOption } from './args.js'
import { adapterArgument } from './adapter-argument.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'

/** `vitest-harness capabilities <adapter> [--render] [--check]`: what the adapter declares it can do. */
export const capabilitiesCommand: Command = {
  name: 'capabilities',
  summary: 'Prints what an adapter declares it can do (tiers, commands, decision modes, tool rendering).',
  usage: '<adapter> [--render] [--check [--vectors DIR]]',
  options: [
    { name: 'render', type: 'boolean', description: 'print the operation → vendor tool table instead of the whole declaration' },
    { name: 'check', type: 'boolean', description: 'also check the declaration against itself and its vectors; problems on stderr, exit 1' },
    { name: 'vectors', type: 'string', valueName: 'DIR', description: "with --check: the vectors folder (default: the package's vectors/<adapter>)" },
  ],
  async run(args, io) {
    const adapter = adapterArgument(args, 'capabilities')
    const capabilities = adapter.capabilities()
    io.stdout.write(flagOption(args, 'render') ? renderRendering(capabilities) : renderCapabilities(capabilities))
    if (!flagOption(args, 'check')) return EXIT.OK
    const named = stringOption(args, 'vectors')
    const dir = named === undefined ? join(builtInVectorsDir(), adapter.id) : resolve(io.cwd, named)
    const problems = checkCapabilities(adapter, existsSync(dir) ? loadVectors(dir) : [])
    for (const problem of problems) io.stderr.write(escapeForTerminal(`vitest-harness: ${problem.code} at ${problem.path}: ${problem.message}\n`))
    return problems.length === 0 ? EXIT.OK : EXIT.GAP
  },
}
