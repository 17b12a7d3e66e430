import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CLAUDE_CODE, CODEX, ensureHarness, GEMINI, OPENCODE, PI, QWEN } from './harness-install.js'
import { E2E_ROOT, filesUnder, freshDir, runDeclaredLaunch } from './harness-run.js'

// Two shell calls on every real harness: `cd src`, then `rm generated/out.js`. Claude Code runs
// its calls in one shell that keeps its folder, so the second call removed `src/generated/out.js`;
// every other harness starts each call where the run started, so its `rm` found no such file. The
// row "nothing under src/generated/ was touched" must never hold where the file is gone: the
// call's subject names `generated/out.js` as written, so the checker reads it in the folder the
// shell was left in (`keptFolderTools`) and cannot rule it out.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/shell-folder
expectations:
  - id: generated-untouched
    expect: {tool.absent: {subject: {glob: "file:src/generated/*"}}}
`)

interface Case {
  readonly launch: LaunchDeclaration
  readonly wire: Wire
  readonly tool: string
  readonly key: string
  /** The session files the harness wrote under its scratch root (none read for opencode: its sessions are in a database). */
  readonly session?: RegExp
  /** Whether the harness's shell kept the folder: the file is gone. */
  readonly kept: boolean
}

const CASES: readonly Case[] = [
  { launch: CLAUDE_CODE, wire: 'anthropic-messages', tool: 'Bash', key: 'command', session: /\/projects\/[^/]+\/[0-9a-f-]{36}\.jsonl$/, kept: true },
  { launch: CODEX, wire: 'openai-responses', tool: 'exec_command', key: 'cmd', session: /\/sessions\/.*rollout-[^/]*\.jsonl$/, kept: false },
  { launch: OPENCODE, wire: 'openai-chat', tool: 'bash', key: 'command', kept: false },
  { launch: PI, wire: 'anthropic-messages', tool: 'bash', key: 'command', session: /\/sessions\/.*\.jsonl$/, kept: false },
  { launch: GEMINI, wire: 'gemini', tool: 'run_shell_command', key: 'command', session: /\/chats\/session-[^/]*\.jsonl$/, kept: false },
  { launch: QWEN, wire: 'openai-chat', tool: 'run_shell_command', key: 'command', session: /\/chats\/[0-9a-f-]{36}\.jsonl$/, kept: false },
]

const programs = new Map<string, string>()
beforeAll(() => {
  for (const { launch } of CASES) programs.set(launch.adapter, ensureHarness(launch))
}, 900_000)

describe('`cd src`, then `rm generated/out.js`, on every real harness', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const dir = join(E2E_ROOT, 'shell-folder')
    mkdirSync(dir, { recursive: true })
    const scenario = join(dir, `${name}.json`)
    const call = (line: string) => ({ tool_calls: [{ name: entry.tool, arguments: { [entry.key]: line, ...(entry.key === 'command' ? { description: 'a shell line' } : {}) } }] })
    writeFileSync(scenario, JSON.stringify({ scenario: `shell-folder-${name}`, turns: [call('cd src'), call('rm generated/out.js'), { text: 'Done.' }], untooled: { text: 'A title' } }))
    const workspace = freshDir('shell-folder', name, 'work')
    mkdirSync(join(workspace, 'src', 'generated'), { recursive: true })
    writeFileSync(join(workspace, 'src', 'generated', 'out.js'), 'export {}\n')
    const run = await runDeclaredLaunch({
      launch: entry.launch,
      program: programs.get(name) as string,
      wire: entry.wire,
      serveArgs: ['--scenario', scenario],
      label: `shell-folder-${name}`,
      prompt: 'Tidy up.',
      workspace,
      scratch: freshDir('shell-folder', name, 'root'),
    })
    expect(run.result.exitCode, run.result.stderr).toBe(0)
    expect(existsSync(join(workspace, 'src', 'generated', 'out.js'))).toBe(!entry.kept)
    const stdout = join(dir, `${name}.stdout.jsonl`)
    writeFileSync(stdout, run.result.stdout)
    const pattern = entry.session
    const sessions = pattern === undefined ? [] : filesUnder(run.result.scratch).filter((file) => pattern.test(file))
    expect(sessions).toHaveLength(pattern === undefined ? 0 : 1)
    for (const transcript of [stdout, ...sessions]) {
      const row = (await checkTranscriptFile(SPEC, transcript)).expectations[0]
      if (entry.kept) expect(row, transcript).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['src/generated/out.js', 'src/generated/out.js/'] } })
      // A session file never says the run ended, so an absence over it is unknown whatever the calls.
      else if (transcript === stdout) expect(row?.verdict, transcript).toBe('ok')
      else expect(row, transcript).toMatchObject({ verdict: 'unknown', outcome: { reason: 'stream_not_closed' } })
    }
  })
})
