/**
 * The most recent entries of an unbounded series, in order: a long-running provider keeps a
 * bounded window in memory (the request log file keeps everything).
 */
export class RecentList<T> {
  private items: T[] = []
  private dropped = 0

  constructor(private readonly limit: number) {}

  push(item: T): void {
    this.items.push(item)
    // Trim in batches so a push stays O(1) amortised.
    if (this.items.length >= this.limit * 2) {
      const excess = this.items.length - this.limit
      this.items.splice(0, excess)
      this.dropped += excess
    }
  }

  /** How many entries were ever pushed. */
  get total(): number {
    return this.dropped + this.items.length
  }

  /** The last `limit` entries (fewer when fewer were pushed). */
  toArray(): readonly T[] {
    return this.items.length > this.limit ? this.items.slice(-this.limit) : this.items
  }
}
