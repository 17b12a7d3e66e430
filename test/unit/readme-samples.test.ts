import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { REPO } from '../helpers/run-suite.js'

// Every ```ts sample in the README compiles against the package's public entry points — each sample
// its own module, `vitest-harness/*` mapped to src/public/*, so a renamed export or a changed
// signature fails here rather than in a reader's editor.
it('every TypeScript sample in the README compiles against the public exports', () => {
  const samples = [...readFileSync(join(REPO, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string)
  expect(samples.length).toBeGreaterThanOrEqual(10)
  // Under node_modules, so the samples resolve `vitest`, `openai` and the types as the repository does.
  mkdirSync(join(REPO, 'node_modules', '.cache'), { recursive: true })
  const dir = mkdtempSync(join(REPO, 'node_modules', '.cache', 'readme-samples-'))
  try {
    samples.forEach((sample, index) => writeFileSync(join(dir, `sample-${index + 1}.ts`), sample))
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
    // `sample-N.ts(line,col)` names the README's Nth ```ts block.
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.status).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  // A whole tsc run over the public surface: 15 s on a busy two-core machine, so not the 20 s default.
}, 90_000)
