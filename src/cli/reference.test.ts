import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../util/package-info.js'
import type { Command } from './command.js'
import { COMMANDS } from './commands.js'
import { optionSynopsis } from './help.js'
import { CLI_REFERENCE_END, CLI_REFERENCE_START, cliReference, committedCliReference, withCliReference } from './reference.js'

const everyCommand = (commands: readonly Command[], prefix = 'vitest-harness'): [string, Command][] =>
  commands.flatMap((command) => [[`${prefix} ${command.name}`, command] as [string, Command], ...everyCommand(command.subcommands ?? [], `${prefix} ${command.name}`)])

describe('the CLI reference', () => {
  it('in docs/reference/cli.md is the text generated from COMMANDS (run `npm run generate:cli-docs` when this fails)', () => {
    const readme = readFileSync(join(packageRoot(), 'docs', 'reference', 'cli.md'), 'utf8')
    const committed = committedCliReference(readme)
    expect(committed, `docs/reference/cli.md has no ${CLI_REFERENCE_START} … ${CLI_REFERENCE_END} section`).toBeDefined()
    expect(committed).toBe(cliReference(COMMANDS))
  })

  it('has a section, a synopsis and every option for each command and subcommand', () => {
    const reference = cliReference(COMMANDS)
    const names = everyCommand(COMMANDS)
    expect(names.map(([name]) => name)).toContain('vitest-harness evidence validate')
    for (const [name, command] of names) {
      expect(reference).toContain(`### \`${name}\`\n`)
      expect(reference).toContain(`\n${name} ${command.usage}`.trimEnd())
      for (const spec of command.options) expect(reference, `${name} ${spec.name}`).toContain(`| \`${optionSynopsis(spec).replaceAll('|', '\\|')}\` |`)
    }
  })

  it('is written between the markers, and refuses a document without them', () => {
    const document = `# title\n\n${CLI_REFERENCE_START}\n\nold text\n${CLI_REFERENCE_END}\n\nafter\n`
    const written = withCliReference(document, 'new text\n')
    expect(written).toBe(`# title\n\n${CLI_REFERENCE_START}\n\nnew text\n\n${CLI_REFERENCE_END}\n\nafter\n`)
    expect(committedCliReference(written)).toBe('new text\n')
    expect(() => withCliReference('# no markers\n', 'x\n')).toThrow(/markers/)
  })
})
