import * as crypto from 'node:crypto'
import { writeSortedJson } from './json.js'

type OneShotHash = (algorithm: string, data: Uint8Array | string, encoding: 'hex') => string

// `crypto.hash` (Node 20.12+) digests in one call, without building a Hash object per line: an
// opaque line is digested once each, so on a long record this is most of what citing costs.
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash

/** Lowercase hex SHA-256 of raw bytes (a string is hashed as its UTF-8). */
export function sha256Hex(bytes: Uint8Array | string): string {
  return oneShot ? oneShot('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex')
}

/** The digest of a raw record line, without its newline: how an unmapped record is cited. */
export function digestLine(line: Uint8Array | string): string {
  return sha256Hex(line)
}

/** The digest of a value re-serialized with sorted keys, compact: how a sealed block is cited. */
export function digestValue(value: unknown): string {
  return sha256Hex(writeSortedJson(value))
}
