/**
 * A cache bounded by the bytes its entries hold, not by how many there are: a flood of distinct
 * large keys evicts the oldest entries instead of growing the heap. The caller states each entry's
 * weight (an estimate of what it retains); an entry heavier than the whole budget is not kept.
 */
export class ByteBoundedCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly bytes: number }>()
  private bytes = 0

  constructor(private readonly maxBytes: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key)?.value
  }

  set(key: K, value: V, bytes: number): void {
    const previous = this.entries.get(key)
    if (previous) {
      this.entries.delete(key)
      this.bytes -= previous.bytes
    }
    if (bytes > this.maxBytes) return
    this.entries.set(key, { value, bytes })
    this.bytes += bytes
    // Oldest first: Map iterates in insertion order.
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break
      this.entries.delete(oldest)
      this.bytes -= entry.bytes
    }
  }

  get size(): number {
    return this.entries.size
  }

  /** The summed weights of the kept entries; never above the budget. */
  get retainedBytes(): number {
    return this.bytes
  }
}
