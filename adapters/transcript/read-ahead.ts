/**
 * A stream with no path (stdin, a pipe) read ahead: its first bytes held to be looked at, then the
 * whole stream handed back from its first byte, once, so nothing is read twice.
 */
export class ReadAhead {
  private readonly iterator: AsyncIterator<Uint8Array | string>
  private readonly held: Buffer[] = []
  private size = 0
  private done = false

  constructor(stream: AsyncIterable<Uint8Array | string>) {
    this.iterator = stream[Symbol.asyncIterator]()
  }

  /** Whether the stream ended inside what was read ahead. */
  get ended(): boolean {
    return this.done
  }

  /** Reads on until `bytes` are held or the stream ends (all of it when `bytes` is Infinity). */
  async fill(bytes: number): Promise<void> {
    while (this.size < bytes && !this.done) {
      const next = await this.iterator.next()
      if (next.done) {
        this.done = true
        return
      }
      const chunk = Buffer.from(next.value)
      this.held.push(chunk)
      this.size += chunk.length
    }
  }

  /** What was read ahead, as one buffer. */
  head(): Buffer {
    return Buffer.concat(this.held)
  }

  /** The whole stream from its first byte: what was read ahead, then the rest as it comes. */
  async *replay(): AsyncGenerator<Uint8Array> {
    yield* this.held
    if (this.done) return
    for (let next = await this.iterator.next(); !next.done; next = await this.iterator.next()) yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value
  }
}
