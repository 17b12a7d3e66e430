import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { readSpec } from '../../src/trace/spec/read.js'

// A Codex rollout's token reports carry the account's limits: a primary (five-hour) and a
// secondary (weekly) window, each `used_percent` from 0 to 100. `rate_limit.utilization` is a
// fraction, as Claude Code writes it. The percent was read as the fraction, so "at least half
// used" held over a session 15% into its window; and only the primary was read, so "at most 1%
// used" held over one whose weekly window was 2% used.
const WILD = resolve(import.meta.dirname, '../fixtures/wild/codex-rollout')
const SPEC = readSpec(`format: trace-spec/1
id: rollout-rate-limits
expectations:
  - id: half-used
    expect: {rate_limit.utilization: {at_least: 0.5}}
  - id: barely-used
    expect: {rate_limit.utilization: {at_most: 0.01}}
`)

async function rows(file: string): Promise<string[]> {
  const report = await checkTranscriptFile(SPEC, join(WILD, file))
  return report.expectations.map((row) => (row.outcome.outcome === 'undecidable' ? `unknown:${row.outcome.reason}` : `${row.outcome.outcome}: ${row.outcome.note}`))
}

describe('a rollout’s rate limit is the more used of its windows, as a fraction', () => {
  it.each([
    ['kvsankar_real-session-01-0.135.0.jsonl', 0.15, 'primary 15%, weekly 5%'],
    ['hyperweave_codex-session-0.128.0.jsonl', 0.1, 'primary 4%, weekly 10%'],
    ['duet_codex-desktop-0.133.0-alpha.1.jsonl', 0.02, 'primary 0%, weekly 2%'],
  ])('%s: %s (%s)', async (file, utilization) => {
    expect(await rows(file)).toEqual([`gap: utilization = ${utilization}, at least 0.5`, `gap: utilization = ${utilization}, at most 0.01`])
  })
})
