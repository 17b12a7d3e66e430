import { escapeForTerminal } from '../util/terminal-text.js'
import { resolve } from 'node:path'
import { contractResultOf } from '../contract/contract-result.js'
import { contractResultLine } from '../evidence/contract-result.js'
import { isWarning, renderOutcome } from '../contract/outcome.js'
import { runContract } from '../contract/run-contract.js'
import { flagOption, listOption, stringOption } from './args.js'
import { adapterArgument } from './adapter-argument.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'

/**
 * `vitest-harness contract <adapter>`: the adapter's free conformance vectors, one line each and a
 * summary, or with `--contract` only the `contract_result` line (warnings on stderr). Exit 1 when
 * a vector failed or the checklist is unmet, 2 when nothing could be checked.
 */
export const contractCommand: Command = {
  name: 'contract',
  summary: "Runs an adapter's conformance vectors (C1, C2, C3) and its checklist: no model, no network, no credential.",
  usage: '<adapter> [--contract] [--vectors DIR] [--only ID]… [--with-project-vectors]',
  options: [
    { name: 'contract', type: 'boolean', description: 'print only the contract_result line; warnings go to stderr' },
    { name: 'vectors', type: 'string', valueName: 'DIR', description: "the vectors folder (default: the package's vectors/<adapter>)" },
    { name: 'only', type: 'string', repeatable: true, valueName: 'ID', description: 'run only this vector (repeatable, in order)' },
    {
      name: 'with-project-vectors',
      type: 'boolean',
      description: "also run this project's own vectors beyond the set upstream's contract runs (b10x: upstream's seven)",
    },
  ],
  async run(args, io) {
    const adapter = adapterArgument(args, 'contract')
    const vectors = stringOption(args, 'vectors')
    const only = listOption(args, 'only')
    const run = await runContract(adapter, {
      ...(vectors === undefined ? {} : { vectors: resolve(io.cwd, vectors) }),
      ...(only.length > 0 ? { only } : {}),
      withProjectVectors: flagOption(args, 'with-project-vectors'),
    })
    const failed = run.outcomes.filter((outcome) => !outcome.passed).length
    if (flagOption(args, 'contract')) {
      // The record and nothing else on stdout; a warning swallowed here would be a silent pass, so it goes to stderr.
      for (const outcome of run.outcomes.filter(isWarning)) io.stderr.write(`vitest-harness: ${renderOutcome(outcome)}\n`)
      io.stdout.write(contractResultLine(contractResultOf(run.provider, run.outcomes)))
    } else {
      for (const outcome of run.outcomes) io.stdout.write(`${renderOutcome(outcome)}\n`)
      io.stdout.write(`${run.outcomes.length} vectors, ${failed} failed — no model, no network, no credential\n`)
    }
    for (const problem of run.unmet) io.stderr.write(escapeForTerminal(`vitest-harness: checklist unmet — ${problem}\n`))
    return failed === 0 && run.unmet.length === 0 ? EXIT.OK : EXIT.GAP
  },
}
