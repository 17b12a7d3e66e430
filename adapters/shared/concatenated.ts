import { isObject, type JsonObject } from './fields.js'

/**
 * The JSON objects of a line that holds several written back to back (`{…}{…}`), as pi writes
 * when it appends to a file whose last record lost its newline; null when the line is not that.
 * Splits where the brace depth returns to zero outside a string, then parses each piece whole.
 */
export function concatenatedObjects(line: string): { value: JsonObject; raw: string }[] | null {
  const pieces: string[] = []
  let depth = 0
  let inString = false
  let escaped = false
  let start = -1
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]
    if (inString) {
      if (escaped) escaped = false
      else if (char === '\\') escaped = true
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{') {
      if (depth === 0) start = index
      depth += 1
    } else if (char === '}') {
      depth -= 1
      if (depth < 0) return null
      if (depth === 0) pieces.push(line.slice(start, index + 1))
    } else if (depth === 0 && char !== undefined && char.trim() !== '') return null
  }
  if (depth !== 0 || inString || pieces.length < 2) return null
  const out: { value: JsonObject; raw: string }[] = []
  for (const raw of pieces) {
    try {
      const value: unknown = JSON.parse(raw)
      if (!isObject(value)) return null
      out.push({ value: value as JsonObject, raw })
    } catch {
      return null
    }
  }
  return out
}
