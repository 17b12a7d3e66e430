// `npm run generate:kind-docs`: writes the docs site's trace-spec kind pages
// (docs/reference/trace-spec-kinds/) from the schema and the kind table. A unit test fails when the
// committed pages are out of date.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { traceSpecKindPages } from './trace-spec-kind-docs.js'

const dir = fileURLToPath(new URL('../docs/reference/trace-spec-kinds/', import.meta.url))
mkdirSync(dir, { recursive: true })
const pages = traceSpecKindPages()
let written = 0
// A page for a kind that no longer exists would outlive it.
for (const name of readdirSync(dir)) if (name.endsWith('.md') && !pages.has(name)) rmSync(join(dir, name))
for (const [name, text] of pages) {
  const path = join(dir, name)
  let before: string | undefined
  try {
    before = readFileSync(path, 'utf8')
  } catch {
    before = undefined
  }
  if (before !== text) {
    writeFileSync(path, text)
    written += 1
  }
}
console.log(`docs/reference/trace-spec-kinds: ${pages.size} page(s), ${written} written`)
