import { join, resolve } from 'node:path'
import type { TaskMeta, TestAnnotation } from 'vitest'
import { createVitest } from 'vitest/node'

/** The repository root, for fixture files that import the sources by absolute path. */
export const REPO = resolve(import.meta.dirname, '..', '..')

/** An import specifier for a repository file, usable from a fixture tree anywhere on disk. */
export function repoImport(...parts: string[]): string {
  return JSON.stringify(join(REPO, ...parts))
}

/** One test of a fixture run, as a reporter sees it. */
export interface ReportedTest {
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending'
  readonly errors: readonly { message: string; diff?: string }[]
  readonly note: string | undefined
  readonly meta: TaskMeta
  readonly annotations: readonly TestAnnotation[]
}

/**
 * The package's own entry points, resolved to their sources: a suite that imports
 * `vitest-harness` the way a user does runs against this checkout without a build.
 */
export const SOURCE_ALIASES = [
  { find: /^vitest-harness\/adapters$/, replacement: join(REPO, 'src', 'public', 'adapters.ts') },
  { find: /^vitest-harness\/setup$/, replacement: join(REPO, 'src', 'public', 'setup.ts') },
  { find: /^vitest-harness\/matchers$/, replacement: join(REPO, 'src', 'public', 'matchers.ts') },
  { find: /^vitest-harness$/, replacement: join(REPO, 'src', 'public', 'index.ts') },
]

/**
 * Runs the `*.test.ts` files of a fixture tree in-process with Vitest's node API and returns every
 * test by full name (`suite > group > test`), with its state, errors, skip note, meta and annotations.
 */
export interface FixtureSuiteOptions {
  /** Default: every `*.test.ts` under the root. */
  include?: string[]
  setupFiles?: string[]
  /** Environment variables the test workers see. */
  env?: Record<string, string>
  /** Module aliases, e.g. the package's own name pointed at its sources instead of `dist/`. */
  alias?: { find: RegExp; replacement: string }[]
}

export async function runFixtureSuite(root: string, options: FixtureSuiteOptions = {}): Promise<Map<string, ReportedTest>> {
  const exitCode = process.exitCode
  const { alias, include, ...rest } = options
  const vitest = await createVitest(
    'test',
    { root, watch: false, config: false, reporters: [{}], include: include ?? ['**/*.test.ts'], ...rest },
    alias ? { resolve: { alias } } : {},
  )
  try {
    await vitest.start()
    const tests = new Map<string, ReportedTest>()
    for (const module of vitest.state.getTestModules()) {
      const moduleErrors = module.errors()
      if (moduleErrors.length > 0) throw new Error(`the fixture ${module.moduleId} failed to load: ${moduleErrors.map((error) => error.message).join('; ')}`)
      for (const test of module.children.allTests()) {
        const result = test.result()
        tests.set(test.fullName, {
          state: result.state,
          errors: result.state === 'failed' ? result.errors.map((error) => ({ message: error.message, diff: error.diff })) : [],
          note: result.state === 'skipped' ? result.note : undefined,
          meta: test.meta(),
          annotations: test.annotations(),
        })
      }
    }
    return tests
  } finally {
    await vitest.close()
    // A failing fixture run sets the exit code of this process; the fixture's verdict is data here.
    process.exitCode = exitCode
  }
}
