import { parseJsonLossless } from '../../src/events/json.js'
import { TranscriptError } from '../errors.js'
import type { ParsedDocument } from '../formats.js'
import { isObject } from '../shared/fields.js'

/**
 * A JSON scan that knows where things are: the offset of the first syntax error, and where each
 * element of the top-level object's arrays starts. Only run when those offsets are wanted.
 */
class JsonScanner {
  at = 0
  readonly starts = new Map<string, number[]>()

  constructor(
    private readonly text: string,
    // A top-level array is read as the elements of this key (a document that is a JSON array).
    private readonly rootKey: string | undefined = undefined,
  ) {}

  /** The offset of the first error, or -1 when the text is one valid JSON value. */
  scan(): number {
    try {
      this.space()
      this.value(0, this.rootKey)
      this.space()
      return this.at < this.text.length ? this.at : -1
    } catch (error) {
      if (typeof error === 'number') return error
      throw error
    }
  }

  private fail(): never {
    throw Math.min(this.at, this.text.length)
  }

  private space(): void {
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++
      else break
    }
  }

  private value(depth: number, key: string | undefined): void {
    const c = this.text[this.at]
    if (c === '{') this.object(depth)
    else if (c === '[') this.array(depth, key)
    else if (c === '"') this.string()
    else if (c === 't') this.word('true')
    else if (c === 'f') this.word('false')
    else if (c === 'n') this.word('null')
    else this.number()
  }

  private word(word: string): void {
    if (this.text.startsWith(word, this.at)) this.at += word.length
    else this.fail()
  }

  private number(): void {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/.exec(this.text.slice(this.at, this.at + 400))
    if (!match || match[0].length === 0) this.fail()
    this.at += (match as RegExpExecArray)[0].length
  }

  private string(): string {
    const start = this.at
    this.at++
    for (;;) {
      if (this.at >= this.text.length) this.fail()
      const c = this.text.charCodeAt(this.at)
      if (c === 0x22) break
      if (c < 0x20) this.fail()
      if (c === 0x5c) {
        const next = this.text[this.at + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.fail()
          this.at += 6
          continue
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) this.fail()
        this.at += 2
        continue
      }
      this.at++
    }
    this.at++
    return JSON.parse(this.text.slice(start, this.at)) as string
  }

  private object(depth: number): void {
    this.at++
    this.space()
    if (this.text[this.at] === '}') {
      this.at++
      return
    }
    for (;;) {
      this.space()
      if (this.text[this.at] !== '"') this.fail()
      const key = this.string()
      this.space()
      if (this.text[this.at] !== ':') this.fail()
      this.at++
      this.space()
      this.value(depth + 1, depth === 0 ? key : undefined)
      this.space()
      const c = this.text[this.at]
      this.at++
      if (c === '}') return
      if (c !== ',') {
        this.at--
        this.fail()
      }
    }
  }

  private array(depth: number, key: string | undefined): void {
    this.at++
    this.space()
    if (this.text[this.at] === ']') {
      this.at++
      return
    }
    const starts: number[] | undefined = key === undefined ? undefined : []
    if (key !== undefined && starts) this.starts.set(key, starts)
    for (;;) {
      this.space()
      starts?.push(this.at)
      this.value(depth + 1, undefined)
      this.space()
      const c = this.text[this.at]
      this.at++
      if (c === ']') return
      if (c !== ',') {
        this.at--
        this.fail()
      }
    }
  }
}

function newlineOffsets(text: string): number[] {
  const offsets: number[] = []
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) offsets.push(i)
  return offsets
}

/** The 1-based line holding `offset`: one more than the newlines before it. */
function lineAt(newlines: readonly number[], offset: number): number {
  let low = 0
  let high = newlines.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((newlines[middle] as number) < offset) low = middle + 1
    else high = middle
  }
  return low + 1
}

/**
 * Parses a whole JSON document (hermes snapshot, ATIF trajectory, opencode storage object).
 * No tolerance: text that is not one JSON object is a `TranscriptError` naming the line. Where
 * the format reads a JSON array (`arrayKey`), a top-level array is the value of that key.
 */
export function parseJsonDocument(text: string, file: string, arrayKey?: string): ParsedDocument {
  let value: unknown
  try {
    value = parseJsonLossless(text)
  } catch (error) {
    const offset = new JsonScanner(text).scan()
    const line = offset === -1 ? 1 : lineAt(newlineOffsets(text), offset)
    throw new TranscriptError('VH_TRANSCRIPT_NOT_JSON', file, line, `the document is not valid JSON: ${(error as Error).message}`, { cause: error })
  }
  const rootKey = arrayKey !== undefined && Array.isArray(value) ? arrayKey : undefined
  if (rootKey !== undefined) value = { [rootKey]: value }
  if (!isObject(value)) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', file, 1, 'the document is JSON but not an object')
  let starts: Map<string, number[]> | undefined
  let newlines: number[] | undefined
  return {
    file,
    value,
    lineOf(key, index) {
      starts ??= (() => {
        const scanner = new JsonScanner(text, rootKey)
        scanner.scan()
        return scanner.starts
      })()
      const offset = starts.get(key)?.[index]
      if (offset === undefined) return null
      newlines ??= newlineOffsets(text)
      return lineAt(newlines, offset)
    },
  }
}
