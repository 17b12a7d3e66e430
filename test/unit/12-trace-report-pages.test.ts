import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TestAnnotation } from 'vitest'
import { createVitest, type Reporter, type TestModule } from 'vitest/node'
import EvidenceReporter from '../../src/vitest/reporters/evidence.js'
import { TRACE_PAGE_ANNOTATION } from '../../src/vitest/trace-page.js'
import { REPO, repoImport } from '../helpers/run-suite.js'

// Issue 12 item 4: a real Vitest run (the node API, in process) of a fixture project whose suites
// check transcripts with describeTraceSpec, under the evidence reporter's `html` option and
// Vitest's own JUnit reporter. What must come out: one page per checked transcript in the pages
// folder, each test annotated with its page as an attachment Vitest resolved (copied into its
// attachments folder), and an index that lists every test that checked a trace and links pages that exist.

const FIXTURES = join(REPO, 'test', 'e2e', 'fixtures')
const GAP_SPEC = `format: trace-spec/1
id: pages/gap
expectations:
  - id: the-readme-was-read
    expect: {tool.called: {operations: [shell], subject: {glob: "file:*README.md"}}}
  - id: never-ran-a-shell
    statement: no shell command ran
    expect: {tool.absent: {operations: [shell]}}
`

const SUITES = `
import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
const here = (path) => new URL(path, import.meta.url)
describeTraceSpec(here('specs/read-before-answer.trace.yaml'), here('runs/exec.jsonl'))
describeTraceSpec(here('specs/gap.trace.yaml'), { path: here('runs/exec.jsonl'), from: 'codex/exec-json' }, { name: 'gap <script>alert(1)</script>' })
`

interface Seen {
  name: string
  suite: string
  state: string
  annotations: TestAnnotation[]
}

class Collect implements Reporter {
  readonly tests: Seen[] = []
  readonly moduleErrors: string[] = []
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const module of modules) {
      this.moduleErrors.push(...module.errors().map((error) => error.message))
      for (const test of module.children.allTests()) {
        this.tests.push({ name: test.name, suite: test.parent.type === 'suite' ? test.parent.name : '', state: test.result().state, annotations: [...test.annotations()] })
      }
    }
  }
}

let root = ''
let pages = ''
let junit = ''
const collected = new Collect()

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vh-pages-'))
  for (const dir of ['specs', 'runs']) mkdirSync(join(root, dir))
  copyFileSync(join(FIXTURES, 'read-before-answer.trace.yaml'), join(root, 'specs', 'read-before-answer.trace.yaml'))
  writeFileSync(join(root, 'specs', 'gap.trace.yaml'), GAP_SPEC)
  copyFileSync(join(FIXTURES, 'codex', 'exec.jsonl'), join(root, 'runs', 'exec.jsonl'))
  writeFileSync(join(root, 'checks.test.ts'), SUITES)
  // A page from an earlier run: a new run must not list or keep it.
  mkdirSync(join(root, 'pages'))
  writeFileSync(join(root, 'pages', 'trace-00000000000000ff.html'), 'stale')
  writeFileSync(join(root, 'pages', 'notes.txt'), 'the user’s own file')
  pages = join(root, 'pages')
  junit = join(root, 'junit.xml')
  const exitCode = process.exitCode
  const vitest = await createVitest('test', {
    root,
    watch: false,
    config: false,
    include: ['*.test.ts'],
    reporters: [new EvidenceReporter({ outDir: 'evidence', html: { outDir: 'pages' }, testResults: 'off' }), ['junit', { outputFile: junit }], collected],
  })
  try {
    await vitest.start()
  } finally {
    await vitest.close()
    // The gap suite fails on purpose; its verdict is data here.
    process.exitCode = exitCode
  }
}, 120_000)

const attachmentsOf = (test: Seen) => test.annotations.filter((annotation) => annotation.type === TRACE_PAGE_ANNOTATION)

describe('describeTraceSpec under the evidence reporter’s html option', () => {
  it('writes one page per checked transcript, clearing only its own earlier pages', () => {
    const written = readdirSync(pages).sort()
    expect(written.filter((name) => /^trace-[0-9a-f]{16}\.html$/.test(name))).toHaveLength(2)
    expect(written).toContain('index.html')
    expect(written).toContain('notes.txt')
    expect(written).not.toContain('trace-00000000000000ff.html')
  })

  it('attaches its check’s page to every test through Vitest’s annotation API, resolved into Vitest’s attachments folder', () => {
    expect(collected.moduleErrors).toEqual([])
    expect(collected.tests).toHaveLength(5)
    for (const test of collected.tests) {
      const [annotation, ...more] = attachmentsOf(test)
      expect(more).toEqual([])
      expect(annotation?.message).toBe('trace report')
      expect(annotation?.attachment?.contentType).toBe('text/html')
      const path = annotation?.attachment?.path as string
      // Vitest copied the page into its attachments folder: what its UI and HTML reporter serve.
      expect(dirname(path)).toBe(resolve(root, '.vitest-attachments'))
      expect(readFileSync(path, 'utf8')).toContain('<!doctype html>')
    }
    const gapped = collected.tests.find((test) => test.name === 'never-ran-a-shell')
    expect(gapped?.state).toBe('failed')
    // The two suites checked different specs: two pages, with their own verdicts in the embedded data.
    const bySuite = new Map(collected.tests.map((test) => [test.suite, readFileSync(attachmentsOf(test)[0]?.attachment?.path as string, 'utf8')]))
    expect(bySuite.size).toBe(2)
    expect(bySuite.get('gap <script>alert(1)</script>')).toContain('never-ran-a-shell')
    expect(bySuite.get('e2e/read-before-answer against exec.jsonl')).toContain('the-answer-quotes-the-file')
    expect(bySuite.get('e2e/read-before-answer against exec.jsonl')).toContain('hello harness')
  })

  it('surfaces the attachment in Vitest’s JUnit reporter', () => {
    const xml = readFileSync(junit, 'utf8')
    expect(xml.match(new RegExp(`<property name="${TRACE_PAGE_ANNOTATION}" value="trace report">`, 'g'))).toHaveLength(5)
  })

  it('writes an index listing every test that checked a trace, with links that resolve to the pages', () => {
    const index = readFileSync(join(pages, 'index.html'), 'utf8')
    expect(index).toContain('5 test(s) checked a trace.')
    const links = [...index.matchAll(/<a href="([^"]+)">/g)].map((match) => match[1] as string)
    expect(links).toHaveLength(5)
    for (const link of links) expect(existsSync(join(pages, link)), link).toBe(true)
    expect(new Set(links).size).toBe(2)
    expect(index).toMatch(/never-ran-a-shell<\/td><td class="gap">gap<\/td><td class="failed">failed<\/td>/)
    // Names come from the test files: escaped, never markup.
    expect(index).not.toContain('<script>')
    expect(index).toContain('gap &lt;script&gt;alert(1)&lt;/script&gt;')
  })
})
