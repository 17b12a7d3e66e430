import type { OptionSpec } from './args.js'
import type { Command } from './command.js'

/** An option as a command line writes it: `--format text|json`, `--advisory ID…`, `--redact`. */
export function optionSynopsis(spec: OptionSpec): string {
  const value = spec.type === 'string' ? ` ${spec.choices ? spec.choices.join('|') : (spec.valueName ?? 'VALUE')}` : ''
  return `--${spec.name}${value}${spec.repeatable ? '…' : ''}`
}

function optionLine(spec: OptionSpec): string {
  return `  ${optionSynopsis(spec)}`.padEnd(40) + spec.description
}

/** `vitest-harness <command> --help`, generated from the command's option table. */
export function commandHelp(command: Command, prefix = 'vitest-harness'): string {
  const lines = [`usage: ${prefix} ${command.name} ${command.usage}`.trimEnd(), '', command.summary]
  if (command.options.length > 0) {
    lines.push('', 'options:')
    for (const spec of command.options) lines.push(optionLine(spec))
  }
  if (command.subcommands && command.subcommands.length > 0) {
    lines.push('', 'subcommands:')
    for (const sub of command.subcommands) lines.push(`  ${sub.name.padEnd(38)}${sub.summary}`)
  }
  return `${lines.join('\n')}\n`
}

/** `vitest-harness --help`: every command, one line each, and the exit codes. */
export function programHelp(commands: readonly Command[], version: string): string {
  const lines = [
    `vitest-harness ${version} — harness contracts, replay, trace checks and evidence, with no model, no network and no credential`,
    '',
    'usage: vitest-harness <command> [options]',
    '',
    'commands:',
    ...commands.map((command) => `  ${command.name.padEnd(14)}${command.summary}`),
    '',
    'exit codes: 0 ok · 1 gap or failed vector · 2 refusal or usage error (never a verdict) · 3 unknown',
    "run 'vitest-harness <command> --help' for a command's options",
  ]
  return `${lines.join('\n')}\n`
}
