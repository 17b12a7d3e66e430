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
    case 0x74: // t: text-delta, turn-started, tool-arguments-delta, tool-completed (tool-requested is parsed)
      return tKind(line)
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

/** The one `t…` shape a line's kind can be, by the letters that tell them apart. */
function tKind(line: string): JsonObject | undefined {
  const at = KIND_PREFIX.length
  switch (line.charCodeAt(at + 1)) {
    case 0x65: // te
      return textDelta(line)
    case 0x75: // tu
      return turnStarted(line)
    case 0x6f: // to: tool-a…, tool-c… (tool-r… is parsed)
      return toolKind(line)
    default:
      return undefined
  }
}

/** The one `tool-…` shape a line's kind can be, by the letter after `tool-`. */
function toolKind(line: string): JsonObject | undefined {
  switch (line.charCodeAt(KIND_PREFIX.length + 5)) {
    case 0x61: // tool-arguments-delta
      return toolArgumentsDelta(line)
    case 0x63: // tool-completed
      return toolCompleted(line)
    default:
      return undefined
  }
}

/** The record `build` makes of a line `shape` matches, or undefined. */
function shaped(shape: RegExp, line: string, build: (match: RegExpExecArray) => JsonObject): JsonObject | undefined {
  const match = shape.exec(line)
  return match ? build(match) : undefined
}

const textDelta = (line: string) => shaped(TEXT_DELTA, line, (match) => ({ kind: 'text-delta', text: decode(match[1]) }))
const toolArgumentsDelta = (line: string) => shaped(TOOL_ARGUMENTS_DELTA, line, (match) => ({ kind: 'tool-arguments-delta', call_id: decode(match[1]), delta: decode(match[2]) }))
const toolCompleted = (line: string) => shaped(TOOL_COMPLETED, line, (match) => ({ kind: 'tool-completed', call_id: decode(match[1]), failed: match[2] === 'true' }))
const turnStarted = (line: string) => shaped(TURN_STARTED, line, (match) => ({ kind: 'turn-started', turn: Number(match[1]) }))
const warning = (line: string) => shaped(WARNING, line, (match) => ({ kind: 'warning', code: decode(match[1]), message: decode(match[2]) }))
const usage = (line: string) =>
  shaped(USAGE, line, (match) => ({ kind: 'usage', model: decode(match[1]), input_tokens: Number(match[2]), output_tokens: Number(match[3]), cached_input_tokens: Number(match[4]) }))
const cost = (line: string) => shaped(COST, line, (match) => ({ kind: 'cost', model: decode(match[1]), micro_usd: Number(match[2]) }))
