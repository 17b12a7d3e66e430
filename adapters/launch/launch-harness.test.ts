import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startProvider } from '../../recorders/provider/server.js'
import { codexLaunch } from '../codex/launch.js'
import { CHILD_PATH, defineLaunch, launchDeclarationSchema } from './declaration.js'
import { launchHarness } from './launch-harness.js'
import { planDeclaredLaunch } from './plan.js'
import { findLaunch, launchIds } from './launches.js'

const FAKES = fileURLToPath(new URL('../../test/fixtures/harnesses/', import.meta.url))
const PROVIDER = { baseUrl: 'http://127.0.0.1:45999/v1', wire: 'openai-responses' as const }

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vh-ws-'))
  writeFileSync(join(dir, 'note.txt'), 'hello\n')
  return dir
}

// Alive and not a zombie: a killed process whose parent is gone may linger unreaped as `Z`.
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) [ZX] /.test(stat)
  } catch {
    return false
  }
}

describe('launch declarations', () => {
  it('are declared for codex, claude, pi, opencode, gemini, qwen, b10x and native, each valid and carrying {prompt}', () => {
    expect(launchIds()).toEqual(['b10x', 'claude', 'codex', 'gemini', 'native', 'opencode', 'pi', 'qwen'])
    for (const id of launchIds()) {
      const declaration = findLaunch(id)
      expect(launchDeclarationSchema.safeParse(declaration).success).toBe(true)
      expect(declaration?.argv.join(' ')).toContain('{prompt}')
      expect(Object.keys(declaration?.bindings ?? {}).length).toBeGreaterThan(0)
    }
  })

  it('give {model} the caller’s name, else the declaration’s own (Claude Code refuses one it does not know), else vitest-harness-model', () => {
    const inputs = { prompt: 'p', workspace: '/w', root: '/r', baseUrl: 'http://127.0.0.1:1/v1', nodeBin: '/n', wire: 'anthropic-messages' as const }
    const modelOf = (args: string[]) => args[args.indexOf('--model') + 1]
    const claude = findLaunch('claude')
    if (!claude) throw new Error('no claude launch')
    expect(modelOf(planDeclaredLaunch(claude, inputs).args)).toBe('claude-sonnet-4-5')
    expect(modelOf(planDeclaredLaunch(claude, { ...inputs, model: 'claude-opus-4-1' }).args)).toBe('claude-opus-4-1')
    const gemini = findLaunch('gemini')
    if (!gemini) throw new Error('no gemini launch')
    expect(modelOf(planDeclaredLaunch(gemini, { ...inputs, wire: 'gemini' }).args)).toBe('vitest-harness-model')
  })

  it('refuses a declaration whose argv has no {prompt}', () => {
    expect(() => defineLaunch({ adapter: 'x', binary: 'x', pinnedVersion: null, argv: ['run'], env: {}, bindings: {} })).toThrow(/\{prompt\}/)
  })
})

describe('launchHarness', () => {
  it('runs the harness with a constructed environment and converts its rollout and its stdout (writes-rollout.js)', async () => {
    const ws = workspace()
    const run = await launchHarness(codexLaunch, { prompt: 'read note.txt', workspace: ws, provider: PROVIDER, program: join(FAKES, 'writes-rollout.js'), timeoutMs: 20_000 })
    expect(run.failed).toBe(false)
    expect(run.exitCode).toBe(0)
    expect(run.shortMessage).toBe('')
    const seen = JSON.parse(run.stderr.trim()) as { argv: string[]; env: Record<string, string>; cwd: string }
    // Nothing inherited: exactly the declared variables plus the wire's binding.
    expect(Object.keys(seen.env).sort()).toEqual(['CODEX_HOME', 'HOME', 'LANG', 'PATH', 'TERM', 'TMPDIR', 'VITEST_HARNESS_PROVIDER_KEY'])
    expect(seen.env['CODEX_HOME']).toBe(join(run.scratch, 'codex-home'))
    expect(seen.argv).toContain('model_providers.vitest_harness.base_url="http://127.0.0.1:45999/v1"')
    expect(seen.argv).toContain('model_providers.vitest_harness.wire_api="responses"')
    expect(seen.argv.slice(-2)).toEqual(['--', 'read note.txt'])
    expect(seen.cwd).toBe(ws)
    const requested = run.events.find((event) => event.event === 'tool.requested')
    expect(requested).toMatchObject({ name: 'exec_command', input: { cmd: 'cat note.txt' }, operations: ['shell'], subjects: ['proc:cat', 'file:note.txt'] })
    expect(run.events.map((event) => event.event)).toContain('session.ended')
    expect(run.stdoutEvents.map((event) => event.event)).toEqual([
      'session.started',
      'warning',
      'turn.started',
      'tool.requested',
      'tool.result',
      'text',
      'usage',
      'turn.ended',
      'session.ended',
      'stream.closed',
    ])
  })

  it('returns a refusal as data: exit code, stderr and an execa-style message (exits-2.js)', async () => {
    const run = await launchHarness('codex', { prompt: 'p', workspace: workspace(), provider: PROVIDER, program: join(FAKES, 'exits-2.js'), timeoutMs: 20_000 })
    expect(run).toMatchObject({ failed: true, exitCode: 2, timedOut: false, stdout: '', stderr: 'error: unexpected argument' })
    expect(run.shortMessage).toMatch(/^Command failed with exit code 2: /)
    expect(run.events).toEqual([])
  })

  it('stops the whole process group at the timeout, so no grandchild survives (hangs.js)', async () => {
    const declaration = defineLaunch({
      adapter: 'hangs',
      binary: join(FAKES, 'hangs.js'),
      pinnedVersion: null,
      argv: ['{prompt}'],
      env: { PATH: CHILD_PATH, HANG_PID_FILE: '{root}/grandchild.pid' },
      stdout: { format: 'codex/exec-json' },
      bindings: { 'openai-responses': {} },
    })
    const run = await launchHarness(declaration, { prompt: 'p', workspace: workspace(), provider: PROVIDER, timeoutMs: 1500, killAfterMs: 500 })
    expect(run.timedOut).toBe(true)
    expect(run.failed).toBe(true)
    expect(run.exitCode).toBeUndefined()
    expect(run.shortMessage).toMatch(/^Command timed out after 1500 milliseconds/)
    const pidFile = join(run.scratch, 'grandchild.pid')
    expect(existsSync(pidFile)).toBe(true)
    const grandchild = Number(readFileSync(pidFile, 'utf8'))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(isAlive(grandchild)).toBe(false)
    expect(run.stdoutEvents[0]).toMatchObject({ event: 'session.started', session_id: 'hung' })
  })

  it('returns a wire the harness does not speak, and a binary that does not exist, as failures', async () => {
    const wrongWire = await launchHarness('claude', { prompt: 'p', workspace: workspace(), provider: PROVIDER })
    expect(wrongWire).toMatchObject({ failed: true, exitCode: undefined })
    expect(wrongWire.shortMessage).toBe('claude speaks no openai-responses wire (it speaks anthropic-messages)')
    const missing = await launchHarness('codex', { prompt: 'p', workspace: workspace(), provider: PROVIDER, program: '/nonexistent/codex', timeoutMs: 5000 })
    expect(missing.failed).toBe(true)
    expect(missing.exitCode).toBeUndefined()
    expect(missing.shortMessage).not.toBe('')
    expect(missing.cause).toBeDefined()
  })

  it('points Claude Code at a provider scope with its path: ANTHROPIC_BASE_URL is the scope minus /v1 (asks-anthropic.js)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-scope-'))
    writeFileSync(join(dir, 'answer.yaml'), 'scenario: answer\nturns:\n  - text: "from the scope"\n')
    const provider = await startProvider()
    try {
      const scope = provider.openScope({ scenario: join(dir, 'answer.yaml'), mode: 'replay', env: {} })
      const run = await launchHarness('claude', { prompt: 'say it', workspace: workspace(), provider: { baseUrl: scope.baseUrl, wire: 'anthropic-messages' }, program: join(FAKES, 'asks-anthropic.js'), timeoutMs: 20_000 })
      expect(run.env['ANTHROPIC_BASE_URL']).toBe(scope.origin)
      expect(run.env['ANTHROPIC_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__scope\/[\w-]+$/)
      expect(run.failed, run.stderr).toBe(false)
      const report = provider.closeScope(scope.id)
      expect(report.requests.map((request) => request.path)).toEqual(['/v1/messages'])
      expect(report.misses).toEqual([])
      expect(run.stdoutEvents.filter((event) => event.event === 'text')).toMatchObject([{ text: 'from the scope' }])
    } finally {
      await provider.close()
    }
  })

  it('gives a provider without a path prefix its origin, as before', async () => {
    const run = await launchHarness('claude', { prompt: 'p', workspace: workspace(), provider: { baseUrl: 'http://127.0.0.1:45999/v1', wire: 'anthropic-messages' }, program: join(FAKES, 'exits-2.js'), timeoutMs: 20_000 })
    expect(run.env['ANTHROPIC_BASE_URL']).toBe('http://127.0.0.1:45999')
  })
})
