import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { planB10xLaunch, replayB10xLoop } from '../../adapters/b10x/index.js'
import type { SeamOptions } from '../../adapters/types.js'
import { launchRecordsEqual } from '../../src/contract/compare.js'
import { digestLine, digestValue } from '../../src/events/digest.js'
import { splitTextLines } from '../../src/events/lines.js'
import { readEventTextOrThrow } from '../../src/events/read.js'
import { checkTranscriptFileSync } from '../../src/trace/check/check.js'
import { specOf } from '../helpers/trace.js'
import { referenceFile } from './paths.js'

// The seam values ../shared/reference/README.md fixes for the b10x goldens.
const GOLDEN_SEAM: SeamOptions = {
  run: 'golden',
  harnessVersion: '0.9.1',
  model: 'b10x-emulated',
  cwd: '/scratch/run/work',
  transcriptPath: '/scratch/run/loop.jsonl',
  hermetic: { mode: 'strict', decisions: 'observe', imposed: [], unavailable: [], ambient_inputs: [], installed_plugins: [] },
}

function bytes(path: string): Buffer {
  return readFileSync(path)
}

describe('b10x goldens replay byte for byte', () => {
  it.each([
    ['golden/loop.jsonl', 'golden/loop.expected.jsonl'],
    ['enforcement/approval-denied.jsonl', 'enforcement/approval-denied.expected.jsonl'],
    ['enforcement/unpublished.jsonl', 'enforcement/unpublished.expected.jsonl'],
  ])('%s → %s', (input, expected) => {
    const record = readFileSync(referenceFile('metaharness', 'b10x', input), 'utf8')
    const observed = Buffer.from(replayB10xLoop(record, GOLDEN_SEAM), 'utf8')
    expect(observed.equals(bytes(referenceFile('metaharness', 'b10x', expected)))).toBe(true)
  })

  it('the golden replay is ten events, each a valid line of the stream', () => {
    const record = readFileSync(referenceFile('metaharness', 'b10x', 'golden', 'loop.jsonl'), 'utf8')
    const events = readEventTextOrThrow(replayB10xLoop(record, GOLDEN_SEAM))
    expect(events.map((event) => event.event)).toEqual([
      'session.started',
      'turn.started',
      'usage',
      'tool.requested',
      'tool.result',
      'turn.started',
      'text',
      'text',
      'usage',
      'session.ended',
    ])
  })

  it('flipping one tool name in the loop changes the replayed bytes (mutation test)', () => {
    const record = readFileSync(referenceFile('metaharness', 'b10x', 'golden', 'loop.jsonl'), 'utf8')
    const mutated = record.replace('"name":"file_read"', '"name":"search"')
    expect(mutated).not.toBe(record)
    const expected = readFileSync(referenceFile('metaharness', 'b10x', 'golden', 'loop.expected.jsonl'), 'utf8')
    const replayed = replayB10xLoop(mutated, GOLDEN_SEAM)
    expect(replayed).not.toBe(expected)
    expect(replayed).toContain('"name":"search"')
  })
})

describe('the b10x launch plan', () => {
  it('equals c1/observe-launch.json as parsed JSON for its fixed inputs', () => {
    const recorded: unknown = JSON.parse(readFileSync(referenceFile('metaharness', 'b10x', 'c1', 'observe-launch.json'), 'utf8'))
    const plan = planB10xLaunch({
      program: '/opt/b10x/bin/b10x-harness',
      baseUrl: 'https://example.invalid/v1',
      model: 'b10x-emulated',
      workspace: '/scratch/run/work',
      input: 'observe this run',
      home: '/operator',
      scratch: '/scratch/run',
    })
    expect(launchRecordsEqual(recorded, plan)).toBe(true)
    expect(Object.keys(plan.env).sort()).toEqual(['PATH', 'XDG_CONFIG_HOME'])
  })
})

describe('claude/unknown-records: opaque digests recompute', () => {
  const input = readFileSync(referenceFile('metaharness', 'claude', 'unknown-records.in.jsonl'), 'utf8')
  const expected = readEventTextOrThrow(readFileSync(referenceFile('metaharness', 'claude', 'unknown-records.expected.jsonl'), 'utf8'))
  const lines = splitTextLines(input)

  it('every opaque event cites a line that exists, counting the blank line', () => {
    expect(lines).toHaveLength(6)
    expect(lines[3]).toBe('')
    for (const event of expected) {
      expect(event.event).toBe('opaque')
      if (event.event !== 'opaque') continue
      expect(lines[(event.source_line ?? 0) - 1]).toBeDefined()
    }
  })

  it('record-level digests are sha256 of the raw line bytes', () => {
    const recordLevel = expected.filter((event) => event.event === 'opaque' && event.vendor_subtype !== 'hologram')
    expect(recordLevel).toHaveLength(4)
    for (const event of recordLevel) {
      if (event.event !== 'opaque') continue
      expect(digestLine(lines[(event.source_line as number) - 1] as string)).toBe(event.digest)
    }
  })

  it('the block-level digest is sha256 of the block re-serialized with sorted keys', () => {
    const block = expected.find((event) => event.event === 'opaque' && event.vendor_subtype === 'hologram')
    if (block?.event !== 'opaque') throw new Error('the hologram block is missing from the expected stream')
    const record = JSON.parse(lines[(block.source_line as number) - 1] as string) as { message: { content: unknown[] } }
    expect(digestValue(record.message.content[0])).toBe(block.digest)
    // The key order as written is type-first, so a digest over the bytes as written would differ.
    expect(digestLine(JSON.stringify(record.message.content[0]))).not.toBe(block.digest)
    expect(block.at).toBe('2026-08-22T11:00:00.000Z')
  })
})

describe("the final answer of upstream's own b10x loops, streamed in deltas, is judged whole", () => {
  // A deliberate difference from upstream's checker, which judges the last text event alone: the
  // loop writes one per delta, so its final text was the fragment " hello harness", an `exact` on
  // the fragment held and a `contains` across the two deltas gapped.
  const spec = specOf('reference/b10x-final-text', {
    'says-what-the-file-says': { 'text.matches': { contains: 'says: hello harness' } },
    'is-only-the-fragment': { 'text.matches': { exact: ' hello harness' } },
  })

  it.each(['metaharness/b10x/golden/loop.jsonl', 'metaharness/b10x/golden/loop.expected.jsonl', 'harness/m2-dry-flat.jsonl'])('%s', (path) => {
    const report = checkTranscriptFileSync(spec, referenceFile(...path.split('/')))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['says-what-the-file-says', 'ok'],
      ['is-only-the-fragment', 'gap'],
    ])
  })
})

describe("a check over upstream's own b10x loops sees each call's operation as the loop resolved it", () => {
  const spec = specOf('reference/b10x-operations', {
    'a-file-was-read': { 'tool.called': { operations: ['file.read'], count: { at_least: 1 } } },
    'nothing-was-read': { 'tool.absent': { operations: ['file.read'] } },
  })

  it('m2-dry-flat.jsonl (a build that writes `operation`): the file_read is the file.read it was', () => {
    // Upstream's projection drops `operation`: the read was counted 0 times, a false gap.
    const report = checkTranscriptFileSync(spec, referenceFile('harness', 'm2-dry-flat.jsonl'))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['a-file-was-read', 'ok'],
      ['nothing-was-read', 'gap'],
    ])
  })

  it('golden/loop.jsonl (0.9.1, no `operation` on its calls): unknown, never a count of none', () => {
    const report = checkTranscriptFileSync(spec, referenceFile('metaharness', 'b10x', 'golden', 'loop.jsonl'))
    expect(report.expectations.map((row) => [row.id, row.verdict])).toEqual([
      ['a-file-was-read', 'unknown'],
      ['nothing-was-read', 'unknown'],
    ])
  })
})

describe("the size of what upstream's own b10x loops got back is not known: their results record no content and no byte count", () => {
  // A `tool-completed` becomes a `tool.result` with `content: null, bytes: null`. Each was read as
  // 0 bytes: "something came back" was a gap over these loops, and "every result under 10 bytes"
  // held over any closed b10x stream, whatever came back (here it was unknown only because the loop
  // never proves its stream closed; `kinds.test.ts` has the closed case).
  const spec = specOf('reference/b10x-result-bytes', {
    'each-small': { 'tool.result_bytes': { operations: ['file.read'], tools: ['file_read'], bytes: { at_most: 10 }, per: 'each' } },
    'some-came-back': { 'tool.result_bytes': { tools: ['file_read'], bytes: { at_least: 1 } } },
  })

  it.each(['metaharness/b10x/golden/loop.jsonl', 'metaharness/b10x/golden/loop.expected.jsonl'])('%s', (path) => {
    const report = checkTranscriptFileSync(spec, referenceFile(...path.split('/')))
    expect(report.expectations.map((row) => [row.id, row.verdict, (row.outcome as { reason?: string; field?: string }).reason, (row.outcome as { field?: string }).field])).toEqual([
      ['each-small', 'unknown', 'result_field_absent', 'content'],
      ['some-came-back', 'unknown', 'result_field_absent', 'content'],
    ])
  })
})
