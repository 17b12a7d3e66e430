import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { traceSpecKindPages } from '../../scripts/trace-spec-kind-docs.js'
import { KIND_NAMES } from '../../src/trace/spec/kinds.js'
import { REPO } from '../helpers/run-suite.js'

// The trace-spec kind pages are generated; regenerate and compare (run `npm run generate:kind-docs`
// when this fails). The CLI reference has its own check in src/cli/reference.test.ts.
const DIR = join(REPO, 'docs', 'reference', 'trace-spec-kinds')

describe('the generated trace-spec kind pages', () => {
  const pages = traceSpecKindPages()

  it('are one page per kind plus the index, and nothing else', () => {
    expect([...pages.keys()].sort()).toEqual(['index.md', ...KIND_NAMES.map((kind) => `${kind}.md`)].sort())
    expect(readdirSync(DIR).filter((name) => name.endsWith('.md')).sort()).toEqual([...pages.keys()].sort())
  })

  it('are committed as generated', () => {
    for (const [name, text] of pages) expect(readFileSync(join(DIR, name), 'utf8'), name).toBe(text)
  })

  it('give each kind its parameters, an example and all three verdicts', () => {
    for (const kind of KIND_NAMES) {
      const page = pages.get(`${kind}.md`) as string
      expect(page, kind).toContain(`# \`${kind}\`\n`)
      expect(page, kind).toMatch(/## Parameters\n\n(\||The parameters are|No parameters)/)
      expect(page, kind).toContain(`expect:\n      ${kind}:`)
      expect(page, kind).toMatch(/- \*\*ok\*\* — .+\n- \*\*gap\*\* — .+\n- \*\*unknown\*\* — .+/)
    }
  })
})
