import { createReadStream, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/events/digest.js'
import { inspectTranscript, inspectTranscriptFile } from '../../src/trace/census.js'
import { checkTranscriptFile } from '../../src/trace/check/check.js'
import { TraceTranscriptError } from '../../src/trace/errors.js'
import { readSpec } from '../../src/trace/spec/read.js'
import { referenceFile } from './paths.js'

/**
 * What counts as a closed stream, against upstream's own fixtures. `tool.absent` is the kind that
 * needs the statement: a match is a gap on any stream, but "no match" is `ok` only when the
 * producer said the transcript is the whole run.
 */
const ABSENT = readSpec(`format: trace-spec/1
id: reference/closure
expectations:
  - id: never-wrote
    expect: {tool.absent: {tool: Write}}
  - id: read-a-test
    expect: {tool.called: {operations: [file.read], subject: {glob: "file:*/tests/*"}}}
`)

const stream = (name: string) => referenceFile('aep', 'streams', name)

describe('closure, by upstream’s fixtures', () => {
  it('a metaharness stream whose last line is stream.closed is closed', async () => {
    const report = await checkTranscriptFile(ABSENT, stream('metaharness-closed-stream.jsonl'))
    // The marker counts 7 events at seq 7 (inconsistent by the a17 completeness rule, which wants
    // 6), and still closes the stream for the checker: its rule is "the last line is the marker".
    expect(report.expectations[0]?.outcome).toEqual({
      outcome: 'ok',
      events: [],
      note: 'no call matches Write, and the run closed the stream (stream.closed, completed), over 1 unread event(s) the producer accounted for',
    })
    expect(report.expectations[1]?.outcome).toMatchObject({ outcome: 'ok', events: [2] })
    expect((await inspectTranscript(createReadStream(stream('metaharness-closed-stream.jsonl')))).closure).toEqual({ witness: 'closing_event', events: 7, reason: 'completed' })
  })

  it('a metaharness stream attested complete in session.started, with no marker, is closed', async () => {
    const report = await checkTranscriptFile(ABSENT, stream('metaharness-attested-complete-stream.jsonl'))
    expect(report.expectations[0]?.outcome).toEqual({
      outcome: 'ok',
      events: [],
      note: 'no call matches Write, and the run closed the stream (hermetic.stream_complete, completed), over 1 unread event(s) the producer accounted for',
    })
    expect((await inspectTranscript(createReadStream(stream('metaharness-attested-complete-stream.jsonl')))).closure).toEqual({ witness: 'attestation', events: 6, reason: 'completed' })
  })

  it('a Codex rollout read as stream-json (`--from claude-code/stream-json`) is upstream’s reading: every line opaque, never closed', async () => {
    // Upstream's check dispatches only two readers (reader.rs): the first line carries no
    // metaharness format tag, so the rollout goes to the stream-json reader, which knows none of
    // its record types. Twelve opaque events, no terminal record last: nothing closes it.
    const report = await checkTranscriptFile(ABSENT, stream('codex-rollout.jsonl'), { from: 'claude-code/stream-json' })
    expect(report.adapter.name).toBe('claude-code/stream-json')
    expect(report.transcript_digest).toBe(sha256Hex(readFileSync(stream('codex-rollout.jsonl'))))
    expect(report.expectations[0]?.outcome).toEqual({ outcome: 'undecidable', reason: 'stream_not_closed', markers: ["the run's terminal record as the transcript's last line"] })
    expect(report.expectations[1]?.outcome).toMatchObject({ outcome: 'undecidable', reason: 'opaque_events', events: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] })
    const census = await inspectTranscriptFile(stream('codex-rollout.jsonl'), { from: 'claude-code/stream-json' })
    expect(census).toMatchObject({ events: 12, opaque_events: 12, events_by_family: { opaque: 12 }, closure: null })
  })

  it('a Codex rollout read by default is converted by its adapter: real events, and still never closed', async () => {
    // Detected as codex/rollout-jsonl and converted: the calls are calls now (a shell run of
    // `cargo test`, an apply_patch edit), but a rollout has no record that proves the run ended,
    // so the conversion writes no stream.closed and an absence stays undecidable.
    const report = await checkTranscriptFile(ABSENT, stream('codex-rollout.jsonl'))
    expect(report.adapter).toEqual({ name: 'codex/rollout-jsonl via metaharness/event-stream', written_against: ['metaharness.event/1'] })
    // The digest is the original file's, as upstream defines it: the record is about the file the user named.
    expect(report.transcript_digest).toBe(sha256Hex(readFileSync(stream('codex-rollout.jsonl'))))
    expect(report.expectations[0]?.outcome).toEqual({ outcome: 'undecidable', reason: 'stream_not_closed', markers: ['stream.closed', 'hermetic.stream_complete'] })
    // Every record is one the rollout vocabulary knows (turn_context is read for its model, the
    // exec_command_end echoes the shell call): nothing unread, so the missing test read is a gap.
    expect(report.expectations[1]?.outcome).toEqual({ outcome: 'gap', events: [], note: 'file.read called 0 time(s), at least 1' })
    const census = await inspectTranscriptFile(stream('codex-rollout.jsonl'))
    expect(census).toMatchObject({ opaque_events: 0, closure: null, tool_traffic: { shell: { calls: 1, errors: 0 }, apply_patch: { calls: 1, errors: 0 } } })
  })
})

describe('Claude Code stream-json, by recorded trajectories', () => {
  it('a transcript that ends with its result record is closed by it', async () => {
    const path = referenceFile('trajectories', 'claude-stream-json', 'styr_fixture01_quoted_lines.jsonl')
    const report = await checkTranscriptFile(ABSENT, path)
    expect(report.adapter).toEqual({ name: 'claude-code/stream-json', written_against: ['2.1.238'] })
    // Its partial-message delta (stream_event) is in the Claude Code vocabulary: read, carrying no
    // call, so it is no longer an unread event (upstream's reader makes it opaque; we depart there).
    expect(report.expectations[0]?.outcome).toMatchObject({ outcome: 'ok', note: "no call matches Write, and the run closed the stream (the run's terminal record as the transcript's last line, success)" })
    const census = await inspectTranscript(createReadStream(path))
    expect(census).toMatchObject({ events_by_family: { assistant_text: 1, run_outcome: 1 }, opaque_events: 0, assistant_events: 1, api_requests: 1 })
  })

  it('refuses a transcript with a line that is not JSON, naming the line (blank lines counted)', async () => {
    const path = referenceFile('metaharness', 'claude', 'unknown-records.in.jsonl')
    const failure = await checkTranscriptFile(ABSENT, path).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TraceTranscriptError)
    expect((failure as TraceTranscriptError).refusals.map((refusal) => [refusal.code, refusal.location])).toEqual([['TRACE-ADAPT-001', 'line[6]']])
  })
})
