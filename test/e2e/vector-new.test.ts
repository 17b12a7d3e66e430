import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { CODEX, ensureHarness } from './harness-install.js'
import { E2E_ROOT } from './harness-run.js'

// `vitest-harness vector new codex` from the built bin: the real `codex exec --json` (0.169.0)
// against the in-process loopback provider answering from a scenario, written as a vector set a
// contract then checks, with no binary and no provider.
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'vitest-harness.js')
const SCENARIO = resolve(import.meta.dirname, 'scenarios', 'codex-read-then-answer.yaml')
const run = promisify(execFile)

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

beforeAll(() => {
  ensureHarness(CODEX)
}, 600_000)

describe('vitest-harness vector new codex (the real binary)', () => {
  it('records a launch, two replays and the version pair that its contract then passes', async () => {
    const root = join(E2E_ROOT, 'vector-new')
    rmSync(root, { recursive: true, force: true })
    const workspace = join(root, 'workspace')
    mkdirSync(workspace, { recursive: true })
    writeFileSync(join(workspace, 'README.md'), 'hello harness\n')
    const out = join(root, 'vectors')
    const args = ['vector', 'new', 'codex', '--out', out, '--scenario', SCENARIO, '--prompt', 'Read README.md and tell me what it says.', '--workspace', workspace, '--scratch', join(root, 'scratch'), '--id', 'e2e']

    const recorded = await cli(args)
    expect(recorded.stderr).toBe('')
    expect(recorded.code).toBe(0)
    expect(recorded.stdout.split('\n')[0]).toMatch(/^recorded from \S+\/codex 0\.169\.0$/)
    expect(recorded.stdout).toContain(`pass launch e2e-launch → ${join(out, 'e2e-launch')}\n`)
    expect(recorded.stdout).toContain(`pass replay e2e-stdout → ${join(out, 'e2e-stdout')}\n`)
    expect(recorded.stdout).toContain(`pass replay e2e-trajectory → ${join(out, 'e2e-trajectory')}\n`)
    expect(recorded.stdout).toContain(`pass version-pair e2e-version-pair → ${join(out, 'e2e-version-pair')}\n`)

    // The bytes are the binary's: exec-json on stdout, with the scripted `cat README.md` and its output.
    const stdout = readFileSync(join(out, 'e2e-stdout', 'record.jsonl'), 'utf8')
    expect(stdout).toContain('"type":"command_execution"')
    expect(stdout).toContain('hello harness')
    expect(readFileSync(join(out, 'e2e-version-pair', 'version.txt'), 'utf8')).toBe('codex-cli 0.169.0\n')
    const events = readFileSync(join(out, 'e2e-trajectory', 'events.expected.jsonl'), 'utf8')
    expect(events).toContain('"event":"tool.requested"')

    const contract = await cli(['contract', 'codex', '--vectors', out, '--contract'])
    expect(contract).toEqual({
      code: 0,
      stdout: '{"breaking_changes":0,"checked":4,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"codex 0.169.0"}\n',
      stderr: '',
    })

    // A second recording into the same ids is refused: a vector is never overwritten.
    const again = await cli(args)
    expect(again.code).toBe(2)
    expect(again.stderr).toBe(`error: VH_VECTOR_EXISTS at ${join(out, 'e2e-launch')}: a vector is already there; recording never overwrites one. Choose another --id or remove it deliberately\n`)
  })
})
