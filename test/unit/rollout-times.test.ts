import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// A Codex rollout of several prompts writes one `task_complete` per turn, each timing its own turn.
// The run's time was the last one's, so a public session of seven turns and 833 s passed "done in a
// minute" on its last turn's 28 s, and its time to first token was the last turn's too.
const WILD = resolve(import.meta.dirname, '../fixtures/wild/codex-rollout')
const SPEC = readSpec(`format: trace-spec/1
id: rollout-times
expectations:
  - id: within-a-minute
    expect: {duration.total: {ms: {at_most: 60000}}}
  - id: first-token-quick
    expect: {ttft: {ms: {at_most: 6000}}}
`)

async function rows(file: string): Promise<string[]> {
  const report = await checkTranscriptFile(SPEC, join(WILD, file))
  return report.expectations.map((row) => (row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : `${row.outcome.outcome}: ${row.outcome.note}`))
}

describe('a rollout’s time is its turns’ time added up', () => {
  it('seven turns of Codex Desktop 0.133 took 833,420 ms, not the last turn’s 27,826; which turn’s first token is unknown', async () => {
    expect(await rows('duet_codex-desktop-0.133.0-alpha.1.jsonl')).toEqual(['gap: duration_ms = 833420, at most 60000', 'unknown:field_absent'])
  })

  it('five turns of Codex CLI 0.128 took 266,801 ms, not the last turn’s 14,989', async () => {
    expect((await rows('hyperweave_codex-session-0.128.0.jsonl'))[0]).toBe('gap: duration_ms = 266801, at most 60000')
  })

  it('a session of one turn has that turn’s time and its time to first token', async () => {
    expect(await rows('kvsankar_real-session-01-0.135.0.jsonl')).toEqual(['ok: duration_ms = 6074, at most 60000', 'ok: ttft_ms = 5828, at most 6000'])
  })

  it('two turns started and one completed: the run was cut short mid-turn, so it has no end record and its time is unknown, not the one turn’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-rollout-times-'))
    const line = (second: number, type: string, payload: object) => JSON.stringify({ timestamp: `2026-12-03T10:00:0${second}.000Z`, type, payload })
    const lines = [
      line(0, 'session_meta', { id: 's', cwd: '/w', cli_version: '0.135.0' }),
      line(1, 'event_msg', { type: 'task_started', turn_id: 't1' }),
      line(2, 'event_msg', { type: 'task_complete', turn_id: 't1', duration_ms: 1000, time_to_first_token_ms: 500 }),
      line(3, 'event_msg', { type: 'task_started', turn_id: 't2' }),
    ]
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, `${lines.join('\n')}\n`)
    const report = await checkTranscriptFile(SPEC, path, { from: 'codex/rollout-jsonl' })
    expect(report.expectations.map((row) => row.outcome)).toMatchObject([
      { outcome: 'undecidable', reason: 'no_run_outcome' },
      { outcome: 'undecidable', reason: 'no_run_outcome' },
    ])
  })
})
