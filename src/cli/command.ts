import type { OptionSpec, ParsedArgs } from './args.js'
import type { ExitCode } from '../util/exit-codes.js'
import type { CliIO } from './io.js'

/** One verb of the CLI: its table of options and what it does. Logic lives outside `cli/`. */
export interface Command {
  readonly name: string
  /** One line for the command list. */
  readonly summary: string
  /** The synopsis after the command name, e.g. `--adapter ID [FILE|-]`. */
  readonly usage: string
  readonly options: readonly OptionSpec[]
  /** Subcommands (`evidence validate`, `stepmap validate`), dispatched on the first positional. */
  readonly subcommands?: readonly Command[]
  run(args: ParsedArgs, io: CliIO): Promise<ExitCode>
}
