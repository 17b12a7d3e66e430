/**
 * Reading an event line's envelope from its bytes without building it: proves the line is JSON
 * exactly as `JSON.parse` would accept it, and picks out the top-level `format`, `event`, `at` and
 * `code` strings, whether `name` is a string, and where the `decision` object lies. The reader
 * uses it to pass over a line whose event no expectation can use, so skipping a line never skips
 * proving it is well-formed.
 *
 * The bytes must already be known to be UTF-8 (the line splitter checks whole regions at once): a
 * byte of 0x80 or above is then part of a character, and JSON allows those only inside strings,
 * which is where this lets them be.
 *
 * It answers only where it is sure. An escape inside one of the picked strings or in any top-level
 * key, nesting over 512 deep, a line that is not an object — it answers `false` and the caller
 * parses the line whole, which also gives the exact refusal of a line that is not JSON.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Where the top-level values picked out of one line are left, as byte ranges of the line (so
 * nothing is decoded for a line that is passed over); reused from line to line.
 */
export class EnvelopeScan {
  /** The line's bytes the ranges index into. */
  source: Buffer = EMPTY
  /** Each picked string's content range, `start === -1` when absent or not a string. */
  formatStart = -1
  formatEnd = -1
  eventStart = -1
  eventEnd = -1
  atStart = -1
  atEnd = -1
  codeStart = -1
  codeEnd = -1
  /** The top-level `decision` value's whole range when it is an object or array (its brackets included), else -1. */
  decisionStart = -1
  decisionEnd = -1
  /** Whether `name` is a string (a `tool.requested` without one is read whole: it goes opaque). */
  named = false
  /**
   * Asked as soon as the `event` string is picked out: `true` ends the scan there and the line is
   * read whole. Always safe — reading whole is what the scan spares — and it spares scanning the
   * rest of a line that will be parsed anyway.
   */
  readWholeOnEvent: ((scan: EnvelopeScan) => boolean) | null = null

  /** Whether `format` is the string whose UTF-8 bytes are `spelling`. */
  formatIs(spelling: Uint8Array): boolean {
    return rangeIs(this.source, this.formatStart, this.formatEnd, spelling)
  }

  /** Whether the `decision` value is spelled exactly `spelling` (bytes), brackets and all. */
  decisionIs(spelling: Uint8Array): boolean {
    return this.decisionEnd !== -1 && rangeIs(this.source, this.decisionStart, this.decisionEnd, spelling)
  }

  /** Whether `code` is the string whose UTF-8 bytes are `spelling`. */
  codeIs(spelling: Uint8Array): boolean {
    return rangeIs(this.source, this.codeStart, this.codeEnd, spelling)
  }

  /** Which of `names` the `event` string is, or -1 (absent, not a string, or another); asked twice of one line, looked up once. */
  eventIn(names: EventNames): number {
    if (this.eventTable === names) return this.eventIndex
    this.eventTable = names
    this.eventIndex = this.eventStart === -1 ? -1 : names.indexOf(this.source, this.eventStart, this.eventEnd)
    return this.eventIndex
  }

  /** Forgets the looked-up name: the `event` key was just (re)read. */
  forgetEvent(): void {
    this.eventTable = null
  }

  // The last `eventIn` answer for this line, and the table it was asked of.
  private eventTable: EventNames | null = null
  private eventIndex = -1

  /** Forgets the last line's answers: the scan of a new line begins. */
  reset(source: Buffer): void {
    this.source = source
    this.formatStart = -1
    this.eventStart = -1
    this.atStart = -1
    this.codeStart = -1
    this.decisionStart = -1
    this.decisionEnd = -1
    this.named = false
    this.eventTable = null
  }

  /** The `at` string, decoded, or `null`. */
  at(): string | null {
    return this.atStart === -1 ? null : this.source.toString('utf8', this.atStart, this.atEnd)
  }
}

function rangeIs(source: Buffer, start: number, stop: number, spelling: Uint8Array): boolean {
  if (start === -1 || stop - start !== spelling.length) return false
  for (let k = 0; k < spelling.length; k++) if (source[start + k] !== spelling[k]) return false
  return true
}

/**
 * A fixed list of event names looked up by a line's bytes: only the names of the line's length
 * are compared, so a line's lookup costs the same however many names the list holds.
 */
export class EventNames {
  // Indices into the list by byte length: most lengths hold one name or none.
  private readonly byLength: number[][] = []
  private readonly spellings: readonly Uint8Array[]

  constructor(names: readonly string[]) {
    this.spellings = names.map((name) => Buffer.from(name, 'utf8'))
    this.spellings.forEach((spelling, index) => (this.byLength[spelling.length] ??= []).push(index))
  }

  /** The index of the name spelled by `source[start, stop)`, or -1. */
  indexOf(source: Buffer, start: number, stop: number): number {
    const candidates = this.byLength[stop - start]
    if (candidates === undefined) return -1
    for (const index of candidates) if (rangeIs(source, start, stop, this.spellings[index] as Uint8Array)) return index
    return -1
  }
}

// A top-level key the scan picks out, compared in place by length and bytes.
const PICKED_FORMAT = 1
const PICKED_EVENT = 2
const PICKED_AT = 3
const PICKED_NAME = 4
const PICKED_CODE = 5
const PICKED_DECISION = 6

const EMPTY = Buffer.alloc(0)
const OBJECT = 1
const ARRAY = 2
/** Deeper than this the whole parse decides; no real event line nests anywhere near it. */
const MAX_DEPTH = 512
const containers = new Uint8Array(MAX_DEPTH)

/**
 * Scans the line `source[start, stop)` into `out`; `false` when the line must be parsed whole
 * instead. One loop with its own stack of open containers, so any nesting costs no recursion.
 */
export function scanEnvelope(source: Buffer, start: number, stop: number, out: EnvelopeScan): boolean {
  out.reset(source)
  const end = stop
  // Indices must stay below the escape flag; a line that long is read whole.
  if (end >= ESCAPED) return false
  let i = start
  if ((source[i] as number) <= 0x20) i = skipSpace(source, i, end)
  if (i >= end || source[i] !== 0x7b) return false
  containers[0] = OBJECT
  let depth = 1
  i++
  let afterOpen = true
  // Set while the top-level `decision` container is open: its end is recorded when it closes.
  let inDecision = false
  for (;;) {
    if ((source[i] as number) <= 0x20) i = skipSpace(source, i, end)
    if (i >= end) return false
    let code = source[i] as number
    const inObject = containers[depth - 1] === OBJECT
    let picked = 0
    if (afterOpen && code === (inObject ? 0x7d : 0x5d)) {
      // An empty container closes at once.
      i++
      depth--
      if (inDecision && depth === 1) {
        out.decisionEnd = i
        inDecision = false
      }
    } else {
      if (inObject) {
        if (code !== QUOTE) return false
        const keyStart = i + 1
        const keyEnd = stringEnd(source, keyStart, end)
        if (keyEnd < 0) return false
        if (depth === 1) {
          // An escaped top-level key may spell a picked one: only the whole parse can say.
          if (keyEnd >= ESCAPED) return false
          picked = pickedKey(source, keyStart, keyEnd - 1)
        }
        i = keyEnd & ~ESCAPED
        if ((source[i] as number) <= 0x20) i = skipSpace(source, i, end)
        if (i >= end || source[i] !== 0x3a) return false
        i += 1
        if ((source[i] as number) <= 0x20) i = skipSpace(source, i, end)
        if (i >= end) return false
        code = source[i] as number
      }
      if (code === QUOTE) {
        const valueEnd = stringEnd(source, i + 1, end)
        if (valueEnd < 0) return false
        if (picked !== 0) {
          if (picked === PICKED_NAME) out.named = true
          else if (picked === PICKED_DECISION) record(out, picked, -1, -1)
          else if (valueEnd >= ESCAPED) return false
          else {
            record(out, picked, i + 1, valueEnd - 1)
            if (picked === PICKED_EVENT && out.readWholeOnEvent !== null && out.readWholeOnEvent(out)) return false
          }
        }
        i = valueEnd & ~ESCAPED
      } else {
        if (picked !== 0) {
          if (picked === PICKED_NAME) out.named = false
          else record(out, picked, -1, -1)
        }
        if (code === 0x7b || code === 0x5b) {
          if (depth === MAX_DEPTH) return false
          if (picked === PICKED_DECISION) {
            out.decisionStart = i
            inDecision = true
          }
          containers[depth++] = code === 0x7b ? OBJECT : ARRAY
          i++
          afterOpen = true
          continue
        }
        i = scalarEnd(source, i, end, code)
        if (i < 0) return false
      }
    }
    // After a value (or a container just closed): a comma, or the close of the container it is in.
    for (;;) {
      if (depth === 0) return skipSpace(source, i, end) === end
      if ((source[i] as number) <= 0x20) i = skipSpace(source, i, end)
      if (i >= end) return false
      code = source[i] as number
      if (code === 0x2c) {
        i++
        afterOpen = false
        break
      }
      if (code !== (containers[depth - 1] === OBJECT ? 0x7d : 0x5d)) return false
      i++
      depth--
      if (inDecision && depth === 1) {
        out.decisionEnd = i
        inDecision = false
      }
    }
  }
}

// Set in a string's end index when the string held an escape (indices stay far below it).
const ESCAPED = 0x40000000

function record(out: EnvelopeScan, picked: number, from: number, to: number): void {
  if (picked === PICKED_FORMAT) {
    out.formatStart = from
    out.formatEnd = to
  } else if (picked === PICKED_EVENT) {
    out.eventStart = from
    out.eventEnd = to
    // A duplicate of the key is looked up afresh.
    out.forgetEvent()
  } else if (picked === PICKED_AT) {
    out.atStart = from
    out.atEnd = to
  } else if (picked === PICKED_DECISION) {
    // Not a container (a container's range is recorded as it closes).
    out.decisionStart = -1
    out.decisionEnd = -1
  } else {
    out.codeStart = from
    out.codeEnd = to
  }
}

// Called only where the byte at `i` may be space (at most 0x20): compact JSON never calls it.
function skipSpace(source: Buffer, i: number, end: number): number {
  while (i < end) {
    const code = source[i] as number
    // JSON's four: space, tab, line feed, carriage return.
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return i
    i++
  }
  return i
}

/**
 * The end of a string whose content starts at `i` (after its closing quote), with `ESCAPED` set
 * in it when the string held an escape; -1 when it is no JSON string. JSON forbids raw control
 * characters in strings.
 */
function stringEnd(source: Buffer, i: number, end: number): number {
  let escaped = 0
  for (;;) {
    // A run of bytes that stand for themselves first: most strings hold nothing else.
    let code = 0
    while (i < end && (code = source[i] as number) >= 0x20 && code !== QUOTE && code !== BACKSLASH) i++
    if (i >= end) return -1
    if (code === QUOTE) return (i + 1) | escaped
    if (code !== BACKSLASH) return -1
    escaped = ESCAPED
    const next = i + 1 < end ? (source[i + 1] as number) : -1
    if (next === 0x75) {
      if (i + 6 > end || !isHex(source[i + 2] as number) || !isHex(source[i + 3] as number) || !isHex(source[i + 4] as number) || !isHex(source[i + 5] as number)) return -1
      i += 6
    } else if (next === QUOTE || next === BACKSLASH || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
      i += 2
    } else {
      return -1
    }
  }
}

/** The end of the literal or number at `i`, or -1. */
function scalarEnd(source: Buffer, i: number, end: number, code: number): number {
  // Each literal's later letters compared in place: they follow every `true`, `false` and `null`.
  if (code === 0x74) return i + 4 <= end && source[i + 1] === 0x72 && source[i + 2] === 0x75 && source[i + 3] === 0x65 ? i + 4 : -1
  if (code === 0x66) return i + 5 <= end && source[i + 1] === 0x61 && source[i + 2] === 0x6c && source[i + 3] === 0x73 && source[i + 4] === 0x65 ? i + 5 : -1
  if (code === 0x6e) return i + 4 <= end && source[i + 1] === 0x75 && source[i + 2] === 0x6c && source[i + 3] === 0x6c ? i + 4 : -1
  return numberEnd(source, i, end)
}

/** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` */
function numberEnd(source: Buffer, i: number, end: number): number {
  if (i < end && source[i] === 0x2d) i++
  if (i >= end) return -1
  const first = source[i] as number
  if (first === 0x30) i++
  else if (first >= 0x31 && first <= 0x39) i = digitsEnd(source, i + 1, end)
  else return -1
  if (i < end && source[i] === 0x2e) {
    const from = i + 1
    i = digitsEnd(source, from, end)
    if (i === from) return -1
  }
  if (i < end && (source[i] === 0x65 || source[i] === 0x45)) {
    i++
    if (i < end && (source[i] === 0x2b || source[i] === 0x2d)) i++
    const from = i
    i = digitsEnd(source, from, end)
    if (i === from) return -1
  }
  return i
}

function digitsEnd(source: Buffer, i: number, end: number): number {
  while (i < end) {
    const code = source[i] as number
    if (code < 0x30 || code > 0x39) return i
    i++
  }
  return i
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)
}

const FORMAT = [0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74]
const EVENT = [0x65, 0x76, 0x65, 0x6e, 0x74]
const NAME = [0x6e, 0x61, 0x6d, 0x65]
const CODE = [0x63, 0x6f, 0x64, 0x65]
const DECISION = [0x64, 0x65, 0x63, 0x69, 0x73, 0x69, 0x6f, 0x6e]

function spells(source: Buffer, start: number, end: number, spelling: readonly number[]): boolean {
  if (start + spelling.length > end) return false
  for (let k = 0; k < spelling.length; k++) if (source[start + k] !== spelling[k]) return false
  return true
}

function pickedKey(source: Buffer, start: number, stop: number): number {
  // The first byte tells the picked keys apart (and rules out most others) before any loop.
  switch (source[start]) {
    case 0x66:
      return stop - start === 6 && spells(source, start, stop, FORMAT) ? PICKED_FORMAT : 0
    case 0x65:
      return stop - start === 5 && spells(source, start, stop, EVENT) ? PICKED_EVENT : 0
    case 0x61:
      return stop - start === 2 && source[start + 1] === 0x74 ? PICKED_AT : 0
    case 0x6e:
      return stop - start === 4 && spells(source, start, stop, NAME) ? PICKED_NAME : 0
    case 0x63:
      return stop - start === 4 && spells(source, start, stop, CODE) ? PICKED_CODE : 0
    case 0x64:
      return stop - start === 8 && spells(source, start, stop, DECISION) ? PICKED_DECISION : 0
    default:
      return 0
  }
}
