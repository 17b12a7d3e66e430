import { digestLine, digestValue } from '../../src/events/digest.js'
import type { Emission } from '../../src/events/types.js'

/** A record nobody could map: the digest of its raw line bytes, and where it was. */
export function opaqueLine(
  raw: string | Uint8Array,
  vendorType: string | null,
  vendorSubtype: string | null,
  lineNumber: number | null,
): Emission {
  return { event: 'opaque', vendor_type: vendorType, vendor_subtype: vendorSubtype, digest: digestLine(raw), source_line: lineNumber }
}

/**
 * A block or record inside a readable record that nobody could map: the digest of the value
 * re-serialized with sorted keys, compact (the raw bytes of a part of a line do not exist).
 */
export function opaqueValue(
  value: unknown,
  vendorType: string | null,
  vendorSubtype: string | null,
  lineNumber: number | null,
): Emission {
  return {
    event: 'opaque',
    vendor_type: vendorType,
    vendor_subtype: vendorSubtype === '' ? null : vendorSubtype,
    digest: digestValue(value),
    source_line: lineNumber,
  }
}
