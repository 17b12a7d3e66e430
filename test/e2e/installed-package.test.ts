import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

// The package as a user gets it: packed, installed into a fresh project, used through its
// exports and its bin. Nothing here reaches into the repository's sources.
const ROOT = resolve(import.meta.dirname, '..', '..')
let project = ''
let published: string[] = []

beforeAll(() => {
  const packDir = mkdtempSync(join(tmpdir(), 'vh-pack-'))
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[]
  const tarball = join(packDir, (packed[0] as { filename: string }).filename)
  published = (packed[0]?.files ?? []).map((file) => file.path)
  project = mkdtempSync(join(tmpdir(), 'vh-user-'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-user-project', private: true, type: 'module' }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], { cwd: project, stdio: 'pipe' })
})

describe('vitest-harness installed in a project', () => {
  it('publishes bin/, dist/ (no tests, no source maps), vectors/, schemas/, the README, the licence and package.json — nothing else, nothing missing', () => {
    const top = new Set(published.map((path) => path.split('/')[0]))
    expect([...top].sort()).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'package.json', 'schemas', 'vectors'])
    // Maps would point at sources the package does not ship.
    expect(published.filter((path) => path.endsWith('.map'))).toEqual([])
    expect(published.filter((path) => path.startsWith('bin/')).sort()).toEqual(['bin/scripted-vendor.js', 'bin/vitest-harness.js'])
    expect([...new Set(published.filter((path) => path.startsWith('dist/')).map((path) => path.split('/')[1]))].sort()).toEqual(['adapters', 'matchers', 'recorders', 'src'])
    expect(published.filter((path) => /\.test(-d)?\.|\/test\/|fixtures\//.test(path))).toEqual([])
    expect(published).toContain('schemas/trace-spec-1.schema.json')
    // Every vector the repository holds, the scripted double's control vectors among them.
    const vectors = execFileSync('git', ['ls-files', 'vectors'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n')
    expect(published.filter((path) => path.startsWith('vectors/')).sort()).toEqual(vectors.sort())
  })

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
      'const outcomes = []',
      "for (const v of loadVectors(join(root, 'vectors'))) outcomes.push(await runVector(v, findAdapter(v.adapter)))",
      'console.log(JSON.stringify({ total: outcomes.length, failed: outcomes.filter((o) => !o.passed).length }))',
    ].join('\n')
    writeFileSync(join(project, 'check.mjs'), script)
    const result = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: project, encoding: 'utf8' })) as { total: number; failed: number }
    expect(result.total).toBeGreaterThanOrEqual(20)
    expect(result.failed).toBe(0)
  })

  it('registers the evidence reporter by name and mints a record the validator accepts', () => {
    writeFileSync(join(project, 'sum.test.mjs'), "import { expect, it } from 'vitest'\nit('adds', () => expect(1 + 1).toBe(2))\nit.skip('is off', () => {})\n")
    // Its own config file, so the other tests in this project keep Vitest's defaults.
    writeFileSync(join(project, 'evidence.vitest.config.mjs'), "export default { test: { include: ['*.test.mjs'], reporters: ['default', ['vitest-harness/reporter', { outDir: 'evidence' }]] } }\n")
    execFileSync('npx', ['--no-install', 'vitest', 'run', '--config', 'evidence.vitest.config.mjs'], { cwd: project, stdio: 'pipe' })
    const written = readdirSync(join(project, 'evidence')).filter((name) => name !== 'evidence-set.json')
    expect(written).toEqual([expect.stringMatching(/^test_result\.sum-test-mjs\.[0-9a-f]{8}\.evidence\.yaml$/)])
    const record = readFileSync(join(project, 'evidence', written[0] as string), 'utf8')
    expect(record).toMatch(/^- kind: test_result\n {2}suite: unit\n {2}passed: 1\n {2}failed: 0\n {2}skipped: 1\n {2}selector: sum\.test\.mjs\n/)
    expect(record).toContain('\n    workspace: a-user-project\n')
    expect(execFileSync('npx', ['--no-install', 'vitest-harness', 'evidence', 'validate', join('evidence', written[0] as string)], { cwd: project, encoding: 'utf8' })).toContain('1 accepted, 0 refused')
    // The folder as a whole: the set its manifest describes.
    expect(execFileSync('npx', ['--no-install', 'vitest-harness', 'evidence', 'validate', 'evidence'], { cwd: project, encoding: 'utf8' })).toMatch(/^evidence: evidence set \S+ — 1 file\(s\) as its manifest lists them, 1 record\(s\)/)
  })

  it('runs the C3 control vectors with the fake vendor it ships', () => {
    const run = spawnSync('npx', ['--no-install', 'vitest-harness', 'contract', 'scripted'], { cwd: project, encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('pass C3 c3/an-unanswered-call-is-denied-by-the-drivers-own-deadline\n')
  })

  it('runs a describeHarness contract with the setup entry, as a user writes one', () => {
    writeFileSync(
      join(project, 'b10x.contract.test.ts'),
      [
        "import { expect, it } from 'vitest'",
        "import 'vitest-harness/setup'",
        "import { describeHarness } from 'vitest-harness'",
        "import { b10xAdapter } from 'vitest-harness/adapters'",
        "describeHarness(b10xAdapter, { only: ['c1-observe-launch', 'golden-loop-record', 'golden-version-pair'], obligations: false, contractResultFile: 'out/b10x.json' }, () => {",
        "  it('declares observe only', () => expect(b10xAdapter).toDeclareCapabilities({ decision_modes: { observe: 'delivered' } }))",
        '})',
        '',
      ].join('\n'),
    )
    const run = spawnSync('npx', ['--no-install', 'vitest', 'run', 'b10x.contract.test.ts'], { cwd: project, encoding: 'utf8' })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(readFileSync(join(project, 'out', 'b10x.json'), 'utf8')).toBe(
      '{"breaking_changes":0,"checked":3,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
    )
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
