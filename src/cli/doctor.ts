import { diagnoseHarness, isHealthy, launchableHarnessIds, renderDoctorReport } from '../contract/doctor.js'
import { resolve } from 'node:path'
import { stringOption, UsageError } from './args.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'

/**
 * `vitest-harness doctor <adapter>`: the binary a spawn would execute (`--program`, the harness
 * cache, the child's constructed PATH), its version against the launch's pin, its flags, the wires
 * and what each launch would set. Exit 0 on a pin with every flag
 * declared, 1 otherwise, 2 when the binary is not there or will not answer.
 */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: "Checks the binary a launch would run (--program, the harness cache, the child's PATH) against its pin and flags, and shows the launch.",
  usage: '<harness> [--program PATH]',
  options: [{ name: 'program', type: 'string', valueName: 'PATH', description: 'ask this binary (a path, or a name on the child\'s PATH) instead of the harness cache and the child\'s PATH' }],
  async run(args, io) {
    const [id, ...rest] = args.positionals
    const launchable = launchableHarnessIds()
    if (id === undefined) throw new UsageError(`doctor needs a harness (one of ${launchable.join(', ')})`)
    if (rest.length > 0) throw new UsageError(`doctor takes one harness; got ${args.positionals.length}`)
    if (!launchable.includes(id)) throw new UsageError(`nothing is launchable as ${JSON.stringify(id)}; one of ${launchable.join(', ')}`)
    const program = stringOption(args, 'program')
    const report = diagnoseHarness(id, io.env['HOME'], undefined, {
      env: { ...io.env },
      ...(program === undefined ? {} : { program: program.includes('/') ? resolve(io.cwd, program) : program }),
    })
    for (const line of renderDoctorReport(report)) io.stdout.write(`${line}\n`)
    return isHealthy(report) ? EXIT.OK : EXIT.GAP
  },
}
