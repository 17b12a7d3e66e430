import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { kindExamples } from '../../scripts/trace-spec-kind-docs.js'
import { checkTranscript, checkTranscriptFile, checkTranscriptText } from '../trace/check/check.js'
import { specOf } from '../../test/helpers/trace.js'
import { OFF_THREAD_DIGEST_MIN_BYTES, readFileHashedOffThread } from './sha256-off-thread.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
// A real Claude Code stream (upstream's other wire) and an event stream a real Codex run became.
const TRANSCRIPTS = [join(ROOT, 'test', 'fixtures', 'wild', 'claude-stream-json', 'hive-mind-subagent-background.jsonl'), join(ROOT, 'vectors', 'codex', 'codex-read-then-answer-trajectory', 'events.expected.jsonl')]

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('readFileHashedOffThread', () => {
  it.each(TRANSCRIPTS)('yields the file byte for byte and its sha256, through slots far smaller than a line (%s)', async (path) => {
    const file = readFileHashedOffThread(path, { chunkBytes: 7, slots: 2 })
    const copies: Buffer[] = []
    // A chunk's slot is read into again: what is kept of it must be copied before the next is asked for.
    for await (const chunk of file.chunks) copies.push(Buffer.from(chunk))
    const bytes = readFileSync(path)
    expect(Buffer.concat(copies).equals(bytes)).toBe(true)
    expect(copies.length).toBe(Math.ceil(bytes.length / 7))
    expect(file.digest()).toBe(sha256(bytes))
  })

  it('gives the digest of what was read when the reader stops early, and refuses to give one before', async () => {
    const path = TRANSCRIPTS[0] as string
    const file = readFileHashedOffThread(path, { chunkBytes: 100, slots: 2 })
    expect(() => file.digest()).toThrow(/before the file was read/)
    let taken = 0
    for await (const _chunk of file.chunks) if (++taken === 3) break
    expect(file.digest()).toBe(sha256(readFileSync(path).subarray(0, 300)))
  })

  it('fails the read, not the process, for a file that is not there', async () => {
    const file = readFileHashedOffThread(join(ROOT, 'no-such-transcript.jsonl'))
    await expect(file.chunks.next()).rejects.toThrow(/ENOENT/)
  })
})

describe('a check over a file read through the shared slots', () => {
  const spec = specOf('every-kind', kindExamples().map(({ expect }) => expect))

  it.each(TRANSCRIPTS)('reports exactly what a check of the bytes in memory reports (%s)', async (path) => {
    const inMemory = checkTranscriptText(spec, readFileSync(path))
    // Slots reused every other chunk, lines crossing many of them: a line held across a reused slot would read wrong.
    for (const chunkBytes of [1, 7, 64, 4096]) {
      const file = readFileHashedOffThread(path, { chunkBytes, slots: 2 })
      expect(await checkTranscript(spec, file.chunks, { bytesDigest: file.digest })).toEqual(inMemory)
    }
    expect(inMemory.transcript_digest).toBe(sha256(readFileSync(path)))
  })
})

describe('checkTranscriptFile over a file big enough to be hashed off the thread', () => {
  it('reports what a check of its bytes in memory reports, digest and all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-off-thread-'))
    try {
      // A real Claude Code stream, repeated past the size where the digest moves to its own thread.
      const one = readFileSync(TRANSCRIPTS[0] as string)
      const bytes = Buffer.concat(Array.from({ length: Math.ceil(OFF_THREAD_DIGEST_MIN_BYTES / one.length) + 1 }, () => one))
      const path = join(dir, 'big.jsonl')
      writeFileSync(path, bytes)
      const spec = specOf('big', { reads: { 'tool.called': { tools: ['Read'], count: { at_least: 1 } } } })
      const report = await checkTranscriptFile(spec, path)
      expect(report).toEqual(checkTranscriptText(spec, bytes, { source: path }))
      expect(report.transcript_digest).toBe(sha256(bytes))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
