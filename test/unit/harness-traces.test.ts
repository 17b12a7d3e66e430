import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HARNESS_TRANSCRIPTS, checkHarnessTranscript } from '../helpers/harness-traces.js'

// The committed, normalised transcripts of the e2e suite's scripted runs (test/e2e/fixtures/):
// the same trace checks the e2e suite runs on the raw ones, without the binaries. Claude Code's
// session file is not committed (it carries Claude Code's own prompt text), so it is checked by
// the e2e suite only.
const FIXTURES = resolve(import.meta.dirname, '..', 'e2e', 'fixtures')
const committed = HARNESS_TRANSCRIPTS.filter((transcript) => !(transcript.harness === 'claude' && transcript.file === 'session.jsonl'))

describe('the e2e runs’ committed transcripts, converted and checked against trace specs', () => {
  it('covers Codex stdout and rollout, Claude Code stdout, the pi session, opencode stdout and export, the Gemini CLI session, Qwen Code stdout and session, all committed', () => {
    expect(committed.map((transcript) => `${transcript.harness}/${transcript.file}`)).toEqual([
      'codex/exec.jsonl',
      'codex/rollout.jsonl',
      'claude/stream.jsonl',
      'pi/session.jsonl',
      'opencode/run.jsonl',
      'opencode/export.json',
      'gemini/session.jsonl',
      'qwen/stream.jsonl',
      'qwen/session.jsonl',
    ])
    for (const transcript of committed) expect(existsSync(resolve(FIXTURES, transcript.harness, transcript.file))).toBe(true)
  })

  it.each(committed.map((transcript) => [`${transcript.harness}/${transcript.file}`, transcript] as const))('%s', async (_name, transcript) => {
    await checkHarnessTranscript(transcript, resolve(FIXTURES, transcript.harness, transcript.file))
  })
})
