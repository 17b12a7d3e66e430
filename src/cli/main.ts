import { closestName } from '../util/closest-name.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import { packageVersion } from '../util/package-info.js'
import { parseArgs } from './args.js'
import type { Command } from './command.js'
import { COMMANDS } from './commands.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import { commandHelp, programHelp } from './help.js'
import { guardStdout, type CliIO } from './io.js'

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return typeof code === 'string' && !error.message.startsWith(code) ? `${code}: ${error.message}` : error.message
  }
  return String(error)
}

async function runCommand(command: Command, argv: readonly string[], io: CliIO, prefix: string): Promise<ExitCode> {
  const sub = command.subcommands?.find((candidate) => candidate.name === argv[0])
  if (sub) return runCommand(sub, argv.slice(1), io, `${prefix} ${command.name}`)
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(commandHelp(command, prefix))
    return EXIT.OK
  }
  const args = parseArgs(argv, command.options)
  return command.run(args, io)
}

/**
 * The whole CLI as a function: tests call it in-process with their own streams. Returns the exit
 * code; refusals and usage errors print `error: …` on stderr and return 2.
 */
export async function cli(argv: readonly string[], io: CliIO): Promise<ExitCode> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(programHelp(COMMANDS, packageVersion()))
    return name === undefined ? EXIT.REFUSAL : EXIT.OK
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`vitest-harness ${packageVersion()}\n`)
    return EXIT.OK
  }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (!command) {
    const near = closestName(name, COMMANDS.map((candidate) => candidate.name))
    const hint = near === undefined ? '' : ` (did you mean ${near}?)`
    io.stderr.write(escapeForTerminal(`error: VH_USAGE: unknown command ${JSON.stringify(name)}${hint}; run 'vitest-harness --help' for the list\n`))
    return EXIT.REFUSAL
  }
  try {
    return await runCommand(command, rest, io, 'vitest-harness')
  } catch (error) {
    io.stderr.write(escapeForTerminal(`error: ${describeError(error)}\n`))
    return EXIT.REFUSAL
  }
}

/** The `bin` entry: real streams, real exit code — the verdict's, even when stdout's reader left early. */
export async function main(): Promise<void> {
  const stdout = guardStdout(process.stdout)
  const code = await cli(process.argv.slice(2), {
    stdout: stdout.stream,
    stderr: process.stderr,
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
  })
  process.exitCode = code
}
