/**
 * Rust's `Display` and `Debug` renderings where upstream's notes and messages use them, so a note
 * reads the same from both checkers: `{}` of an `f64` never uses an exponent and drops `.0`,
 * `{:.N}` rounds an exact tie to even, and `{:?}` of a string escapes the way Rust does.
 */

/** `format!("{}", value)` for an `f64`: shortest round-trip digits, plain decimal notation. */
export function rustDisplayF64(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return 'inf'
  if (value === -Infinity) return '-inf'
  if (value === 0) return Object.is(value, -0) ? '-0' : '0'
  const negative = value < 0
  const scientific = Math.abs(value).toExponential()
  const eAt = scientific.indexOf('e')
  const digits = scientific.slice(0, eAt).replace('.', '')
  const exponent = Number(scientific.slice(eAt + 1))
  const point = exponent + 1
  let text: string
  if (point <= 0) text = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) text = `${digits}${'0'.repeat(point - digits.length)}`
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`
  return negative ? `-${text}` : text
}

/** `format!("{:.N}", value)`: fixed decimals, an exact binary tie rounded half to even. */
export function rustFixed(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return rustDisplayF64(value)
  const fixed = value.toFixed(decimals)
  // `toFixed` rounds an exact tie up; Rust rounds it to even. A tie is `5` then only zeros.
  const probe = Math.abs(value).toFixed(Math.min(100, decimals + 30))
  const tail = probe.slice(probe.indexOf('.') + 1 + decimals)
  if (!/^50*$/.test(tail)) return fixed
  const truncated = Math.abs(value).toFixed(Math.min(100, decimals + 30)).slice(0, probe.indexOf('.') + 1 + decimals).replace(/\.$/, '')
  const lastDigit = Number(truncated.replace('.', '').slice(-1))
  if (lastDigit % 2 === 0) return `${value < 0 ? '-' : ''}${truncated}`
  return fixed
}

/** `format!("{:?}", text)` for a `&str`: quoted, with Rust's escapes. */
export function rustDebugString(text: string): string {
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0) as number
    if (char === '"') out += '\\"'
    else if (char === '\\') out += '\\\\'
    else if (char === '\n') out += '\\n'
    else if (char === '\r') out += '\\r'
    else if (char === '\t') out += '\\t'
    else if (code === 0) out += '\\0'
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\u{${code.toString(16)}}`
    else out += char
  }
  return `${out}"`
}

/** The UTF-8 byte length of a string: Rust's `String::len`. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}
