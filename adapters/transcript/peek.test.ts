import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PEEK_BYTES, peekTranscriptStream } from './peek.js'

const WILD = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'wild')

/** A stream as a pipe gives it: chunks of `size` bytes. */
async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const part of stream) parts.push(part)
  return Buffer.concat(parts)
}

describe('a stream read ahead to detect its format', () => {
  it.each([
    ['a line format past the read-ahead', join(WILD, 'pi', 'v1-large-session.jsonl'), 'pi-session-jsonl'],
    ['a JSON document past the read-ahead, read whole to be detected', join(WILD, 'hermes', 'weixin-glm5-mcp-session.json'), 'hermes-session-json'],
    ['a short stream that ends inside the read-ahead', join(WILD, 'codex-exec-json', 'vitest-harness_e2e-exec-0.169.0.jsonl'), 'codex/exec-json'],
  ])('detects %s and replays every byte in order', async (_case, file, format) => {
    const bytes = readFileSync(file)
    for (const size of [977, 1 << 16]) {
      const peeked = await peekTranscriptStream(chunked(bytes, size))
      expect(peeked.detection).toMatchObject({ outcome: 'detected', format: { name: format } })
      expect((await collect(peeked.replay())).equals(bytes)).toBe(true)
    }
  })

  it('is exercised past the read-ahead by the files above', () => {
    expect(readFileSync(join(WILD, 'pi', 'v1-large-session.jsonl')).length).toBeGreaterThan(4 * PEEK_BYTES)
    expect(readFileSync(join(WILD, 'hermes', 'weixin-glm5-mcp-session.json')).length).toBeGreaterThan(PEEK_BYTES)
  })

  it('reads strings as their UTF-8 bytes, and finds nothing in a stream no format fits', async () => {
    async function* text(): AsyncGenerator<string> {
      yield '{"hello":'
      yield '"wörld"}\n'
    }
    const peeked = await peekTranscriptStream(text())
    expect(peeked.detection.outcome).toBe('none')
    expect((await collect(peeked.replay())).toString('utf8')).toBe('{"hello":"wörld"}\n')
  })
})
