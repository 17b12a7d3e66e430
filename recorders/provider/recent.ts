/** How much a `RecentList` keeps: at most `count` entries and at most `bytes` of them (by `sizeOf`). */
export interface RecentLimits<T> {
  readonly count: number
  /** Default: no byte bound. */
  readonly bytes?: number
  /** An estimate of an entry's retained size in bytes; needed with `bytes`. */
  readonly sizeOf?: (item: T) => number
}

/**
 * The most recent entries of an unbounded series, in order: a long-running provider keeps a
 * window bounded by count and by bytes in memory (the request log file keeps everything), and
 * counts what fell out of it. The newest entry is always kept, so the byte bound is `bytes` plus
 * one entry.
 */
export class RecentList<T> {
  private items: (T | undefined)[] = []
  private sizes: number[] = []
  private head = 0
  private bytes = 0
  private droppedCount = 0
  private readonly countLimit: number
  private readonly byteLimit: number
  private readonly sizeOf: (item: T) => number

  constructor(limits: number | RecentLimits<T>) {
    const resolved: RecentLimits<T> = typeof limits === 'number' ? { count: limits } : limits
    this.countLimit = Math.max(0, resolved.count)
    this.byteLimit = resolved.bytes ?? Number.POSITIVE_INFINITY
    this.sizeOf = resolved.sizeOf ?? (() => 0)
  }

  push(item: T): void {
    const size = this.sizeOf(item)
    this.items.push(item)
    this.sizes.push(size)
    this.bytes += size
    while (this.length > this.countLimit || (this.bytes > this.byteLimit && this.length > 1)) {
      this.bytes -= this.sizes[this.head] as number
      this.items[this.head] = undefined
      this.head += 1
      this.droppedCount += 1
    }
    // Compact now and then so a push stays O(1) amortised and dropped entries are released.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head)
      this.sizes = this.sizes.slice(this.head)
      this.head = 0
    }
  }

  /** How many entries are kept now. */
  get length(): number {
    return this.items.length - this.head
  }

  /** How many entries were ever pushed. */
  get total(): number {
    return this.droppedCount + this.length
  }

  /** How many entries fell out of the window (by count or by bytes). */
  get dropped(): number {
    return this.droppedCount
  }

  /** The bytes the kept entries are estimated to hold. */
  get retainedBytes(): number {
    return this.bytes
  }

  /** The kept entries, oldest first. */
  toArray(): readonly T[] {
    return (this.head === 0 ? this.items : this.items.slice(this.head)) as readonly T[]
  }
}
