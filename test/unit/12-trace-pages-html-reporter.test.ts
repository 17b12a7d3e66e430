import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { parse } from 'flatted'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TestAnnotation } from 'vitest'
import { createVitest, type Reporter } from 'vitest/node'
import VitestHtmlReporter from '@vitest/ui/reporter'
import EvidenceReporter from '../../src/vitest/reporters/evidence.js'
import { TRACE_PAGE_ANNOTATION } from '../../src/vitest/trace-page.js'
import { REPO, repoImport } from '../helpers/run-suite.js'

// Issue 12 item 4: the trace pages must be reachable from Vitest's own HTML reporter (@vitest/ui),
// not only from the in-process reporter API. A real in-process run of a fixture project under the
// evidence reporter's `html` option and Vitest's `html` reporter; then the report is read the way
// its static UI reads it: `html.meta.json.gz` beside `index.html` is gzip'd `flatted` JSON of the
// run's file tasks, and an attachment with a `path` is served from `./data/<basename of path>`
// (Vitest's attachments folder, copied into the report's `data/`).

const FIXTURES = join(REPO, 'test', 'e2e', 'fixtures')
const SPEC_ID = 'e2e/read-before-answer'

const SUITES = `
import { it } from 'vitest'
import { describeTraceSpec } from ${repoImport('src', 'vitest', 'trace-suite.ts')}
const here = (path) => new URL(path, import.meta.url)
describeTraceSpec(here('specs/read-before-answer.trace.yaml'), here('runs/exec.jsonl'))
// The control: a test that checks no trace, so carries no trace page.
it('checks no trace', () => {})
`

/** The part of a serialized task the static UI reads here (the rest of Vitest's `Task` is not needed). */
interface ReportTask {
  type: string
  name: string
  tasks?: ReportTask[]
  annotations?: TestAnnotation[]
}

// Vitest resolves the name 'html' from the project's root, a temporary folder without
// node_modules; so the same reporter is handed over as a class. Its d.ts declares an instance, but
// the module exports the class Vitest itself constructs for 'html' with the `outputFile` option.
const HtmlReporter = VitestHtmlReporter as unknown as new (options: { outputFile?: string }) => Reporter

interface ReportMeta {
  files: ReportTask[]
}

let reportDir = ''
let pagesDir = ''
let tests: ReportTask[] = []

function testsOf(task: ReportTask): ReportTask[] {
  if (task.type === 'test') return [task]
  return (task.tasks ?? []).flatMap(testsOf)
}

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'vh-html-report-'))
  for (const dir of ['specs', 'runs']) mkdirSync(join(root, dir))
  copyFileSync(join(FIXTURES, 'read-before-answer.trace.yaml'), join(root, 'specs', 'read-before-answer.trace.yaml'))
  copyFileSync(join(FIXTURES, 'codex', 'exec.jsonl'), join(root, 'runs', 'exec.jsonl'))
  writeFileSync(join(root, 'checks.test.ts'), SUITES)
  reportDir = join(root, 'html-report')
  pagesDir = join(root, 'pages')
  const exitCode = process.exitCode
  const vitest = await createVitest('test', {
    root,
    watch: false,
    config: false,
    include: ['*.test.ts'],
    reporters: [new EvidenceReporter({ outDir: 'evidence', html: { outDir: 'pages' }, testResults: 'off' }), new HtmlReporter({})],
    outputFile: { html: join(reportDir, 'index.html') },
  })
  try {
    await vitest.start()
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
  const meta = parse(gunzipSync(readFileSync(join(reportDir, 'html.meta.json.gz'))).toString('utf8')) as ReportMeta
  tests = meta.files.flatMap(testsOf)
}, 120_000)

const tracePagesOf = (test: ReportTask) => (test.annotations ?? []).filter((annotation) => annotation.type === TRACE_PAGE_ANNOTATION)

/** Where the static report serves an attachment from, as its UI computes the URL (`./data/<basename>`). */
function servedFile(annotation: TestAnnotation): string {
  const path = annotation.attachment?.path
  if (typeof path !== 'string') throw new Error(`the annotation "${annotation.message}" has no attachment path`)
  return join(reportDir, 'data', basename(path))
}

describe('trace pages in Vitest’s HTML reporter', () => {
  it('writes the report with its data file beside index.html', () => {
    expect(readFileSync(join(reportDir, 'index.html'), 'utf8')).toContain('window.METADATA_PATH="html.meta.json.gz"')
    expect(tests.map((test) => test.name).sort()).toEqual(['checks no trace', 'the-answer-quotes-the-file', 'the-read-returned-content', 'the-readme-was-read'])
  })

  it('carries each trace test’s annotation with its page, served from inside the report’s folder', () => {
    const written = readdirSync(pagesDir).filter((name) => /^trace-[0-9a-f]{16}\.html$/.test(name))
    expect(written).toHaveLength(1)
    const tracePage = readFileSync(join(pagesDir, written[0] as string), 'utf8')
    const traceTests = tests.filter((test) => test.name !== 'checks no trace')
    expect(traceTests).toHaveLength(3)
    for (const test of traceTests) {
      const [annotation, ...more] = tracePagesOf(test)
      expect(more, test.name).toEqual([])
      expect(annotation?.message).toBe('trace report')
      expect(annotation?.attachment?.contentType).toBe('text/html')
      const served = servedFile(annotation as TestAnnotation)
      expect(existsSync(served), served).toBe(true)
      const page = readFileSync(served, 'utf8')
      expect(page).toContain('<!doctype html>')
      expect(page).toContain(SPEC_ID)
      expect(page).toContain('the-answer-quotes-the-file')
      // The very page the evidence reporter wrote, not some other file of the same name.
      expect(page).toBe(tracePage)
    }
  })

  it('carries no trace page for a test that checked no trace', () => {
    const control = tests.find((test) => test.name === 'checks no trace')
    expect(control).toBeDefined()
    expect(tracePagesOf(control as ReportTask)).toEqual([])
  })
})
