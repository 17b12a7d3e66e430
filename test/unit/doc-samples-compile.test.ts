import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { docPages, pageSamples } from '../helpers/doc-samples.js'
import { REPO } from '../helpers/run-suite.js'

// Every ```ts sample of the README and the docs site compiles against the package's public entry
// points — each sample its own module, `vitest-harness/*` mapped to src/public/*, so a renamed export
// or a changed signature fails here, in `npm test`, before the e2e suite runs them against the packed
// package (test/e2e/doc-samples.test.ts).
it('every TypeScript sample in the README and the docs compiles against the public exports', () => {
  const samples = docPages(REPO).flatMap((page) => pageSamples(REPO, page)).filter((sample) => sample.lang === 'ts')
  expect(samples.length).toBeGreaterThanOrEqual(15)
  // Under node_modules, so the samples resolve `vitest`, `openai` and the types as the repository does.
  mkdirSync(join(REPO, 'node_modules', '.cache'), { recursive: true })
  const dir = mkdtempSync(join(REPO, 'node_modules', '.cache', 'doc-samples-'))
  try {
    const names = samples.map((sample) => `${sample.page.replace(/[^a-z0-9]+/gi, '-')}-L${sample.line}.ts`)
    samples.forEach((sample, index) => writeFileSync(join(dir, names[index] as string), sample.code))
    const config = {
      extends: join(REPO, 'tsconfig.json'),
      compilerOptions: {
        noEmit: true,
        // A sample shows a call; it need not use every value it makes.
        noUnusedLocals: false,
        noUnusedParameters: false,
        paths: { 'vitest-harness': [join(REPO, 'src', 'public', 'index.ts')], 'vitest-harness/*': [join(REPO, 'src', 'public', '*.ts')] },
      },
      include: ['*.ts'],
      exclude: [],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2))
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' })
    // `docs-guide-provider-md-L32.ts(line,col)` names the page and the line of the sample's fence.
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.status).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  // A whole tsc run over the public surface: 15 s on a busy two-core machine, so not the 20 s default.
}, 90_000)
