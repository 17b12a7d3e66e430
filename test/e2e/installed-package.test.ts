import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// The package as a user gets it: packed, installed into a fresh project, used through its
// exports and its bin. Nothing here reaches into the repository's sources.
const ROOT = resolve(import.meta.dirname, '..', '..')
let project = ''

beforeAll(() => {
  const packDir = mkdtempSync(join(tmpdir(), 'vh-pack-'))
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string }[]
  const tarball = join(packDir, (packed[0] as { filename: string }).filename)
  project = mkdtempSync(join(tmpdir(), 'vh-user-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-user-project', private: true, type: 'module' }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], { cwd: project, stdio: 'pipe' })
})

describe('vitest-harness installed in a project', () => {
  it('ships its declarations and no test files', () => {
    const dist = join(project, 'node_modules', 'vitest-harness', 'dist')
    expect(existsSync(join(dist, 'src', 'public', 'index.d.ts'))).toBe(true)
    expect(existsSync(join(dist, 'src', 'events', 'write.test.js'))).toBe(false)
  })

  it('answers `npx vitest-harness --help` from the project', () => {
    expect(execFileSync('npx', ['--no-install', 'vitest-harness', '--help'], { cwd: project, encoding: 'utf8' })).toContain('commands:')
  })

  it('replays its shipped vectors through the public exports', () => {
    const script = [
      "import { loadVectors, runVector } from 'vitest-harness'",
      "import { findAdapter } from 'vitest-harness/adapters'",
      "import { createRequire } from 'node:module'",
      "import { dirname, join } from 'node:path'",
      "const root = dirname(createRequire(import.meta.url).resolve('vitest-harness/package.json'))",
      "const outcomes = loadVectors(join(root, 'vectors')).map((v) => runVector(v, findAdapter(v.adapter)))",
      'console.log(JSON.stringify({ total: outcomes.length, failed: outcomes.filter((o) => !o.passed).length }))',
    ].join('\n')
    writeFileSync(join(project, 'check.mjs'), script)
    const result = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8' })) as { total: number; failed: number }
    expect(result.total).toBeGreaterThanOrEqual(20)
    expect(result.failed).toBe(0)
  })

  it('registers the evidence reporter by name and mints a record the validator accepts', () => {
    writeFileSync(join(project, 'sum.test.mjs'), "import { expect, it } from 'vitest'\nit('adds', () => expect(1 + 1).toBe(2))\nit.skip('is off', () => {})\n")
    writeFileSync(join(project, 'vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'], reporters: ['default', ['vitest-harness/reporter', { outDir: 'evidence' }]] } }\n")
    execFileSync('npx', ['--no-install', 'vitest', 'run'], { cwd: project, stdio: 'pipe' })
    const written = readdirSync(join(project, 'evidence'))
    expect(written).toEqual([expect.stringMatching(/^test_result\.sum-test-mjs\.[0-9a-f]{8}\.evidence\.yaml$/)])
    const record = readFileSync(join(project, 'evidence', written[0] as string), 'utf8')
    expect(record).toMatch(/^- kind: test_result\n {2}suite: unit\n {2}passed: 1\n {2}failed: 0\n {2}skipped: 1\n {2}selector: sum\.test\.mjs\n/)
    expect(record).toContain('\n    workspace: a-user-project\n')
    expect(execFileSync('npx', ['--no-install', 'vitest-harness', 'evidence', 'validate', join('evidence', written[0] as string)], { cwd: project, encoding: 'utf8' })).toContain('1 accepted, 0 refused')
  })

  it('exports only files that exist', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'vitest-harness', 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const files = typeof target === 'string' ? [target] : Object.values(target as Record<string, string>)
      for (const file of files) expect(existsSync(join(project, 'node_modules', 'vitest-harness', file)), `${subpath} → ${file}`).toBe(true)
    }
  })
})
