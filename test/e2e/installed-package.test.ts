import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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

  it('serves a scripted answer through vitest-harness/recorders, and builds the plugin from vitest-harness/plugin', () => {
    const script = [
      "import { startProvider, parseScenario } from 'vitest-harness/recorders'",
      "import { harness } from 'vitest-harness/plugin'",
      "const provider = await startProvider({ scenario: parseScenario({ scenario: 'installed', turns: [{ text: 'hello from the package' }] }), env: {} })",
      "const response = await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) })",
      'const body = await response.json()',
      'await provider.close()',
      "console.log(JSON.stringify({ text: body.choices[0].message.content, plugin: harness().name }))",
    ].join('\n')
    writeFileSync(join(project, 'serve.mjs'), script)
    expect(JSON.parse(execFileSync(process.execPath, ['serve.mjs'], { cwd: project, encoding: 'utf8' }))).toEqual({ text: 'hello from the package', plugin: 'vitest-harness' })
  })

  it('exports only files that exist', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'vitest-harness', 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const files = typeof target === 'string' ? [target] : Object.values(target as Record<string, string>)
      for (const file of files) expect(existsSync(join(project, 'node_modules', 'vitest-harness', file)), `${subpath} → ${file}`).toBe(true)
    }
  })
})
