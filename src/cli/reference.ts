import type { Command } from './command.js'
import { optionSynopsis } from './help.js'

/** Where the generated reference starts in docs/reference/cli.md. */
export const CLI_REFERENCE_START = '<!-- cli-reference:start — generated from src/cli/commands.ts by `npm run generate:cli-docs`; edit the commands, not this text -->'
/** Where it ends. */
export const CLI_REFERENCE_END = '<!-- cli-reference:end -->'

function cell(text: string): string {
  return text.replaceAll('|', '\\|')
}

/** Prose outside a code span: `<adapter>` would open an HTML element on the docs site (VitePress compiles pages as Vue). */
function prose(text: string): string {
  return text.replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function commandSection(command: Command, prefix: string): string[] {
  const name = `${prefix} ${command.name}`
  const lines = [`### \`${name}\``, '', prose(command.summary.endsWith('.') ? command.summary : `${command.summary}.`), '', '```text', `${name} ${command.usage}`.trimEnd(), '```']
  if (command.options.length > 0) {
    lines.push('', '| option | what |', '|---|---|')
    for (const spec of command.options) lines.push(`| \`${cell(optionSynopsis(spec))}\` | ${prose(cell(spec.description))} |`)
  }
  for (const sub of command.subcommands ?? []) lines.push('', ...commandSection(sub, name))
  return lines
}

/**
 * The CLI reference as Markdown, from the same declarative tables `--help` is generated from: one
 * section per command and subcommand, its synopsis and a table of its options.
 */
export function cliReference(commands: readonly Command[]): string {
  return `${commands.flatMap((command, index) => [...(index === 0 ? [] : ['']), ...commandSection(command, 'vitest-harness')]).join('\n')}\n`
}

/** The reference between the markers of `document`, or undefined when the markers are not both there. */
export function committedCliReference(document: string): string | undefined {
  const start = document.indexOf(CLI_REFERENCE_START)
  const end = document.indexOf(CLI_REFERENCE_END)
  if (start === -1 || end < start) return undefined
  return document.slice(start + CLI_REFERENCE_START.length, end).replace(/^\n\n/, '').replace(/\n$/, '')
}

/** `document` with the text between its markers replaced by `reference`; throws when the markers are missing. */
export function withCliReference(document: string, reference: string): string {
  const start = document.indexOf(CLI_REFERENCE_START)
  const end = document.indexOf(CLI_REFERENCE_END)
  if (start === -1 || end < start) throw new Error(`the document has no ${CLI_REFERENCE_START} … ${CLI_REFERENCE_END} markers to write the CLI reference between`)
  return `${document.slice(0, start + CLI_REFERENCE_START.length)}\n\n${reference}\n${document.slice(end)}`
}
