import type { JsonObject } from '../shared/fields.js'

/**
 * The loop's most frequent records, read without `JSON.parse` when a line has exactly the bytes
 * b10x-harness writes for them (serde's field order, no whitespace, counts that are integers of at
 * most 15 digits). One native test per line decides; any other line (a reordered or extra field,
 * whitespace, a float) is `undefined` and takes the general parse. Where a shape matches, the
 * object is the one `JSON.parse` gives, and the one the lexeme-keeping parse gives (a property test
 * holds them equal).
 */

// A JSON string, its body captured: escapes are decoded only where there are any.
const STRING = '"((?:[^"\\\\\\u0000-\\u001f]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*)"'
// At most 15 digits: always a safe integer, which both parses read as the same number.
const COUNT = '(0|-?[1-9][0-9]{0,14}|-0)'

function shape(kind: string, fields: string): RegExp {
  return new RegExp(`^\\{"kind":"${kind}"${fields}\\}$`)
}

const TEXT_DELTA = shape('text-delta', `,"text":${STRING}`)
const TOOL_ARGUMENTS_DELTA = shape('tool-arguments-delta', `,"call_id":${STRING},"delta":${STRING}`)
const TOOL_COMPLETED = shape('tool-completed', `,"call_id":${STRING},"failed":(true|false)`)
const WARNING = shape('warning', `,"code":${STRING},"message":${STRING}`)
const TURN_STARTED = shape('turn-started', `,"turn":${COUNT}`)
const USAGE = shape('usage', `,"model":${STRING},"input_tokens":${COUNT},"output_tokens":${COUNT},"cached_input_tokens":${COUNT}`)
const COST = shape('cost', `,"model":${STRING},"micro_usd":${COUNT}`)

const KIND_PREFIX = '{"kind":"'
// Per-line cost is what the shapes save, so only short lines try them; a regular expression over
// a line of megabytes could also exhaust the stack it backtracks on.
const MAX_SHAPED_LINE = 16 * 1024

/** A captured string body as its value: itself when it holds no escape. */
function decode(body: string | undefined): string {
  const text = body ?? ''
  return text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text
}

/** The record a line of a known shape holds, as `JSON.parse` would give it; undefined for any other line. */
export function readKnownShape(line: string): JsonObject | undefined {
  if (line.length > MAX_SHAPED_LINE || !line.startsWith(KIND_PREFIX)) return undefined
  // The kind's first letters pick the one shape to try.
  switch (line.charCodeAt(KIND_PREFIX.length)) {
    case 0x74: // t
      return textDelta(line) ?? toolArgumentsDelta(line) ?? toolCompleted(line) ?? turnStarted(line)
    case 0x77: // w
      return warning(line)
    case 0x75: // u
      return usage(line)
    case 0x63: // c
      return cost(line)
    default:
      return undefined
  }
}

function textDelta(line: string): JsonObject | undefined {
  const match = TEXT_DELTA.exec(line)
  return match ? { kind: 'text-delta', text: decode(match[1]) } : undefined
}

function toolArgumentsDelta(line: string): JsonObject | undefined {
  const match = TOOL_ARGUMENTS_DELTA.exec(line)
  return match ? { kind: 'tool-arguments-delta', call_id: decode(match[1]), delta: decode(match[2]) } : undefined
}

function toolCompleted(line: string): JsonObject | undefined {
  const match = TOOL_COMPLETED.exec(line)
  return match ? { kind: 'tool-completed', call_id: decode(match[1]), failed: match[2] === 'true' } : undefined
}

function turnStarted(line: string): JsonObject | undefined {
  const match = TURN_STARTED.exec(line)
  return match ? { kind: 'turn-started', turn: Number(match[1]) } : undefined
}

function warning(line: string): JsonObject | undefined {
  const match = WARNING.exec(line)
  return match ? { kind: 'warning', code: decode(match[1]), message: decode(match[2]) } : undefined
}

function usage(line: string): JsonObject | undefined {
  const match = USAGE.exec(line)
  return match
    ? { kind: 'usage', model: decode(match[1]), input_tokens: Number(match[2]), output_tokens: Number(match[3]), cached_input_tokens: Number(match[4]) }
    : undefined
}

function cost(line: string): JsonObject | undefined {
  const match = COST.exec(line)
  return match ? { kind: 'cost', model: decode(match[1]), micro_usd: Number(match[2]) } : undefined
}
