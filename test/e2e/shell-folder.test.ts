import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { runCalls } from './harness-run.js'
import { installedPrograms, sessionFilesOf, shellArguments, withExpected, workspaceWithGenerated } from './harness-shells.js'

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

// Whether the harness's shell kept the folder: the file is gone.
const CASES = withExpected<{ readonly kept: boolean }>({
  claude: { kept: true },
  codex: { kept: false },
  opencode: { kept: false },
  pi: { kept: false },
  gemini: { kept: false },
  qwen: { kept: false },
})

const programs = installedPrograms(CASES)

describe('`cd src`, then `rm generated/out.js`, on every real harness', () => {
  it.each(CASES.map((entry) => [entry.launch.adapter, entry] as const))('%s', async (name, entry) => {
    const { workspace, target } = workspaceWithGenerated('shell-folder', name)
    const calls = ['cd src', 'rm generated/out.js'].map((line) => ({ tool: entry.tool, args: shellArguments(entry.key, line, 'a shell line') }))
    const run = await runCalls({ suite: 'shell-folder', name, launch: entry.launch, wire: entry.wire, program: programs.get(name) as string, prompt: 'Tidy up.', calls, workspace })
    const { kept } = entry.expected
    expect(existsSync(target)).toBe(!kept)
    const sessions = sessionFilesOf(entry, run.result.scratch)
    for (const transcript of [run.stdout, ...sessions]) {
      const row = (await checkTranscriptFile(SPEC, transcript)).expectations[0]
      if (kept) expect(row, transcript).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['src/generated/out.js', 'src/generated/out.js/'] } })
      // A session file never says the run ended, so an absence over it is unknown whatever the calls.
      else if (transcript === run.stdout) expect(row?.verdict, transcript).toBe('ok')
      else expect(row, transcript).toMatchObject({ verdict: 'unknown', outcome: { reason: 'stream_not_closed' } })
    }
  })
})
