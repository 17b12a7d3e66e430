import { open } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'

/**
 * A file read in chunks whose sha256 is taken on a worker thread as they are read. Each chunk is
 * read into a slot of shared memory the hashing thread reads too: it hashes the very bytes this
 * thread reads, with no copy and no second read of a file that may be growing. On a big transcript
 * the digest is an eighth of the check's time; off the thread, it costs the check next to nothing.
 */
export interface FileHashedOffThread {
  /**
   * The file's bytes, chunk by chunk. A chunk's memory is read into again once the next chunk is
   * asked for: take what you need of it first (`LineSplitter.pushTo` holds nothing of it).
   */
  readonly chunks: AsyncGenerator<Uint8Array>
  /** The sha256 (hex) of every chunk yielded, once `chunks` has ended (or was stopped early). */
  digest(): string
}

/** Below this a worker's start (tens of milliseconds) costs more than the hash it spares. */
export const OFF_THREAD_DIGEST_MIN_BYTES = 64 * 1024 * 1024

/** What the reading can be tuned by (a test makes the slots small to cross many of their edges). */
export interface OffThreadReadOptions {
  /** Bytes read at a time. Default: 256 KiB. */
  chunkBytes?: number
  /** Slots in the ring: at most this many chunks are read and not yet hashed. Default: 4. */
  slots?: number
}

// Plain CommonJS run with `eval`: it loads the same from the sources (a test) as from the build.
const HASHER = `
const { parentPort } = require('node:worker_threads')
const hash = require('node:crypto').createHash('sha256')
parentPort.on('message', (message) => {
  if (message === null) return parentPort.postMessage({ digest: hash.digest('hex') })
  hash.update(new Uint8Array(message.buffer, 0, message.length))
  parentPort.postMessage({ hashed: 1 })
})
`

type HasherReply = { hashed: 1 } | { digest: string }

/** One hashing thread: chunks in, acknowledgements and then the digest out, in order. */
class Hasher {
  // The thread holds a hash and one message at a time: a small heap is all it needs.
  private readonly worker = new Worker(HASHER, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 } })
  private waiting: Array<{ resolve: (reply: HasherReply) => void; reject: (error: Error) => void }> = []
  private failure: Error | undefined
  /** Chunks posted and not yet hashed. */
  unhashed = 0

  constructor() {
    this.worker.on('message', (reply: HasherReply) => {
      if ('hashed' in reply) this.unhashed -= 1
      this.waiting.shift()?.resolve(reply)
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => this.fail(new Error(`the hashing thread exited (${code}) before it was done`)))
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure)
  }

  /** Waits for the thread's next reply. */
  next(): Promise<HasherReply> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }))
  }

  post(buffer: SharedArrayBuffer, length: number): void {
    if (this.failure) throw this.failure
    this.unhashed += 1
    this.worker.postMessage({ buffer, length })
  }

  async digest(): Promise<string> {
    while (this.unhashed > 0) await this.next()
    const done = this.next()
    this.worker.postMessage(null)
    const reply = await done
    if (!('digest' in reply)) throw new Error('the hashing thread answered out of order')
    return reply.digest
  }

  async stop(): Promise<void> {
    this.worker.removeAllListeners('exit')
    await this.worker.terminate()
  }
}

/** Reads `path` in chunks, hashing them on a worker thread (see `FileHashedOffThread`). */
export function readFileHashedOffThread(path: string, options: OffThreadReadOptions = {}): FileHashedOffThread {
  const chunkBytes = options.chunkBytes ?? 1 << 18
  const slotCount = Math.max(2, options.slots ?? 4)
  let digest: string | undefined
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const file = await open(path, 'r')
    const hasher = new Hasher()
    const slots = Array.from({ length: slotCount }, () => new SharedArrayBuffer(chunkBytes))
    const readInto = async (index: number): Promise<{ slot: SharedArrayBuffer; chunk: Buffer }> => {
      const slot = slots[index % slotCount] as SharedArrayBuffer
      const { bytesRead } = await file.read(Buffer.from(slot), 0, chunkBytes, null)
      return { slot, chunk: Buffer.from(slot, 0, bytesRead) }
    }
    // The next chunk is read while the reader takes this one: the thread never waits on the disk.
    let ahead = readInto(0)
    try {
      for (let index = 0; ; index++) {
        const { slot, chunk } = await ahead
        if (chunk.length === 0) break
        hasher.post(slot, chunk.length)
        // The next slot held chunk index + 1 - slots: read into it once that is hashed (the reader is past it).
        while (hasher.unhashed >= slotCount) await hasher.next()
        ahead = readInto(index + 1)
        yield chunk
      }
      digest = await hasher.digest()
    } finally {
      // A reader that stopped early (an endless line) still gets the digest of what it was given.
      if (digest === undefined) digest = await hasher.digest().catch(() => undefined)
      // A read still under way must end before the file closes.
      await ahead.catch(() => undefined)
      await hasher.stop()
      await file.close()
    }
  }
  return {
    chunks: chunks(),
    digest: () => {
      if (digest === undefined) throw new Error('the digest was asked for before the file was read')
      return digest
    },
  }
}
