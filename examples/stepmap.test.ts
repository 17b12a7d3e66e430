import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cassetteProvider, describeStepMap, validateEvidenceText } from 'vitest-harness'

// A step map of our own, run for real on a copy of examples/stepmap-repo/: `implement` runs the
// real Codex against a committed cassette and checks the session's own transcript
// (`vitest-harness evidence --transcript {transcript}`, read back through `record:`); `verify` runs
// `node --test` and mints a test_result from its exit status. Everything lands in
// demo-output/stepmap/.
const repo = fileURLToPath(new URL('./stepmap-repo/', import.meta.url))
const out = join(process.env['VITEST_HARNESS_DEMO_OUT'] ?? 'demo-output', 'stepmap')
const workspace = join(out, 'repo')
const runDirectory = join(out, 'run')
rmSync(out, { recursive: true, force: true })
cpSync(repo, workspace, { recursive: true })

// `vitest-harness` on the command steps' PATH, as npm puts an installed package's bin there (under
// the OS temp dir: it is set-up, not a product of the run).
const bin = mkdtempSync(join(tmpdir(), 'vh-stepmap-bin-'))
symlinkSync(fileURLToPath(new URL('../bin/vitest-harness.js', import.meta.url)), join(bin, 'vitest-harness'))

// The real harness is installed by the e2e suite, never by the demo: without it the Codex state is
// not run, and the output says so.
const harnesses = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'vitest-harness', 'harnesses')
const codex = join(harnesses, 'codex@0.169.0', 'node_modules', '.bin', 'codex')
const withCodex = existsSync(codex) || process.env['VITEST_HARNESS_REQUIRE_HARNESS'] === '1'
if (!withCodex) console.warn(`[vitest-harness] Codex 0.169.0 is not installed in ${harnesses}: the step-map example runs its verify state only; \`npm run test:e2e\` installs Codex and runs the implement state too.`)

// What Codex puts in a request that differs between machines and days: absolute paths (the
// workspace, its scratch home) and the date. A recording must not depend on either.
const VOLATILE = {
  replace: [
    { pattern: /<current_date>[^<]*<\/current_date>/g, with: '<current_date/>' },
    { pattern: /(?:\/[A-Za-z0-9._@+-]+)+/g, with: '<path>' },
  ],
}

describeStepMap(join(repo, 'step-map.yaml'), {
  workflow: join(repo, 'workflow.yaml'),
  workspace,
  runDirectory,
  states: withCodex ? ['implement', 'verify'] : ['verify'],
  harness: { codex: { launch: 'codex', program: codex } },
  provider: cassetteProvider({ cassettes: join(repo, 'cassettes'), scenarios: join(repo, 'scenarios'), wire: 'openai-responses', match: VOLATILE }),
  env: { PATH: `${bin}:${process.env['PATH'] ?? ''}` },
  harnessTimeoutMs: 120_000,
  commandTimeoutMs: 60_000,
})

// The demo never downloads a harness: without Codex in the cache the implement state is shown as
// skipped with the reason, and test/e2e/stepmap-example.test.ts (which installs Codex) runs it for real.
if (!withCodex) {
  describe('implement', () => {
    it.skip(`needs Codex 0.169.0 in ${harnesses} (npm run test:e2e installs it)`, () => {})
  })
}

describe('the run directory', () => {
  it('holds evidence documents the AEP engine accepts', () => {
    const documents = [
      ...readdirSync(join(runDirectory, 'evidence')).map((name) => join(runDirectory, 'evidence', name)),
      ...(withCodex ? [join(runDirectory, 'trace-implement.yaml')] : []),
    ]
    expect(documents.length).toBeGreaterThan(0)
    for (const document of documents) {
      const report = validateEvidenceText(readFileSync(document, 'utf8'), { now: Date.now() })
      expect(report.diagnostics, document).toEqual([])
      expect(report.accepted.length, document).toBe(report.records)
    }
  })
})
