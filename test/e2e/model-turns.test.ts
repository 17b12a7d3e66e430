import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { filesUnder, runOneCall } from './harness-run.js'
import { installedPrograms, shellArguments, withExpected } from './harness-shells.js'

// One shell call, then the answer: two model requests, two model turns, on every real harness.
// "At most one request" and "at most one turn" must never hold over what any of them wrote: a gap
// where the record marks each request (or counts the turns), unknown where it sums them (Codex
// `exec --json`, Gemini CLI's stdout: `requests_unmarked`) or counts turns by the user's prompts
// (Codex, Gemini CLI: no `num_turns`), or has no terminal record (the session files). The run's
// input tokens are the same wherever a terminal record states them: each request was served 42
// prompt tokens, 7 of them cached, which the OpenAI and Gemini wires count in the prompt (70
// uncached over the run) and the Anthropic wire does not (84).
const spec = (inputTokens: number) =>
  readSpec(`format: trace-spec/1
id: e2e/model-turns
expectations:
  - id: one-request
    expect: {api_requests: {count: {at_most: 1}}}
  - id: one-turn
    expect: {turns: {count: {at_most: 1}}}
  - id: input-tokens
    expect: {tokens.input: {count: {exactly: ${inputTokens}}}}
`)

// The run's uncached input tokens, as the harness's wire counts them, and the verdicts (request
// count, turn count, input tokens) on stdout and on the session file.
const CASES = withExpected<{ readonly inputTokens: number; readonly stdout: readonly string[]; readonly session: readonly string[] | null }>({
  claude: { inputTokens: 84, stdout: ['gap', 'gap', 'ok'], session: ['gap', 'unknown', 'unknown'] },
  codex: { inputTokens: 70, stdout: ['unknown', 'unknown', 'ok'], session: ['gap', 'unknown', 'ok'] },
  opencode: { inputTokens: 70, stdout: ['gap', 'gap', 'ok'], session: null },
  pi: { inputTokens: 84, stdout: ['gap', 'gap', 'ok'], session: ['gap', 'unknown', 'unknown'] },
  gemini: { inputTokens: 70, stdout: ['unknown', 'unknown', 'ok'], session: ['gap', 'unknown', 'unknown'] },
  qwen: { inputTokens: 70, stdout: ['gap', 'gap', 'ok'], session: ['gap', 'unknown', 'unknown'] },
})

const programs = installedPrograms(CASES)

async function verdictsOf(path: string, inputTokens: number): Promise<string[]> {
  return (await checkTranscriptFile(spec(inputTokens), path)).expectations.map((row) => row.verdict)
}

describe('a run of two model requests, on every real harness: "at most one" never holds, and its input tokens are the same', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const args = shellArguments(entry.key, 'echo hi', 'say hi')
    const ran = await runOneCall({ suite: 'model-turns', name, launch: entry.launch, program: programs.get(name) as string, wire: entry.wire, tool: entry.tool, args, prompt: 'Run the command.' })
    const pattern = entry.session
    const sessions = pattern === undefined ? [] : filesUnder(ran.result.scratch).filter((file) => pattern.test(file))
    expect(sessions).toHaveLength(entry.expected.session === null ? 0 : 1)
    const { inputTokens, ...expected } = entry.expected
    const verdicts = { stdout: await verdictsOf(ran.stdout, inputTokens), session: sessions[0] === undefined ? null : await verdictsOf(sessions[0], inputTokens) }
    expect(verdicts).toEqual(expected)
  })
})
