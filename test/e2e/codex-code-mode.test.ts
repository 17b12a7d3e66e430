import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LaunchDeclaration } from '../../adapters/launch/declaration.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CODEX, installedProgram } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, runDeclaredLaunch } from './harness-run.js'

// The real Codex with code mode on (`--enable code_mode`, under development in 0.169.0): the model
// calls `exec`, a freeform tool whose JavaScript calls `tools.exec_command`, and the script removes
// a file. The rollout holds the script, and the command only as an `item_completed` echo; exec
// --json prints the command as an item and nothing of the script. "rm ran" must hold over both.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/codex-code-mode
expectations:
  - id: rm-ran
    expect: {tool.called: {subject: {glob: "proc:rm"}, count: {at_least: 1}}}
  - id: no-rm
    expect: {tool.absent: {subject: {glob: "proc:rm"}}}
`)
const SCRIPT = "const r = await tools.exec_command({cmd: 'rm junk.txt && echo gone'}); text(JSON.stringify(r))"

const codex = installedProgram(CODEX)

describe('a command run from a code-mode script, on the real Codex', () => {
  it('removes the file, and "rm ran" holds and "no rm" is a gap over the rollout and exec --json', async () => {
    const workspace = freshDir('codex-code-mode', 'work')
    writeFileSync(join(workspace, 'junk.txt'), 'junk\n')
    const scenario = join(E2E_ROOT, 'codex-code-mode', 'scenario.json')
    mkdirSync(join(E2E_ROOT, 'codex-code-mode'), { recursive: true })
    writeFileSync(scenario, JSON.stringify({ scenario: 'codex-code-mode', turns: [{ tool_calls: [{ name: 'exec', input: SCRIPT }] }, { text: 'Done.' }] }))
    const launch = { ...CODEX, argv: CODEX.argv.flatMap((word) => (word === 'exec' ? ['exec', '--enable', 'code_mode'] : [word])) } as LaunchDeclaration
    const run = await runDeclaredLaunch({ launch, program: codex(), wire: 'openai-responses', serveArgs: ['--scenario', scenario], label: 'codex-code-mode', prompt: 'Remove junk.txt.', workspace, scratch: freshDir('codex-code-mode', 'root') })
    expect(run.result.exitCode, run.result.stderr).toBe(0)
    expect(existsSync(join(workspace, 'junk.txt')), 'the script’s command ran').toBe(false)
    const stdout = join(E2E_ROOT, 'codex-code-mode', 'exec.jsonl')
    writeFileSync(stdout, run.result.stdout)
    const rollouts = filesUnder(run.result.scratch).filter((file) => /\/sessions\/.*rollout-[^/]*\.jsonl$/.test(file))
    expect(rollouts).toHaveLength(1)
    for (const transcript of [rollouts[0] as string, stdout]) {
      expect((await checkTranscriptFile(SPEC, transcript)).expectations.map((row) => row.verdict), transcript).toEqual(['ok', 'gap'])
    }
  })
})
