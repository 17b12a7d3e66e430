import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { builtInVectorsDir } from '../util/package-info.js'

const GOLDEN = join(builtInVectorsDir(), 'b10x', 'golden-loop-record')
const SEAM_FLAGS = ['--run', 'golden', '--harness-version', '0.12.1', '--model', 'b10x-emulated', '--cwd', '/scratch/vh/work', '--transcript-path', '/scratch/vh/loop.jsonl', '--hermetic-mode', 'strict', '--decisions', 'observe']

describe('vitest-harness replay', () => {
  it('prints the event stream of a file, byte-equal to the vector it belongs to', async () => {
    const run = await runCli(['replay', '--adapter', 'b10x', ...SEAM_FLAGS, join(GOLDEN, 'loop.jsonl')])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'))
  })

  it('reads stdin for `-` and when no file is named', async () => {
    const stdin = readFileSync(join(GOLDEN, 'loop.jsonl'))
    const dash = await runCli(['replay', '--adapter', 'b10x', ...SEAM_FLAGS, '-'], { stdin })
    const none = await runCli(['replay', '--adapter', 'b10x', ...SEAM_FLAGS], { stdin })
    expect(dash.stdout).toBe(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'))
    expect(none.stdout).toBe(dash.stdout)
  })

  it('replays a vector with its pinned seam', async () => {
    const run = await runCli(['replay', '--vector', GOLDEN])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'))
  })

  it('regenerates an expected file only when asked, and never in CI', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'vh-vector-'))
    cpSync(GOLDEN, copy, { recursive: true })
    writeFileSync(join(copy, 'loop.expected.jsonl'), 'stale\n')
    const refused = await runCli(['replay', '--vector', copy, '--write'], { env: { CI: 'true' } })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^error: VH_USAGE: --write is refused when CI is set/)
    expect(readFileSync(join(copy, 'loop.expected.jsonl'), 'utf8')).toBe('stale\n')
    const written = await runCli(['replay', '--vector', copy, '--write'])
    expect(written.code).toBe(0)
    expect(readFileSync(join(copy, 'loop.expected.jsonl'), 'utf8')).toBe(readFileSync(join(GOLDEN, 'loop.expected.jsonl'), 'utf8'))
  })

  it.each([
    [['replay'], /--adapter is required/],
    [['replay', '--adapter', 'nope', 'x'], /--adapter must be one of b10x/],
    [['replay', '--adapter', 'b10x', '/no/such/file.jsonl'], /VH_INPUT_MISSING at \/no\/such\/file.jsonl: cannot read the record: no such file/],
    [['replay', '--adapter', 'b10x', '--hermetic-mode', 'loose'], /--hermetic-mode must be one of strict, on, off/],
    [['replay', '--adapter', 'b10x', '--modle', 'x'], /unknown option --modle; did you mean --model\?/],
    [['replay', '--adapter', 'b10x', '--run'], /--run needs a value/],
    [['replay', '--adapter', 'b10x', '/tmp'], /VH_INPUT_NOT_A_FILE at \/tmp: cannot read the record: it is a directory/],
  ])('%j exits 2 with `error: …` on stderr', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: /)
    expect(run.stderr).toMatch(message)
  })

  it('prints help generated from the option table', async () => {
    const run = await runCli(['replay', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('usage: vitest-harness replay')
    expect(run.stdout).toContain('--hermetic-mode strict|on|off')
  })
})

describe('vitest-harness (no command)', () => {
  it('--help lists the commands and the exit codes', async () => {
    const run = await runCli(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/replay\s+Replays/)
    expect(run.stdout).toContain('2 refusal or usage error')
  })

  it('an unknown command is a usage error', async () => {
    const run = await runCli(['frobnicate'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('unknown command "frobnicate"; run')
    const typo = await runCli(['chekc', '--spec', 's.yaml'])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toBe("error: VH_USAGE: unknown command \"chekc\" (did you mean check?); run 'vitest-harness --help' for the list\n")
  })
})
