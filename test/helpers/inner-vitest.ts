import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** One test as an inner Vitest run reported it. */
export interface InnerTest {
  name: string
  suite: string
  /** The task's own result state: `pass`, `fail`, `todo`, `skip`… */
  state: string | undefined
  note: string | undefined
  errors: string[]
  annotations: { type: string; message: string }[]
  meta: Record<string, unknown>
}

const ROOT = resolve(import.meta.dirname, '..', '..')

// A reporter that writes every test's own state, errors, annotations and meta as JSON.
const REPORTER = `
import { writeFileSync } from 'node:fs'
export default class {
  onTestRunEnd(modules) {
    const tests = []
    for (const module of modules) for (const test of module.children.allTests()) {
      const result = test.task.result
      tests.push({
        name: test.name,
        suite: test.parent.type === 'suite' ? test.parent.name : '',
        state: result?.state,
        note: result?.note,
        errors: (result?.errors ?? []).map((error) => error.message),
        annotations: test.annotations().map((annotation) => ({ type: annotation.type, message: annotation.message })),
        meta: test.meta(),
      })
    }
    writeFileSync(process.env.INNER_OUT, JSON.stringify(tests))
  }
}
`

/**
 * Runs test files in a fresh Vitest process (sources imported by absolute path from this
 * checkout) and returns what each test did. For suites whose behaviour is the report itself.
 */
export function runInnerVitest(files: Record<string, string>, setupFiles: string[] = []): { exitCode: number | null; tests: InnerTest[]; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vh-inner-'))
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content.replaceAll('@src/', `${ROOT}/src/`).replaceAll('@matchers/', `${ROOT}/matchers/`))
  writeFileSync(join(dir, 'reporter.mjs'), REPORTER)
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.ts'], reporters: ['./reporter.mjs'], setupFiles: ${JSON.stringify(setupFiles.map((file) => file.replaceAll('@src/', `${ROOT}/src/`)))} } }\n`,
  )
  const out = join(dir, 'tests.json')
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], {
    cwd: ROOT,
    env: { ...process.env, INNER_OUT: out, CI: '' },
    encoding: 'utf8',
  })
  let tests: InnerTest[] = []
  try {
    tests = JSON.parse(readFileSync(out, 'utf8')) as InnerTest[]
  } catch {
    throw new Error(`the inner Vitest run wrote no results:\n${run.stdout}\n${run.stderr}`)
  }
  return { exitCode: run.status, tests, output: `${run.stdout}\n${run.stderr}` }
}
