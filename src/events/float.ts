/**
 * Marks a number that upstream writes as an `f64`. Rust prints integral floats with a trailing
 * `.0` and switches to exponent form at other thresholds than JavaScript, so a float field keeps
 * this marker until the writer prints it.
 */
export class RustFloat {
  constructor(readonly value: number) {}

  valueOf(): number {
    return this.value
  }

  toJSON(): number {
    return this.value
  }
}

/**
 * A number whose JSON lexeme must survive a round trip as written: `1.0` stays `1.0` and an
 * integer beyond 2^53 keeps every digit, as serde_json's `Value` keeps them.
 */
export class JsonNumber {
  constructor(
    readonly value: number,
    /** The text upstream would print for this number. */
    readonly text: string,
  ) {}

  valueOf(): number {
    return this.value
  }

  toJSON(): number {
    return this.value
  }
}

/**
 * Prints a finite double the way serde_json prints an `f64` (the `ryu` crate's format):
 * shortest round-trip digits, `.0` on integral values, plain decimals for exponents -5..15 and
 * `1e21` / `1.5e-7` forms elsewhere. Non-finite values print as `null`, as serde_json does.
 */
export function formatRustF64(value: number): string {
  if (!Number.isFinite(value)) return 'null'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const negative = value < 0
  // toExponential() without an argument yields the shortest digits that round-trip.
  const scientific = Math.abs(value).toExponential()
  const eAt = scientific.indexOf('e')
  const digits = scientific.slice(0, eAt).replace('.', '')
  const exponent = Number(scientific.slice(eAt + 1))
  const length = digits.length
  const k = exponent - (length - 1)
  const kk = exponent + 1
  let text: string
  if (k >= 0 && kk <= 16) {
    text = `${digits}${'0'.repeat(k)}.0`
  } else if (kk > 0 && kk <= 16) {
    text = `${digits.slice(0, kk)}.${digits.slice(kk)}`
  } else if (kk > -5 && kk <= 0) {
    text = `0.${'0'.repeat(-kk)}${digits}`
  } else if (length === 1) {
    text = `${digits}e${kk - 1}`
  } else {
    text = `${digits[0]}.${digits.slice(1)}e${kk - 1}`
  }
  return negative ? `-${text}` : text
}
