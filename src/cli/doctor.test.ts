import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HarnessAdapter } from '../../adapters/adapter.js'
import { b10xAdapter } from '../../adapters/b10x/adapter.js'
import { runCli } from '../../test/helpers/cli.js'
import { resolveOnPath } from '../../adapters/shared/resolve-program.js'
import { diagnoseAdapter, versionToken } from '../contract/doctor.js'

const FAKES = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'fake-b10x')

// An operator HOME whose ~/.local/bin — the head of the child's PATH — holds one fake b10x-harness.
function homeWith(fake: string): { home: string; program: string } {
  const home = mkdtempSync(join(tmpdir(), 'vh-home-'))
  mkdirSync(join(home, '.local', 'bin'), { recursive: true })
  const program = join(home, '.local', 'bin', 'b10x-harness')
  copyFileSync(join(FAKES, fake), program)
  chmodSync(program, 0o755)
  // The fakes share one `run --help` text, read from beside the script.
  copyFileSync(join(FAKES, 'run-help.txt'), join(home, '.local', 'bin', 'run-help.txt'))
  return { home, program }
}

describe('vitest-harness doctor', () => {
  it('exits 0 for the binary on the pin that declares every flag', async () => {
    const { home, program } = homeWith('on-pin.sh')
    const run = await runCli(['doctor', 'b10x'], { env: { HOME: home } })
    const child = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`
    const key = "VITEST_HARNESS_PROVIDER_KEY='<loopback placeholder, not a credential>'"
    const launch = (wire: string) =>
      `b10x-harness: ${wire} launch: b10x-harness run --base-url {baseUrl} --model {model} --workspace {workspace} --execution-path metaharness --json --no-session --approve-up-to high --wire ${wire} --api-key-env VITEST_HARNESS_PROVIDER_KEY --input {prompt}`
    expect(run).toEqual({
      code: 0,
      stdout: [
        `b10x-harness: ${program} 0.12.1 — on the adapter's pin (0.12.1)`,
        "b10x-harness: found: the first on the child's PATH (looked for: --program, then the harness cache, then the child's PATH)",
        'b10x-harness: wires: openai-responses, anthropic-messages',
        launch('openai-responses'),
        `b10x-harness: openai-responses env: PATH=${child} XDG_CONFIG_HOME={root}/config ${key}`,
        launch('anthropic-messages'),
        `b10x-harness: anthropic-messages env: PATH=${child} XDG_CONFIG_HOME={root}/config ${key}`,
        'b10x-harness: every flag the adapter sends is one the binary declares',
        '',
      ].join('\n'),
      stderr: '',
    })
  })

  it('exits 1 for a binary off the pin, saying what is unverified', async () => {
    const { home, program } = homeWith('off-pin.sh')
    const run = await runCli(['doctor', 'b10x'], { env: { HOME: home } })
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n')[0]).toBe(
      `b10x-harness: ${program} 0.9.1 — OFF the adapter's pin (0.12.1). Every version-pinned claim this adapter makes was read from 0.12.1 and is unverified here`,
    )
  })

  it('exits 1 for a binary that no longer declares a flag the adapter sends', async () => {
    const { home } = homeWith('drops-a-flag.sh')
    const run = await runCli(['doctor', 'b10x'], { env: { HOME: home } })
    expect(run.code).toBe(1)
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('b10x-harness: the adapter sends --no-session, and the binary does not declare it')
  })

  it('exits 2 when the version command fails: no verdict was possible', async () => {
    const { home, program } = homeWith('version-fails.sh')
    const run = await runCli(['doctor', 'b10x'], { env: { HOME: home } })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`error: VH_VERSION_FAILED: ${program} --version could not answer: exited 3: cannot read config\n`)
  })

  it("exits 2 when the binary is not on the child's PATH", async () => {
    const run = await runCli(['doctor', 'scripted'], { env: { HOME: mkdtempSync(join(tmpdir(), 'vh-home-')) } })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: VH_NOT_ON_PATH: scripted-vendor is not on the child's PATH \(.*\/\.local\/bin:\/usr\/local\/bin:\/usr\/bin:\/bin\)/)
  })

  it("resolves on the child's PATH only, in its order", () => {
    const empty = mkdtempSync(join(tmpdir(), 'vh-path-'))
    const onlyHere: HarnessAdapter = { ...(b10xAdapter as HarnessAdapter), childPath: () => empty }
    expect(() => diagnoseAdapter(onlyHere, undefined)).toThrow(/^b10x-harness is not on the child's PATH/)
    const front = homeWith('off-pin.sh')
    const back = homeWith('on-pin.sh')
    const ordered: HarnessAdapter = { ...(b10xAdapter as HarnessAdapter), childPath: () => `${empty}:${front.home}/.local/bin:${back.home}/.local/bin` }
    expect(diagnoseAdapter(ordered, undefined)).toMatchObject({ program: front.program, version: '0.9.1', onPin: false })
  })

  it('skips a file that is not executable, as exec would', () => {
    const first = mkdtempSync(join(tmpdir(), 'vh-path-'))
    writeFileSync(join(first, 'vendor'), '#!/bin/sh\n', { mode: 0o644 })
    const second = mkdtempSync(join(tmpdir(), 'vh-path-'))
    writeFileSync(join(second, 'vendor'), '#!/bin/sh\n', { mode: 0o755 })
    expect(resolveOnPath('vendor', `${first}:${second}`)).toBe(join(second, 'vendor'))
  })

  it('reads the version token past a product name', () => {
    expect(versionToken('2.1.239 (Claude Code)')).toBe('2.1.239')
    expect(versionToken('codex-cli 0.145.0')).toBe('0.145.0')
    expect(versionToken('b10x-harness 0.12.1')).toBe('0.12.1')
  })
})
