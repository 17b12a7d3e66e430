import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { convertTranscript } from '../../adapters/transcript/read.js'
import type { Emission } from '../../src/events/types.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import type { TraceSpec } from '../../src/trace/spec/model.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { CLAUDE_CODE, CODEX, ensureHarness, OPENCODE, QWEN } from './harness-install.js'
import { convertPath } from '../helpers/project.js'
import { E2E_ROOT, filesUnder, freshDir, runDeclaredLaunch } from './harness-run.js'
import { shellArguments } from './harness-shells.js'

// Shell lines real harnesses run, each hiding what it does from a naive reader: `find -exec rm`
// (the escaped `;` ends -exec), an append through a redirection, a file written through a
// here-document whose body names a program that never runs; then Codex's apply_patch run in a
// shell call's place, opencode's own apply_patch, `rm` typed into a shell through `write_stdin`,
// and `rm` run by Qwen Code's `exec` code. The workspace afterwards proves what ran; the checker must see the same, or say
// it cannot.
const LINES = ["find . -name '*.tmp' -exec rm {} \\;", 'echo note >> .engineering/notes.md', "cat > plan.md <<'EOF'\npytest -q\nEOF"]

const SPEC = readSpec(`format: trace-spec/1
id: e2e/shell-subjects
expectations:
  - id: no-rm
    expect: {tool.absent: {subject: {equals: "proc:rm"}}}
  - id: the-store-untouched
    expect: {tool.absent: {subject: {glob: "file:.engineering/*"}}}
  - id: the-tests-ran
    expect: {tool.called: {subject: {equals: "proc:pytest"}}}
`)

const programs = new Map<string, string>()
beforeAll(() => {
  for (const launch of [CLAUDE_CODE, CODEX, QWEN, OPENCODE]) programs.set(launch.adapter, ensureHarness(launch))
}, 900_000)

/** One call per line of `tool` with the line under `key`, then an answer. */
function lineTurns(tool: string, key: string, lines: readonly string[]): unknown[] {
  const calls = lines.map((line) => ({ tool_calls: [{ name: tool, arguments: shellArguments(key, line, 'a shell line') }] }))
  return [...calls, { text: 'Done.' }]
}

const bashTurns = (lines: readonly string[]): unknown[] => lineTurns('Bash', 'command', lines)

function runLines(launch: LaunchDeclaration, wire: Wire, tool: string, key: string, lines: readonly string[], name: string = launch.adapter): Promise<{ workspace: string; stdout: string; scratch: string }> {
  return runTurns(launch, wire, lineTurns(tool, key, lines), name)
}

/** Runs the scripted turns in a workspace holding `scratch.tmp`, an empty `.engineering/` and `files` (name → text). */
async function runTurns(
  launch: LaunchDeclaration,
  wire: Wire,
  turns: readonly unknown[],
  name: string,
  files: Readonly<Record<string, string>> = {},
  model?: string,
): Promise<{ workspace: string; stdout: string; scratch: string }> {
  const dir = join(E2E_ROOT, 'shell-subjects')
  mkdirSync(dir, { recursive: true })
  const scenario = join(dir, `${name}.json`)
  writeFileSync(scenario, JSON.stringify({ scenario: `shell-subjects-${name}`, turns, untooled: { text: 'A title' } }))
  const workspace = freshDir('shell-subjects', name, 'work')
  for (const [file, text] of Object.entries({ 'scratch.tmp': 'left over\n', ...files })) writeFileSync(join(workspace, file), text)
  mkdirSync(join(workspace, '.engineering'))
  const ran = await runDeclaredLaunch({
    launch,
    program: programs.get(launch.adapter) as string,
    wire,
    serveArgs: ['--scenario', scenario],
    label: `shell-subjects-${name}`,
    prompt: 'Tidy up and write the plan.',
    workspace,
    scratch: freshDir('shell-subjects', name, 'root'),
    ...(model === undefined ? {} : { model }),
  })
  expect(ran.result.exitCode, ran.result.stderr).toBe(0)
  return { workspace, stdout: ran.result.stdout, scratch: ran.result.scratch }
}

/** What the lines did to the workspace: `rm` ran, the store was written, the plan holds the here-document. */
function expectTheLinesRan(workspace: string): void {
  expect(existsSync(join(workspace, 'scratch.tmp'))).toBe(false)
  expect(readFileSync(join(workspace, '.engineering', 'notes.md'), 'utf8')).toBe('note\n')
  expect(readFileSync(join(workspace, 'plan.md'), 'utf8')).toBe('pytest -q\n')
}

async function verdictsOf(spec: TraceSpec, stdout: string, name: string): Promise<Record<string, string>> {
  const path = join(E2E_ROOT, 'shell-subjects', `${name}.stdout.jsonl`)
  writeFileSync(path, stdout)
  const report = await checkTranscriptFile(spec, path)
  return Object.fromEntries(report.expectations.map((row) => [row.id, row.verdict]))
}

const verdicts = (stdout: string, name: string): Promise<Record<string, string>> => verdictsOf(SPEC, stdout, name)

describe('what real shell lines did, on the real harnesses, and what the checker concludes', () => {
  it('Claude Code: rm ran, the store was written, pytest never ran — three gaps on a closed stream', async () => {
    const { workspace, stdout } = await runLines(CLAUDE_CODE, 'anthropic-messages', 'Bash', 'command', LINES)
    expectTheLinesRan(workspace)
    expect(await verdicts(stdout, 'claude')).toEqual({ 'no-rm': 'gap', 'the-store-untouched': 'gap', 'the-tests-ran': 'gap' })
  })

  it('Claude Code: rm run by a trap and tests run as a Python module are read; rm named by a variable leaves "no rm" unknown', async () => {
    const spec = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-rm\n    expect: {tool.absent: {subject: {equals: "proc:rm"}}}\n  - id: the-tests-ran\n    expect: {tool.called: {subject: {equals: "proc:unittest"}}}\n')
    // A test module that leaves a mark when it runs: the workspace proves `python3 -m unittest` ran it.
    const marker = "import pathlib, unittest\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pathlib.Path('ran.txt').write_text('yes')\n"
    const lines = ["trap 'rm -f scratch.tmp' EXIT; true", 'python3 -m unittest -q test_marker']
    const hidden = await runTurns(CLAUDE_CODE, 'anthropic-messages', bashTurns(lines), 'claude-hidden', { 'test_marker.py': marker })
    expect(existsSync(join(hidden.workspace, 'scratch.tmp'))).toBe(false)
    expect(readFileSync(join(hidden.workspace, 'ran.txt'), 'utf8')).toBe('yes')
    expect(await verdictsOf(spec, hidden.stdout, 'claude-hidden')).toEqual({ 'no-rm': 'gap', 'the-tests-ran': 'ok' })
    // The program a variable names is the shell's to decide: no reader of the line can see it.
    const variable = await runTurns(CLAUDE_CODE, 'anthropic-messages', bashTurns(['t=rm; $t scratch.tmp']), 'claude-variable')
    expect(existsSync(join(variable.workspace, 'scratch.tmp'))).toBe(false)
    const path = join(E2E_ROOT, 'shell-subjects', 'claude-variable.stdout.jsonl')
    writeFileSync(path, variable.stdout)
    const converted = join(E2E_ROOT, 'shell-subjects', 'claude-variable.events.jsonl')
    let text = ''
    for await (const chunk of convertTranscript(path, { run: 'e2e' })) text += chunk
    writeFileSync(converted, text)
    const events = text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as { event: string })
    expect(events.find((event) => event.event === 'tool.requested')).toMatchObject({ name: 'Bash', subjects: ['proc:$t'] })
    for (const transcript of [path, converted]) {
      const row = (await checkTranscriptFile(spec, transcript)).expectations.find((candidate) => candidate.id === 'no-rm')
      expect(row).toMatchObject({ verdict: 'unknown', outcome: { reason: 'programs_unnamed', programs: ['$t'] } })
    }
  })

  it('Claude Code and Codex: a file a coreutil is given is a subject; one a program no reader reads is given leaves the store undecided', async () => {
    const store = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: the-store-untouched\n    expect: {tool.absent: {subject: {glob: "file:*.engineering/*"}}}\n')
    const copied = await runTurns(CLAUDE_CODE, 'anthropic-messages', bashTurns(['cp scratch.tmp .engineering/copy.md']), 'claude-coreutil')
    expect(readFileSync(join(copied.workspace, '.engineering', 'copy.md'), 'utf8')).toBe('left over\n')
    expect(await verdictsOf(store, copied.stdout, 'claude-coreutil')).toEqual({ 'the-store-untouched': 'gap' })
    // A glob names no file, but it is written with the store's name: the note Python left is gone, and the row cannot be ok.
    const globbed = await runTurns(CLAUDE_CODE, 'anthropic-messages', bashTurns([`python3 -c "open('.engineering/old.md', 'w')"`, 'rm .engineering/*.md']), 'claude-glob')
    expect(existsSync(join(globbed.workspace, '.engineering', 'old.md'))).toBe(false)
    const globPath = join(E2E_ROOT, 'shell-subjects', 'claude-glob.stdout.jsonl')
    writeFileSync(globPath, globbed.stdout)
    expect((await checkTranscriptFile(store, globPath)).expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['.engineering/*.md', '.engineering/old.md'] } })
    // A file Python opened (its script a word, then a here-document), and `touch` inside the folder `cd` entered
    // (`.engineering/made.md`): the store was written every time.
    const hidden = [`python3 -c "open('.engineering/py.md', 'w').write('x')"`, "python3 - <<'PY'\nopen('.engineering/here.md', 'w').write('y')\nPY", 'cd .engineering && touch made.md']
    const runs = [
      { name: 'claude-unread', ran: await runTurns(CLAUDE_CODE, 'anthropic-messages', bashTurns(hidden), 'claude-unread') },
      { name: 'codex-unread', ran: await runLines(CODEX, 'openai-responses', 'exec_command', 'cmd', hidden, 'codex-unread') },
    ]
    for (const { name, ran } of runs) {
      expect(existsSync(join(ran.workspace, '.engineering', 'made.md')), name).toBe(true)
      expect(readFileSync(join(ran.workspace, '.engineering', 'py.md'), 'utf8'), name).toBe('x')
      expect(readFileSync(join(ran.workspace, '.engineering', 'here.md'), 'utf8'), name).toBe('y')
      const path = join(E2E_ROOT, 'shell-subjects', `${name}.stdout.jsonl`)
      writeFileSync(path, ran.stdout)
      const row = (await checkTranscriptFile(store, path)).expectations[0]
      expect(row, name).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['.engineering/', '.engineering/here.md', '.engineering/made.md', '.engineering/py.md'] } })
    }
  })

  it('Claude Code: code written through the shell before the test leaves "tests before code" undecided, where it passed', async () => {
    const order = readSpec(
      'format: trace-spec/1\nid: t\nexpectations:\n  - id: tests-first\n    expect: {order: {first: {operations: [file.write, file.edit], subject: {glob: "file:*tests/*"}}, before: {operations: [file.write, file.edit], subject: {glob: "file:*src/*"}}}}\n',
    )
    // The workspace runTurns makes: Claude Code's Write takes an absolute path.
    const workspace = join(E2E_ROOT, 'shell-subjects', 'claude-shell-first', 'work')
    const write = (path: string, content: string) => ({ tool_calls: [{ name: 'Write', arguments: { file_path: join(workspace, path), content } }] })
    const turns = [
      ...bashTurns(["mkdir -p src tests && cat > src/a.ts <<'EOF'\nexport const a = 1\nEOF"]).slice(0, 1),
      write('tests/a.test.ts', 'import { a } from "../src/a"\n'),
      write('src/b.ts', 'export const b = 2\n'),
      { text: 'Done.' },
    ]
    const ran = await runTurns(CLAUDE_CODE, 'anthropic-messages', turns, 'claude-shell-first')
    expect(ran.workspace).toBe(workspace)
    // The code reached src/ before the test existed: the shell wrote it, then Write wrote the test and more code.
    for (const file of ['src/a.ts', 'tests/a.test.ts', 'src/b.ts']) expect(existsSync(join(workspace, file)), file).toBe(true)
    const path = join(E2E_ROOT, 'shell-subjects', 'claude-shell-first.stdout.jsonl')
    writeFileSync(path, ran.stdout)
    // `mkdir -p src` created the folder too: what lies in it is what the selector names.
    expect((await checkTranscriptFile(order, path)).expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: ['src', 'src/a.ts'] } })
  })

  it('Codex: the same lines through exec_command give the same three gaps', async () => {
    const { workspace, stdout } = await runLines(CODEX, 'openai-responses', 'exec_command', 'cmd', LINES)
    expectTheLinesRan(workspace)
    expect(await verdicts(stdout, 'codex')).toEqual({ 'no-rm': 'gap', 'the-store-untouched': 'gap', 'the-tests-ran': 'gap' })
  })

  it('Codex: an exec_command that is only an apply_patch here-document is applied by Codex, and both its records read it as the edit', async () => {
    const patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\nEOF"
    const { workspace, stdout, scratch } = await runLines(CODEX, 'openai-responses', 'exec_command', 'cmd', [patch], 'codex-patch')
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hi\n')
    const stdoutPath = join(E2E_ROOT, 'shell-subjects', 'codex-patch.stdout.jsonl')
    writeFileSync(stdoutPath, stdout)
    const rollouts = filesUnder(join(scratch, 'codex-home', 'sessions')).filter((file) => file.endsWith('.jsonl'))
    expect(rollouts).toHaveLength(1)
    const calls = (events: readonly Emission[]) => events.flatMap((event) => (event.event === 'tool.requested' ? [{ name: event.name, operations: event.operations }] : []))
    // `exec --json` shows the file change Codex made, not a command; the rollout records the call the model made.
    expect(calls(await convertPath(stdoutPath))).toEqual([{ name: 'file_change', operations: ['file.edit'] }])
    const rollout = (await convertPath(rollouts[0] as string)).filter((event) => event.event === 'tool.requested')
    expect(rollout).toEqual([expect.objectContaining({ name: 'apply_patch', operations: ['file.edit'], subjects: ['file:hello.txt'] })])
  })

  it('opencode: a GPT model is offered apply_patch, and the file its patchText adds to the store is a subject — the store row is a gap', async () => {
    // opencode 1.18.18 offers apply_patch in place of edit and write to a model whose id holds `gpt-` (not gpt-4, not oss).
    const patchText = '*** Begin Patch\n*** Add File: .engineering/notes.md\n+noted\n*** End Patch'
    const { workspace, stdout } = await runTurns(OPENCODE, 'openai-chat', [{ tool_calls: [{ name: 'apply_patch', arguments: { patchText } }] }, { text: 'Done.' }], 'opencode-patch', {}, 'gpt-5-loopback')
    expect(readFileSync(join(workspace, '.engineering', 'notes.md'), 'utf8')).toBe('noted\n')
    const stdoutPath = join(E2E_ROOT, 'shell-subjects', 'opencode-patch.stdout.jsonl')
    writeFileSync(stdoutPath, stdout)
    const calls = (await convertPath(stdoutPath)).flatMap((event) => (event.event === 'tool.requested' ? [{ name: event.name, operations: event.operations, subjects: event.subjects }] : []))
    expect(calls).toEqual([{ name: 'apply_patch', operations: ['file.edit'], subjects: ['file:.engineering/notes.md'] }])
    expect((await verdicts(stdout, 'opencode-patch'))['the-store-untouched']).toBe('gap')
  })

  it('Codex: rm typed into shells through write_stdin is not in exec --json, so "no rm" is unknown there; the rollout names rm', async () => {
    const shell = { tool_calls: [{ name: 'exec_command', arguments: { cmd: 'bash', tty: true, yield_time_ms: 500 } }] }
    // The session id Codex hands out is random: the scripted model reads it from the last output.
    const type = (chars: string) => ({ tool_calls: [{ name: 'write_stdin', arguments: { session_id: { $from_result: 'session ID (\\d+)', as: 'number' }, chars, yield_time_ms: 1000 } }] })
    // One shell is left running; the other is told to exit, so exec --json shows it complete.
    const { workspace, stdout, scratch } = await runTurns(CODEX, 'openai-responses', [shell, type('rm scratch.tmp\n'), shell, type('rm other.tmp; exit\n'), { text: 'Done.' }], 'codex-stdin', { 'other.tmp': 'left over\n' })
    expect(existsSync(join(workspace, 'scratch.tmp'))).toBe(false)
    expect(existsSync(join(workspace, 'other.tmp'))).toBe(false)
    const stdoutPath = join(E2E_ROOT, 'shell-subjects', 'codex-stdin.stdout.jsonl')
    writeFileSync(stdoutPath, stdout)
    const events = await convertPath(stdoutPath)
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && event.subjects)).toEqual([['proc:bash'], ['proc:bash']])
    expect(events.filter((event) => event.event === 'warning' && event.code === 'process_input_unseen').map((event) => event.event === 'warning' && /was still running|reads what to run/.exec(event.message)?.[0])).toEqual(['was still running', 'reads what to run'])
    const report = await checkTranscriptFile(SPEC, stdoutPath)
    expect(report.expectations.find((row) => row.id === 'no-rm')).toMatchObject({ verdict: 'unknown', outcome: { reason: 'process_input_unseen', processes: 2 } })
    const rollouts = filesUnder(join(scratch, 'codex-home', 'sessions')).filter((file) => file.endsWith('.jsonl'))
    const typed = (await convertPath(rollouts[0] as string)).filter((event) => event.event === 'tool.requested' && event.name === 'write_stdin')
    expect(typed.map((event) => event.event === 'tool.requested' && event.subjects)).toEqual([
      ['proc:rm', 'file:scratch.tmp'],
      ['proc:rm', 'file:other.tmp', 'proc:exit'],
    ])
  })

  it('Qwen Code in code mode: rm run by exec’s JavaScript is not in the stream, so "no rm" is unknown there; the session file holds the call', async () => {
    // `tools.codeModeOnly` offers `exec` (JavaScript calling the tools); the launch's settings otherwise.
    const binding = QWEN.bindings['openai-chat']
    const settings = binding?.files?.[0]
    if (!binding || !settings) throw new Error('the Qwen Code launch writes its settings file')
    const codeMode = JSON.stringify({ ...(JSON.parse(settings.content) as { tools: object }), tools: { ...(JSON.parse(settings.content) as { tools: object }).tools, codeModeOnly: true } })
    const launch = { ...QWEN, bindings: { 'openai-chat': { ...binding, files: [{ ...settings, content: `${codeMode}\n` }] } } } as LaunchDeclaration
    const source = "const r = await tools.run_shell_command({ command: 'rm scratch.tmp', description: 'remove' }); return r"
    const { workspace, stdout, scratch } = await runTurns(launch, 'openai-chat', [{ tool_calls: [{ name: 'exec', arguments: { source } }] }, { text: 'Done.' }], 'qwen-code-mode')
    expect(existsSync(join(workspace, 'scratch.tmp'))).toBe(false)
    const stdoutPath = join(E2E_ROOT, 'shell-subjects', 'qwen-code-mode.stdout.jsonl')
    writeFileSync(stdoutPath, stdout)
    const events = await convertPath(stdoutPath)
    expect(events.filter((event) => event.event === 'tool.requested').map((event) => event.event === 'tool.requested' && event.name)).toEqual(['exec'])
    expect(events.some((event) => event.event === 'warning' && event.code === 'nested_calls_unseen')).toBe(true)
    // `exec` is a tool no table classifies, and its code's calls are elsewhere: either makes the absence unknown.
    expect((await checkTranscriptFile(SPEC, stdoutPath)).expectations.find((row) => row.id === 'no-rm')?.verdict).toBe('unknown')
    const byName = readSpec('format: trace-spec/1\nid: t\nexpectations:\n  - id: no-shell\n    expect: {tool.absent: {tools: [run_shell_command]}}\n')
    expect((await checkTranscriptFile(byName, stdoutPath)).expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'nested_calls_unseen', calls: 1 } })
    const sessions = filesUnder(join(scratch, 'home', '.qwen', 'projects')).filter((file) => file.includes('/chats/'))
    expect(sessions).toHaveLength(1)
    expect((await checkTranscriptFile(SPEC, sessions[0] as string)).expectations.find((row) => row.id === 'no-rm')?.verdict).toBe('gap')
  })
})
