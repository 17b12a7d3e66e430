import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { filesUnder, runOneCall } from './harness-run.js'
import { installedPrograms, shellArguments, withExpected } from './harness-shells.js'

// One shell call whose command fails (`exit 3` after printing), on every real harness. Each
// harness ran it and went on; what its records say of the failure differs: Claude Code, Codex, pi
// and Qwen Code mark the result an error, opencode 1.18.18 completes it and keeps `metadata.exit: 3`,
// Gemini CLI 0.61 answers `status: success` on stdout and names `Exit Code: 3` only in its session
// file. "No command failed" must never hold over any of them: a gap where the record says the
// command failed, unknown where it does not say.
const SPEC = readSpec(`format: trace-spec/1
id: e2e/failing-commands
expectations:
  - id: no-command-failed
    expect: {tool.failed: {operations: [shell], count: {at_most: 0}}}
`)
const COMMAND = "sh -c 'echo out; exit 3'"

// The verdicts on stdout and on the session file (none for opencode, whose sessions are in its database).
const CASES = withExpected<{ readonly stdout: string; readonly session: string | null }>({
  claude: { stdout: 'gap', session: 'gap' },
  codex: { stdout: 'gap', session: 'gap' },
  opencode: { stdout: 'gap', session: null },
  pi: { stdout: 'gap', session: 'gap' },
  gemini: { stdout: 'unknown', session: 'gap' },
  qwen: { stdout: 'gap', session: 'gap' },
})

const programs = installedPrograms(CASES)

async function verdictOf(path: string): Promise<string | undefined> {
  return (await checkTranscriptFile(SPEC, path)).expectations[0]?.verdict
}

describe('a command that failed, on every real harness: "no command failed" never holds', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const args = shellArguments(entry.key, COMMAND, 'a command that fails')
    const ran = await runOneCall({ suite: 'failing-commands', name, launch: entry.launch, program: programs.get(name) as string, wire: entry.wire, tool: entry.tool, args, prompt: 'Run the command.' })
    const pattern = entry.session
    const sessions = pattern === undefined ? [] : filesUnder(ran.result.scratch).filter((file) => pattern.test(file))
    expect(sessions).toHaveLength(entry.expected.session === null ? 0 : 1)
    const verdicts = { stdout: await verdictOf(ran.stdout), session: sessions[0] === undefined ? null : await verdictOf(sessions[0]) }
    expect(verdicts).toEqual(entry.expected)
  })
})
