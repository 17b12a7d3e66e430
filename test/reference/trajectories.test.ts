import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claudeAdapter } from '../../adapters/claude/adapter.js'
import { replayText } from '../../adapters/replay.js'
import { convertTextSync, convertTranscript, convertTranscriptSync, readTranscriptAsEvents } from '../../adapters/transcript/read.js'
import { detect } from '../../adapters/transcript/detect.js'
import { splitTextLines } from '../../src/events/lines.js'
import { readEventTextOrThrow } from '../../src/events/read.js'
import type { Emission } from '../../src/events/types.js'
import { REFERENCE, referenceFile } from './paths.js'

interface Expectation {
  format: string
  /** Events by type, every type listed (a type not listed must not occur). */
  counts: Record<string, number>
  calls: { name: string; call_id: string; input: unknown }[]
  results: { call_id: string; is_error: boolean | null }[]
}

// Derived by reading each file line by line (see the comments): what each line is, and so what it becomes.
const EXPECTED: Record<string, Expectation> = {
  // 3 steps: user → injection; agent with two calls, two results, metrics; agent answer with metrics; final_metrics closes it.
  // The agent (`harbor-agent`) has no tool table of its own, so its `financial_search` is reported once as unclassified (warning).
  'atif/harbor_rfc0001_example_atif-v1.4.json': {
    format: 'atif-json',
    counts: { 'session.started': 1, injection: 1, thinking: 2, text: 2, warning: 1, 'tool.requested': 2, 'tool.result': 2, usage: 2, 'session.ended': 1, 'stream.closed': 1 },
    calls: [
      { name: 'financial_search', call_id: 'call_price_1', input: { ticker: 'GOOGL', metric: 'price' } },
      { name: 'financial_search', call_id: 'call_volume_2', input: { ticker: 'GOOGL', metric: 'volume' } },
    ],
    results: [
      { call_id: 'call_price_1', is_error: null },
      { call_id: 'call_volume_2', is_error: null },
    ],
  },
  // queue-operation ×2 and last-prompt (read: the vocabulary says they carry no call), user prompt (injection), assistant text + its usage.
  'claude-session-jsonl/agent-history_real_session-01.jsonl': {
    format: 'claude-session-jsonl',
    counts: { 'session.started': 1, injection: 1, text: 1, usage: 1 },
    calls: [],
    results: [],
  },
  // a partial-message delta (read, carried by the assistant line), the assistant text + usage, the result (closure).
  'claude-stream-json/styr_fixture01_quoted_lines.jsonl': {
    format: 'claude-code/stream-json',
    counts: { text: 1, usage: 1, 'session.ended': 1, 'stream.closed': 1 },
    calls: [],
    results: [],
  },
  // an assistant Read call + usage, then its result. No is_error written is success, as upstream's
  // direct stream-json reader pins it (absent is false on this wire), so checking the file and
  // checking its conversion give one answer for tool.failed.
  'claude-stream-json/styr_fixture02_quoted_lines.jsonl': {
    format: 'claude-code/stream-json',
    counts: { 'tool.requested': 1, usage: 1, 'tool.result': 1 },
    calls: [{ name: 'Read', call_id: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP', input: { file_path: '/tmp/styr-fixture-ws/note.txt' } }],
    results: [{ call_id: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP', is_error: false }],
  },
  // thread.started (and the warning that its usage sums each turn's requests), a hook warning item, turn.started, the answer,
  // turn.completed (usage + turn.ended), the recorder's `>>> exit 0` (opaque).
  'codex-exec-json/styr_01_simple_text.jsonl': {
    format: 'codex/exec-json',
    counts: { 'session.started': 1, warning: 2, 'turn.started': 1, text: 1, usage: 1, 'turn.ended': 1, opaque: 1, 'session.ended': 1 },
    calls: [],
    results: [],
  },
  // as above, plus one command_execution started and completed (exit 0).
  'codex-exec-json/styr_02_read_file.jsonl': {
    format: 'codex/exec-json',
    counts: { 'session.started': 1, warning: 2, 'turn.started': 1, 'tool.requested': 1, 'tool.result': 1, text: 1, usage: 1, 'turn.ended': 1, opaque: 1, 'session.ended': 1 },
    calls: [{ name: 'command_execution', call_id: 'item_1', input: { command: "/usr/bin/bash -lc 'head -n 1 README.md'" } }],
    results: [{ call_id: 'item_1', is_error: false }],
  },
  // session_meta (CLI 0.135, a version the rollout vocabulary was written against: no drift warning), task_started,
  // developer/environment/user items and turn_context (read: prompt context and settings, none opaque),
  // user_message (injection), agent_message (an echo of the next line's message: read), the answer, token_count
  // (usage + rate_limit), task_complete (turn.ended), and session.ended built at the end.
  'codex-session-jsonl/agent-history_real_session-01.jsonl': {
    format: 'codex/rollout-jsonl',
    counts: { 'session.started': 1, 'turn.started': 1, injection: 1, text: 1, usage: 1, rate_limit: 1, 'turn.ended': 1, 'session.ended': 1 },
    calls: [],
    results: [],
  },
  // header, the user's message, the assistant's answer (no usage written: still one request, its usage all null).
  'deepseek-session-jsonl/mss_deepSeekV0Log.session.jsonl': {
    format: 'deepseek-session-jsonl',
    counts: { 'session.started': 1, injection: 1, text: 1, usage: 1 },
    calls: [],
    results: [],
  },
  // header, session_info (a display name: read, carries nothing), model_change (folded into the model),
  // thinking_level_change (a setting: read, carries nothing), user, assistant + usage.
  'pi-session-jsonl/agent-history_real_session-01.jsonl': {
    format: 'pi-session-jsonl',
    counts: { 'session.started': 1, injection: 1, text: 1, usage: 1 },
    calls: [],
    results: [],
  },
}

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

async function convert(path: string): Promise<Emission[]> {
  const events: Emission[] = []
  for await (const event of readTranscriptAsEvents(path, { run: 'ref' })) events.push(event)
  return events
}

describe('every file under reference/trajectories converts', () => {
  const root = join(REFERENCE, 'trajectories')

  it('has an expectation for every file, and no expectation for a missing file', () => {
    expect(filesUnder(root).map((path) => relative(root, path)).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  it.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    const path = referenceFile('trajectories', file)
    const lines = splitTextLines(readFileSync(path, 'utf8'))
    expect(detect(lines)?.name).toBe(expected.format)
    const events = await convert(path)
    const counts: Record<string, number> = {}
    for (const event of events) counts[event.event] = (counts[event.event] ?? 0) + 1
    expect(counts).toEqual(expected.counts)
    expect(events.filter((event) => event.event === 'opaque').length).toBe(expected.counts['opaque'] ?? 0)
    const calls = events.flatMap((event) => (event.event === 'tool.requested' ? [{ name: event.name, call_id: event.call_id, input: event.input }] : []))
    expect(calls).toEqual(expected.calls)
    const results = events.flatMap((event) => (event.event === 'tool.result' ? [{ call_id: event.call_id, is_error: event.is_error ?? null }] : []))
    expect(results).toEqual(expected.results)
    // Every opaque event points at a line that is in the file.
    for (const event of events) {
      if (event.event === 'opaque' && typeof event.source_line === 'number') expect(lines[event.source_line - 1]).toBeDefined()
    }
    // The written stream is one the strict reader accepts, seq from 1 without a gap.
    let text = ''
    for await (const chunk of convertTranscript(path, { run: 'ref' })) text += chunk
    const read = readEventTextOrThrow(text)
    expect(read.map((line) => line.seq)).toEqual(events.map((_, index) => index + 1))
    // Read whole and synchronously (what a matcher does), the bytes are the streamed ones.
    expect(convertTranscriptSync(path, { run: 'ref' })).toBe(text)
    expect(convertTextSync(readFileSync(path), expected.format, { run: 'ref', source: file })).toBe(text)
  })
})

describe('the Claude stream-json projection', () => {
  const input = readFileSync(referenceFile('metaharness', 'claude', 'unknown-records.in.jsonl'), 'utf8')
  const expected = readFileSync(referenceFile('metaharness', 'claude', 'unknown-records.expected.jsonl'))

  it('reproduces unknown-records.expected.jsonl byte for byte with run id c2 (the adapter projector)', () => {
    const observed = Buffer.from(replayText(claudeAdapter.createProjector({ run: 'c2' }), input, 'c2'), 'utf8')
    expect(observed.equals(expected)).toBe(true)
  })

  it.each(['upstream', 'enriched'] as const)('reproduces it byte for byte through convert (projection %s)', async (projection) => {
    let text = ''
    const path = referenceFile('metaharness', 'claude', 'unknown-records.in.jsonl')
    for await (const chunk of convertTranscript(path, { from: 'claude-code/stream-json', run: 'c2', seam: { projection } })) text += chunk
    expect(Buffer.from(text, 'utf8').equals(expected)).toBe(true)
  })
})
