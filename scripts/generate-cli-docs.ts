// `npm run generate:cli-docs`: writes the docs site's CLI reference (docs/reference/cli.md) (between its markers) from the
// commands' declarative option tables, the same tables `--help` prints. A unit test fails when the
// committed text is out of date.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { COMMANDS } from '../src/cli/commands.js'
import { cliReference, withCliReference } from '../src/cli/reference.js'

const readme = fileURLToPath(new URL('../docs/reference/cli.md', import.meta.url))
const before = readFileSync(readme, 'utf8')
const after = withCliReference(before, cliReference(COMMANDS))
if (after === before) console.log('docs/reference/cli.md: the CLI reference is up to date')
else {
  writeFileSync(readme, after)
  console.log('docs/reference/cli.md: wrote the CLI reference')
}
