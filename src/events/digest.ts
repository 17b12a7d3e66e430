import { createHash } from 'node:crypto'
import { writeSortedJson } from './json.js'

/** Lowercase hex SHA-256 of raw bytes (a string is hashed as its UTF-8). */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The digest of a raw record line, without its newline: how an unmapped record is cited. */
export function digestLine(line: Uint8Array | string): string {
  return sha256Hex(line)
}

/** The digest of a value re-serialized with sorted keys, compact: how a sealed block is cited. */
export function digestValue(value: unknown): string {
  return sha256Hex(writeSortedJson(value))
}
