import { describe, expect, it } from 'vitest'
import type { Command } from '../../src/cli/command.js'
import { COMMANDS } from '../../src/cli/commands.js'
import { EXIT } from '../../src/util/exit-codes.js'
import { runCli } from '../helpers/cli.js'

/** Every usage error — an unknown flag, a missing value, a value outside a closed set, a bad value — exits 2 with `VH_USAGE` (issue 17). */

const USAGE = /^error: VH_USAGE: \S.*\n$/

/** Every command line that names a (sub)command: `['check']`, `['stepmap', 'validate']`… */
function commandPaths(commands: readonly Command[], prefix: string[] = []): Array<{ path: string[]; command: Command }> {
  return commands.flatMap((command) => [{ path: [...prefix, command.name], command }, ...commandPaths(command.subcommands ?? [], [...prefix, command.name])])
}

const ALL = commandPaths(COMMANDS)

async function expectUsage(argv: string[]): Promise<void> {
  const run = await runCli(argv)
  expect({ argv, code: run.code, stderr: run.stderr }).toMatchObject({ code: EXIT.REFUSAL, stderr: expect.stringMatching(USAGE) })
}

describe('usage errors', () => {
  it('an unknown command', () => expectUsage(['chekc']))

  it.each(ALL.map(({ path }) => [path.join(' '), path]))('%s: an unknown flag', (_name, path) => expectUsage([...path, '--no-such-flag']))

  const valued = ALL.flatMap(({ path, command }) => command.options.filter((option) => option.type === 'string').map((option) => [`${path.join(' ')} --${option.name}`, path, option.name] as const))
  it.each(valued)('%s: no value', (_name, path, option) => expectUsage([...path, `--${option}`]))

  const closed = ALL.flatMap(({ path, command }) => command.options.filter((option) => option.choices).map((option) => [`${path.join(' ')} --${option.name}`, path, option.name] as const))
  it.each(closed)('%s: a value outside its set', (_name, path, option) => expectUsage([...path, `--${option}`, 'no-such-choice']))

  const flags = ALL.flatMap(({ path, command }) => command.options.filter((option) => option.type === 'boolean').map((option) => [`${path.join(' ')} --${option.name}`, path, option.name] as const))
  it.each(flags)('%s: a value given to a flag', (_name, path, option) => expectUsage([...path, `--${option}=yes`]))

  it.each([
    ['serve --port', ['serve', '--scenario', 'x.yaml', '--port', 'eighty']],
    ['evidence validate --now', ['evidence', 'validate', '--now', 'yesterday-ish', 'x.yaml']],
    ['replay --adapter', ['replay', '--adapter', 'no-such-adapter']],
    ['check --from', ['check', '--spec', 'x.yaml', '--transcript', 'y.jsonl', '--from', 'no-such-format']],
    ['convert: two inputs', ['convert', 'a.jsonl', 'b.jsonl']],
    ['diff: one run', ['diff', 'a.jsonl']],
  ])('%s: a bad value', (_name, argv) => expectUsage(argv))
})
