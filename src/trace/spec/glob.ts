/**
 * Anchored globs in linear time: `*` any run of characters, `?` exactly one, everything else
 * literal, on code points (not UTF-16 units). The pattern splits at its stars into segments; the
 * first must start the subject, the last must end it, and each one between is taken at its
 * leftmost place after the previous one — which is where any match could put it, so nothing is
 * ever retried. A segment is found by the engine's string search when the pattern has no `?`, else
 * by a bit-parallel scan (Shift-And), `?` being the bit every character sets, so a pattern of m
 * characters over a subject of n costs O(n·⌈m/32⌉) at worst, never the O(n·m) restarts of a
 * backtracking matcher.
 */

const ANY = -1

/** A string's code points. */
function codePoints(text: string): Uint32Array {
  const points = new Uint32Array(text.length)
  let length = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.codePointAt(index) as number
    points[length++] = code
    if (code > 0xffff) index++
  }
  return points.subarray(0, length)
}

/** One star-free piece of the pattern: its characters, `ANY` for `?`. */
type Segment = readonly number[]

function segmentsOf(pattern: string): Segment[] {
  const segments: number[][] = [[]]
  for (const point of codePoints(pattern)) {
    if (point === 0x2a) segments.push([])
    else (segments[segments.length - 1] as number[]).push(point === 0x3f ? ANY : point)
  }
  return segments
}

/** Whether `segment` matches the subject at `at` exactly (the anchored ends). */
function matchesAt(segment: Segment, subject: Uint32Array, at: number): boolean {
  if (at < 0 || at + segment.length > subject.length) return false
  for (let index = 0; index < segment.length; index++) {
    const wanted = segment[index] as number
    if (wanted !== ANY && wanted !== subject[at + index]) return false
  }
  return true
}

/**
 * The leftmost start ≥ `from` where `segment` matches wholly before `end`, or -1: Shift-And over
 * ⌈m/32⌉ words, each character's mask marking the segment positions it may fill.
 */
function findSegment(segment: Segment, subject: Uint32Array, from: number, end: number): number {
  const length = segment.length
  if (length === 0) return from <= end ? from : -1
  const words = Math.ceil(length / 32)
  const anyMask = new Uint32Array(words)
  const masks = new Map<number, Uint32Array>()
  for (let index = 0; index < length; index++) {
    const point = segment[index] as number
    const bit = 1 << (index & 31)
    const word = index >>> 5
    if (point === ANY) anyMask[word] = (anyMask[word] as number) | bit
    else {
      let mask = masks.get(point)
      if (!mask) masks.set(point, (mask = new Uint32Array(words)))
      mask[word] = (mask[word] as number) | bit
    }
  }
  // A character's mask includes the `?` positions, which every character fills.
  for (const mask of masks.values()) for (let word = 0; word < words; word++) mask[word] = (mask[word] as number) | (anyMask[word] as number)
  const state = new Uint32Array(words)
  const lastWord = (length - 1) >>> 5
  const lastBit = 1 << ((length - 1) & 31)
  for (let at = from; at < end; at++) {
    const mask = masks.get(subject[at] as number) ?? anyMask
    // state = ((state << 1) | 1) & mask, across words, carrying each word's top bit upward.
    let carry = 1
    for (let word = 0; word < words; word++) {
      const current = state[word] as number
      state[word] = (((current << 1) | carry) & (mask[word] as number)) >>> 0
      carry = current >>> 31
    }
    if (((state[lastWord] as number) & lastBit) !== 0) return at - length + 1
  }
  return -1
}

/**
 * A pattern with no `?`: its literal segments are found with the engine's own string search, on
 * UTF-16 units (whole code points match as whole units, so the answer is the same).
 */
function starGlobMatches(pattern: string, subject: string): boolean {
  const segments = pattern.split('*')
  const first = segments[0] as string
  if (segments.length === 1) return pattern === subject
  const last = segments[segments.length - 1] as string
  if (first.length + last.length > subject.length || !subject.startsWith(first) || !subject.endsWith(last)) return false
  let cursor = first.length
  const end = subject.length - last.length
  for (let index = 1; index < segments.length - 1; index++) {
    const segment = segments[index] as string
    const start = subject.indexOf(segment, cursor)
    if (start === -1 || start + segment.length > end) return false
    cursor = start + segment.length
  }
  return true
}

/** Whether `pattern` matches the whole of `subject`. */
export function globMatches(pattern: string, subject: string): boolean {
  if (!pattern.includes('?')) return starGlobMatches(pattern, subject)
  const segments = segmentsOf(pattern)
  const text = codePoints(subject)
  const first = segments[0] as Segment
  if (segments.length === 1) return first.length === text.length && matchesAt(first, text, 0)
  const last = segments[segments.length - 1] as Segment
  if (first.length + last.length > text.length) return false
  if (!matchesAt(first, text, 0) || !matchesAt(last, text, text.length - last.length)) return false
  let cursor = first.length
  const end = text.length - last.length
  for (let index = 1; index < segments.length - 1; index++) {
    const segment = segments[index] as Segment
    const start = findSegment(segment, text, cursor, end)
    if (start === -1) return false
    cursor = start + segment.length
  }
  return true
}
