import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect } from 'vitest'
import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import type { ExpectationRow } from '../../src/trace/report-types.js'
import type { TraceSpec } from '../../src/trace/spec/model.js'
import { CLAUDE_CODE, CODEX, ensureHarness, GEMINI, INSTALL_TIMEOUT_MS, OPENCODE, PI, QWEN } from './harness-install.js'
import { filesUnder, freshDir, runCalls } from './harness-run.js'

/** One real harness's shell tool, the wire it is driven over, and where it writes its session file. */
export interface HarnessShell {
  readonly launch: LaunchDeclaration
  readonly wire: Wire
  /** The tool that runs a shell line, and the argument that holds the line. */
  readonly tool: string
  readonly key: string
  /** The session files the harness writes under its scratch root; none is read for opencode, whose sessions are in its database. */
  readonly session?: RegExp
}

/** Every real harness the e2e suites drive, by its shell tool. */
export const HARNESS_SHELLS: readonly HarnessShell[] = [
  { launch: CLAUDE_CODE, wire: 'anthropic-messages', tool: 'Bash', key: 'command', session: /\/projects\/[^/]+\/[0-9a-f-]{36}\.jsonl$/ },
  { launch: CODEX, wire: 'openai-responses', tool: 'exec_command', key: 'cmd', session: /\/sessions\/.*rollout-[^/]*\.jsonl$/ },
  { launch: OPENCODE, wire: 'openai-chat', tool: 'bash', key: 'command' },
  { launch: PI, wire: 'anthropic-messages', tool: 'bash', key: 'command', session: /\/sessions\/.*\.jsonl$/ },
  { launch: GEMINI, wire: 'gemini', tool: 'run_shell_command', key: 'command', session: /\/chats\/session-[^/]*\.jsonl$/ },
  { launch: QWEN, wire: 'openai-chat', tool: 'run_shell_command', key: 'command', session: /\/chats\/[0-9a-f-]{36}\.jsonl$/ },
]

/** Each harness's shell with what one suite expects of it, by adapter name. */
export function withExpected<T>(expected: Readonly<Record<string, T>>): (HarnessShell & { readonly expected: T })[] {
  return HARNESS_SHELLS.map((shell) => {
    const mine = expected[shell.launch.adapter]
    if (mine === undefined) throw new Error(`no expectation for ${shell.launch.adapter}`)
    return { ...shell, expected: mine }
  })
}

/** A shell call's arguments on a harness: the line under its key, and a description where the tool takes `command` (they ask for one). */
export function shellArguments(key: string, line: string, description: string): Record<string, string> {
  return { [key]: line, ...(key === 'command' ? { description } : {}) }
}

/** Installs each harness before the suite runs (registers its `beforeAll`); the program to run, by adapter. */
export function installedPrograms(shells: readonly HarnessShell[]): ReadonlyMap<string, string> {
  const programs = new Map<string, string>()
  beforeAll(() => {
    for (const { launch } of shells) programs.set(launch.adapter, ensureHarness(launch))
  }, INSTALL_TIMEOUT_MS)
  return programs
}

/** A fresh workspace holding `src/generated/out.js`, the file a suite's calls remove; and that file's path. */
export function workspaceWithGenerated(suite: string, name: string): { workspace: string; target: string } {
  const workspace = freshDir(suite, name, 'work')
  mkdirSync(join(workspace, 'src', 'generated'), { recursive: true })
  const target = join(workspace, 'src', 'generated', 'out.js')
  writeFileSync(target, 'export {}\n')
  return { workspace, target }
}

/** The session file the harness wrote under the run's scratch root: exactly one, or none for a harness that keeps its sessions elsewhere (opencode). */
export function sessionFilesOf(shell: HarnessShell, scratch: string): string[] {
  const pattern = shell.session
  const sessions = pattern === undefined ? [] : filesUnder(scratch).filter((file) => pattern.test(file))
  expect(sessions).toHaveLength(pattern === undefined ? 0 : 1)
  return sessions
}

/** What one transcript concluded of a one-row spec: its row, and `verdict` or `verdict:reason`. */
export interface Concluded {
  readonly transcript: string
  readonly row: ExpectationRow
  readonly said: string
}

/**
 * One shell call on a real harness, in a fresh workspace holding `src/generated/out.js`, that must
 * remove the file (`line` is given its path); then the spec's first row, over stdout and over each
 * session file the harness wrote.
 */
export async function removeGenerated(options: { suite: string; shell: HarnessShell; program: string; line: (target: string) => string; spec: TraceSpec }): Promise<Concluded[]> {
  const { suite, shell, program, spec } = options
  const name = shell.launch.adapter
  const { workspace, target } = workspaceWithGenerated(suite, name)
  const calls = [{ tool: shell.tool, args: shellArguments(shell.key, options.line(target), 'a shell line') }]
  const run = await runCalls({ suite, name, launch: shell.launch, wire: shell.wire, program, prompt: 'Tidy up.', calls, workspace })
  expect(existsSync(target)).toBe(false)
  const concluded: Concluded[] = []
  for (const transcript of [run.stdout, ...sessionFilesOf(shell, run.result.scratch)]) {
    const row = (await checkTranscriptFile(spec, transcript)).expectations[0] as ExpectationRow
    concluded.push({ transcript, row, said: `${row.verdict}${row.outcome.outcome === 'undecidable' ? `:${row.outcome.reason}` : ''}` })
  }
  return concluded
}
