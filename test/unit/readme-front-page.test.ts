import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { docPages } from '../helpers/doc-samples.js'
import { REPO } from '../helpers/run-suite.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// The README is the front page (issue 13): short, the two commands .ci/run relies on verbatim, and
// no dead link — every relative link of the README and the docs names a file in the repository and,
// with a #fragment, a heading of that page (GitHub's and VitePress's slug: lower case, punctuation
// dropped, spaces to dashes).
const readme = readFileSync(join(REPO, 'README.md'), 'utf8')

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-')
}

function anchors(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1] as string)))
}

describe('the README as the front page', () => {
  it('is at most 250 lines and keeps the quick start .ci/run relies on', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toContain('npm ci && npm test')
    expect(readme).toContain('npm install -D vitest-harness vitest')
  })

  it('and the docs link only to files and headings that exist', () => {
    const dead: string[] = []
    for (const page of docPages(REPO)) {
      const text = readFileSync(join(REPO, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] as string
        if (/^[a-z]+:/.test(target)) continue
        const [path, fragment] = target.split('#') as [string, string | undefined]
        const file = path === '' ? join(REPO, page) : join(REPO, dirname(page), path)
        if (!existsSync(file)) dead.push(`${page}: ${target} (no such file)`)
        else if (fragment && file.endsWith('.md') && !anchors(file).has(fragment)) dead.push(`${page}: ${target} (no such heading)`)
      }
    }
    expect(dead).toEqual([])
  })

  it("has a spec that judges Codex's two recorded runs as its words say", async () => {
    const spec = readSpec(/```yaml file=reads-first\.trace\.yaml\n([^`]*)```/.exec(readme)?.[1] ?? '')
    const codex = join(REPO, 'test', 'e2e', 'fixtures', 'codex')
    const verdicts = async (file: string) => Object.fromEntries((await checkTranscriptFile(spec, join(codex, file))).expectations.map((row) => [row.id, row.outcome.outcome === 'undecidable' ? row.outcome.reason : row.outcome.outcome]))
    // exec --json output proves its end; a rollout never does, so only the absence is unknown over it.
    expect(await verdicts('exec.jsonl')).toEqual({ 'read-the-readme': 'ok', 'never-wrote': 'ok', 'answered-from-the-file': 'ok' })
    expect(await verdicts('rollout.jsonl')).toEqual({ 'read-the-readme': 'ok', 'never-wrote': 'stream_not_closed', 'answered-from-the-file': 'ok' })
  })
})
