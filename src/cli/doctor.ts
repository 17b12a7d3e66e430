import { diagnoseAdapter, isHealthy, renderDoctorReport } from '../contract/doctor.js'
import { adapterArgument } from './adapter-argument.js'
import type { Command } from './command.js'
import { EXIT } from '../util/exit-codes.js'

/**
 * `vitest-harness doctor <adapter>`: the binary a spawn would execute, found on the child's
 * constructed PATH, against the adapter's pins and flags. Exit 0 on a pin with every flag
 * declared, 1 otherwise, 2 when the binary is not there or will not answer.
 */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: "Checks the installed vendor binary (on the child's PATH) against the adapter's pins and flags.",
  usage: '<adapter>',
  options: [],
  async run(args, io) {
    const adapter = adapterArgument(args, 'doctor')
    const report = diagnoseAdapter(adapter, io.env['HOME'])
    for (const line of renderDoctorReport(report)) io.stdout.write(`${line}\n`)
    return isHealthy(report) ? EXIT.OK : EXIT.GAP
  },
}
