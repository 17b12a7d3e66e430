import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDeclaration } from '../../adapters/launch/declaration.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CLAUDE_CODE, CODEX, ensureHarness, GEMINI, OPENCODE, QWEN } from './harness-install.js'
import { filesUnder, freshDir, runOneCall, type OneCall } from './harness-run.js'

// One `rm` call on every real harness that can refuse one, each launched as its declaration says
// with one setting changed so that it does. None ran it. Claude Code and Qwen Code list the call in
// their result record's permission_denials; opencode and Gemini CLI name it only in the call's
// error; Codex refuses an escalation under `exec`'s approval "never", its rollout answering the
// call in its own words, and stdout shows no call at all. "Nothing refused" must never hold: a gap
// where the record names the refusal, unknown where it cannot (a session file holds no terminal
// record to count refusals from). Nor must "rm ran": every record names the call it refused, so it
// is a gap (test/fixtures/refused-calls holds one run of each).
const SPEC = readSpec(`format: trace-spec/1
id: e2e/refused-calls
expectations:
  - id: nothing-refused
    expect: {permission.denied: {count: {at_most: 0}}}
  - id: rm-ran
    expect: {tool.called: {operations: [shell], subject: {glob: "proc:rm"}}}
`)
const COMMAND = 'rm -f victim.txt'

/** The declaration with `argv` rewritten word by word (a word maps to the words replacing it). */
function withArgv(launch: LaunchDeclaration, rewrite: Record<string, readonly string[]>): LaunchDeclaration {
  return { ...launch, argv: launch.argv.flatMap((word) => rewrite[word] ?? [word]) }
}

/** opencode's config with a permission rule denying `rm`. */
function opencodeDenyingRm(launch: LaunchDeclaration): LaunchDeclaration {
  const binding = launch.bindings['openai-chat']
  if (!binding) throw new Error('opencode binds the Chat Completions wire')
  const files = binding.files.map((file) => ({ ...file, content: `${JSON.stringify({ ...JSON.parse(file.content), permission: { bash: { '*': 'allow', 'rm *': 'deny' } } })}\n` }))
  return { ...launch, bindings: { ...launch.bindings, 'openai-chat': { ...binding, files } } }
}

/** Claude Code with a PreToolUse hook that blocks every Bash call (exit 2), Bash still allowed. */
function claudeHookBlockingBash(launch: LaunchDeclaration): LaunchDeclaration {
  const binding = launch.bindings['anthropic-messages']
  if (!binding) throw new Error('Claude Code binds the Anthropic Messages wire')
  const hook = { type: 'command', command: 'echo "rm is not allowed here" >&2; exit 2' }
  const settings = { path: 'claude/settings.json', content: `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } })}\n` }
  return { ...launch, bindings: { ...launch.bindings, 'anthropic-messages': { ...binding, files: [...binding.files, settings] } } }
}

/** Gemini CLI with `--policy` naming a rule that denies `rm` (above `--yolo`'s approval). */
function geminiDenyingRm(launch: LaunchDeclaration): LaunchDeclaration {
  const binding = launch.bindings['gemini']
  if (!binding) throw new Error('Gemini CLI binds the gemini wire')
  const policy = { path: 'deny-rm.toml', content: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n' }
  return { ...withArgv(launch, { '--yolo': ['--yolo', '--policy', '{root}/deny-rm.toml'] }), bindings: { ...launch.bindings, gemini: { ...binding, files: [...binding.files, policy] } } }
}

interface Case extends OneCall {
  readonly session?: RegExp
  /** The verdicts ("nothing refused", "rm ran") on stdout and on the session file (null: none is read). */
  readonly expected: { readonly stdout: string; readonly session: string | null }
}

const DESCRIBED = { command: COMMAND, description: 'remove a file' }
const CASES: readonly Case[] = [
  { name: 'claude', launch: withArgv(CLAUDE_CODE, { 'Read,Bash,Glob,Grep,Edit,Write': ['Read'] }), wire: 'anthropic-messages', tool: 'Bash', args: DESCRIBED, session: /\/projects\/[^/]+\/[0-9a-f-]{36}\.jsonl$/, expected: { stdout: 'gap gap', session: 'unknown gap' } },
  // The hook's block is a refusal too: 2.1.328 lists it in permission_denials and marks the session's answer `permission-rule`.
  { name: 'claude-hook', launch: claudeHookBlockingBash(CLAUDE_CODE), wire: 'anthropic-messages', tool: 'Bash', args: DESCRIBED, session: /\/projects\/[^/]+\/[0-9a-f-]{36}\.jsonl$/, expected: { stdout: 'gap gap', session: 'unknown gap' } },
  { name: 'qwen', launch: withArgv(QWEN, { '--yolo': [] }), wire: 'openai-chat', tool: 'run_shell_command', args: DESCRIBED, session: /\/chats\/[0-9a-f-]{36}\.jsonl$/, expected: { stdout: 'gap gap', session: 'unknown gap' } },
  { name: 'opencode', launch: opencodeDenyingRm(OPENCODE), wire: 'openai-chat', tool: 'bash', args: DESCRIBED, expected: { stdout: 'gap gap', session: null } },
  { name: 'gemini', launch: geminiDenyingRm(GEMINI), wire: 'gemini', tool: 'run_shell_command', args: DESCRIBED, session: /\/chats\/session-[^/]+\.jsonl$/, expected: { stdout: 'gap gap', session: 'unknown gap' } },
  {
    name: 'codex',
    launch: withArgv(CODEX, { 'workspace-write': ['read-only'] }),
    wire: 'openai-responses',
    tool: 'exec_command',
    args: { cmd: COMMAND, sandbox_permissions: 'require_escalated', justification: 'remove the file' },
    session: /\/sessions\/.*rollout-[^/]*\.jsonl$/,
    expected: { stdout: 'unknown gap', session: 'gap gap' },
  },
  // As declared: Codex's own command rules refuse `rm -f` under any sandbox, and only the rollout says so.
  { name: 'codex-rules', launch: CODEX, wire: 'openai-responses', tool: 'exec_command', args: { cmd: COMMAND }, session: /\/sessions\/.*rollout-[^/]*\.jsonl$/, expected: { stdout: 'unknown gap', session: 'gap gap' } },
]

const programs = new Map<string, string>()
beforeAll(() => {
  for (const { name, launch } of CASES) programs.set(name, ensureHarness(launch))
}, 900_000)

async function verdictOf(path: string): Promise<string> {
  return (await checkTranscriptFile(SPEC, path)).expectations.map((row) => row.verdict).join(' ')
}

describe('a call the harness refused, on every real harness that refuses: "nothing refused" never holds', () => {
  it.each(CASES.map((entry) => [entry.name, entry] as const))('%s', async (name, entry) => {
    const workspace = freshDir('refused-calls', name, 'work')
    writeFileSync(join(workspace, 'victim.txt'), 'still here\n')
    const ran = await runOneCall({ ...entry, suite: 'refused-calls', program: programs.get(name) as string, prompt: 'Remove victim.txt.', workspace })
    expect(existsSync(join(workspace, 'victim.txt')), 'the harness refused the call: the file is still there').toBe(true)
    const pattern = entry.session
    const sessions = pattern === undefined ? [] : filesUnder(ran.result.scratch).filter((file) => pattern.test(file))
    expect(sessions).toHaveLength(entry.expected.session === null ? 0 : 1)
    const verdicts = { stdout: await verdictOf(ran.stdout), session: sessions[0] === undefined ? null : await verdictOf(sessions[0]) }
    expect(verdicts).toEqual(entry.expected)
  })
})
