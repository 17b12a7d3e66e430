/**
 * `table[key]` for a key read from untrusted input: only the table's own entries, so a document
 * naming `toString` or `constructor` finds nothing rather than `Object.prototype`'s function.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}
