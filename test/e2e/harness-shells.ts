import type { LaunchDeclaration, Wire } from '../../adapters/launch/declaration.js'
import { CLAUDE_CODE, CODEX, GEMINI, OPENCODE, PI, QWEN } from './harness-install.js'

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
