import { closeSync, openSync, readSync } from 'node:fs'
import { TranscriptError } from '../errors.js'
import { ReadAhead } from './read-ahead.js'

/** A compression a file's first bytes name, and the command that undoes it. */
interface Compression {
  readonly name: string
  readonly magic: readonly number[]
  /** What the byte after the magic number must be, where the magic alone is text (`BZh`). */
  readonly then?: (byte: number) => boolean
  readonly decompress: string
}

// By their magic numbers. dsh writes its session logs zstd-compressed; CI artifacts are often gzip.
const COMPRESSIONS: readonly Compression[] = [
  { name: 'gzip', magic: [0x1f, 0x8b], decompress: 'gzip -dc' },
  { name: 'zstd', magic: [0x28, 0xb5, 0x2f, 0xfd], decompress: 'zstd -dc' },
  { name: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], decompress: 'xz -dc' },
  // `BZh` and a block size from 1 to 9.
  { name: 'bzip2', magic: [0x42, 0x5a, 0x68], then: (byte) => byte >= 0x31 && byte <= 0x39, decompress: 'bzip2 -dc' },
  { name: 'zip', magic: [0x50, 0x4b, 0x03, 0x04], decompress: 'unzip -p' },
]

const LONGEST_MAGIC = 6

function compressionOf(head: Uint8Array): Compression | undefined {
  return COMPRESSIONS.find(({ magic, then }) => {
    if (!magic.every((byte, i) => head[i] === byte)) return false
    const next = head[magic.length]
    return then === undefined || (next !== undefined && then(next))
  })
}

/**
 * Refuses a transcript whose first bytes are a compressed file's (`VH_TRANSCRIPT_COMPRESSED`): read
 * as text, its bytes would be judged line by line as "not UTF-8" in whichever format the guess fell on.
 */
export function refuseCompressed(head: Uint8Array, file: string): void {
  const compression = compressionOf(head)
  if (compression === undefined) return
  throw new TranscriptError(
    'VH_TRANSCRIPT_COMPRESSED',
    file,
    null,
    `its first bytes show a ${compression.name}-compressed file, and a transcript is read as its harness wrote it, uncompressed: decompress it first (${compression.decompress} FILE > transcript.jsonl, or pipe that into --transcript -)`,
  )
}

/** `refuseCompressed` over a file's first bytes. */
export function refuseCompressedFile(path: string): void {
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(LONGEST_MAGIC)
    const read = readSync(fd, head, 0, LONGEST_MAGIC, 0)
    refuseCompressed(head.subarray(0, read), path)
  } finally {
    closeSync(fd)
  }
}

/**
 * `refuseCompressed` over a stream's first bytes, read ahead; then the whole stream from its first
 * byte, once. Refuses when opened, before any of it is read as a transcript.
 */
export async function refusingCompressedStream(stream: AsyncIterable<Uint8Array | string>, source: string): Promise<AsyncGenerator<Uint8Array>> {
  const ahead = new ReadAhead(stream)
  await ahead.fill(LONGEST_MAGIC)
  refuseCompressed(ahead.head(), source)
  return ahead.replay()
}
