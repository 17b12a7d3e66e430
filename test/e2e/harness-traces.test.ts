import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HARNESS_TRANSCRIPTS, checkHarnessTranscript } from '../helpers/harness-traces.js'
import { E2E_ROOT } from './harness-run.js'

// The transcripts the real Codex, Claude Code, pi and opencode runs just left under
// <os tmpdir>/vitest-harness-e2e/transcripts/ — stdout and session file, for the recorded run and
// both replays — converted by their adapters and checked against our own trace specs
// (test/e2e/fixtures/*.trace.yaml). This file runs after the harness suites (the e2e
// config's sequencer puts it last).
const RUNS = ['record', 'replay-1', 'replay-2'] as const

describe('the real harness runs, read from stdout and session file, checked against trace specs', () => {
  const cases = RUNS.flatMap((run) => HARNESS_TRANSCRIPTS.map((transcript) => [`${transcript.harness}/${run}/${transcript.file}`, run, transcript] as const))

  it.each(cases)('%s', async (_name, run, transcript) => {
    const path = join(E2E_ROOT, 'transcripts', transcript.harness, run, transcript.file)
    expect(existsSync(path), `${path} is left by ${transcript.harness}.test.ts; run the whole e2e suite`).toBe(true)
    await checkHarnessTranscript(transcript, path)
  })
})
