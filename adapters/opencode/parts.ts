import { APPROVAL_DENIED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { Emission } from '../../src/events/types.js'
import { asArray, asF64, asI64, asObject, asString, asU64, millisToIso, type JsonObject } from '../shared/fields.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { recordedNestedCall, UnseenNestedCalls } from '../shared/nested-calls.js'
import { opaqueValue } from '../shared/opaque.js'
import { timed, toolResult, type CallClassifier } from '../shared/session.js'
import { pricedCost } from '../shared/unpriced.js'
import { OPENCODE_PART_RECORDS } from './opencode-vocabulary.js'

export const OPENCODE_ADAPTER_ID = 'opencode'

// opencode's code mode (`OPENCODE_EXPERIMENTAL_CODE_MODE`): a script that calls MCP servers' tools.
const CODE_MODE = 'execute'

/** opencode's built-in tools by operation. */
export const OPENCODE_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    read: 'file.read',
    write: 'file.write',
    edit: 'file.edit',
    patch: 'file.edit',
    apply_patch: 'file.edit',
    multiedit: 'file.edit',
    bash: 'shell',
    list: 'dir.list',
    glob: 'dir.list',
    grep: 'search',
    webfetch: 'web.read',
    websearch: 'web.read',
    codesearch: 'web.read',
    lsp: 'search',
    todowrite: 'task.todo',
    todoread: 'task.todo',
    task: 'subagent.spawn',
    skill: 'skill.load',
  },
  inert: {
    question: 'asks the user a question',
    invalid: 'opencode’s stand-in for a call to a tool that does not exist; it runs nothing',
    plan_enter: 'enters plan mode',
    plan_exit: 'leaves plan mode',
    [CODE_MODE]: 'code mode: runs a script in a confined interpreter whose only reach is MCP servers’ tools, each call of which its result records (`metadata.toolCalls`)',
  },
  pathKeys: ['filePath', 'path', 'file_path'],
  commandKeys: ['command'],
}

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/** A step's tokens (`{input, output, reasoning, cache{read, write}}`) and cost (`pricedCost`: a zero beside tokens is no price). */
export function opencodeUsage(tokens: unknown, cost: unknown): Usage {
  const object = asObject(tokens) ?? {}
  const cache = asObject(object['cache']) ?? {}
  const usage: Usage = {
    input_tokens: asU64(object['input']) ?? null,
    output_tokens: asU64(object['output']) ?? null,
    cache_read_input_tokens: asU64(cache['read']) ?? null,
    cache_creation_input_tokens: asU64(cache['write']) ?? null,
    service_tier: null,
    thinking_tokens: asU64(object['reasoning']) ?? null,
    iterations: null,
    speed: null,
    cost_usd: null,
  }
  // Filled in place: a spread copy would give every usage a second shape for the writer.
  usage.cost_usd = pricedCost(asF64(cost) ?? null, usage)
  return usage
}

/**
 * One part of a message (the same shape in storage files, in the session database and in
 * `run --format json` stdout): text, reasoning, a tool call with its state, step boundaries —
 * stamped with `at`, the time of the record that holds the part. A tool call is stamped with its
 * state's own `time.start`, and its result with `time.end`, or with no time when the state gives
 * none: the record's one time would make every call take no time at all. `nested` is told of a
 * code-mode script whose calls went unrecorded: a stream that could prove its end no longer does.
 */
export function partEvents(part: JsonObject, role: string | null, model: string | null, line: number | null, calls: CallClassifier, at: string | undefined, nested: UnseenNestedCalls): Emission[] {
  if (asString(part['type']) === 'tool') return toolEvents(part, calls, at, nested)
  return timed(untimedPartEvents(part, role, model, line), at)
}

function toolEvents(part: JsonObject, calls: CallClassifier, at: string | undefined, nested: UnseenNestedCalls): Emission[] {
  const name = asString(part['tool']) ?? ''
  const callId = asString(part['callID']) ?? ''
  const state = asObject(part['state']) ?? {}
  const input = asObject(state['input']) ?? {}
  const time = asObject(state['time'])
  const events: Emission[] = timed(calls.call(callId, name, input), millisToIso(time?.['start']) ?? at)
  const status = asString(state['status'])
  const result = status === 'completed' ? completedResult(callId, state) : status === 'error' ? toolResult(callId, true, state['error'] ?? null) : undefined
  const refused = status === 'error' ? permissionRefusal(state['error'], callId) : undefined
  if (name === CODE_MODE) events.push(...timed(scriptCalls(callId, state, calls, nested), millisToIso(time?.['end'])))
  if (refused) events.push(...timed([refused], millisToIso(time?.['end'])))
  if (result) events.push(...timed([result], millisToIso(time?.['end'])))
  return events
}

/**
 * The MCP tool calls a code-mode script made (1.18.18, `metadata.toolCalls`: `{tool: "server.tool",
 * status, input}`), which no other part holds: each as the call opencode names `server_tool`, with
 * how it ended. Where the state records none of them (a script still running, or a state with no
 * list), they are unseen.
 */
function scriptCalls(callId: string, state: JsonObject, calls: CallClassifier, nested: UnseenNestedCalls): Emission[] {
  const recorded = asArray(asObject(state['metadata'])?.['toolCalls'])
  const status = asString(state['status'])
  if (recorded === undefined || (status !== 'completed' && status !== 'error')) {
    return [nested.warning(callId, CODE_MODE, 'no record opencode kept (a script’s calls are listed on its state once it has ended)')]
  }
  const events: Emission[] = []
  recorded.forEach((entry, index) => {
    const call = asObject(entry) ?? {}
    const ended = asString(call['status'])
    events.push(...recordedNestedCall(calls, `${callId}/${index + 1}`, (asString(call['tool']) ?? '').replaceAll('.', '_'), call['input'] ?? {}, ended === 'completed' || ended === 'error' ? ended === 'error' : undefined))
  })
  return events
}

/**
 * What opencode answers a call its permission rules deny, or its user rejects (1.18.18, the
 * `permission` errors' own words; `opencode run` rejects every call that would ask): the call's
 * error result, and nothing else says so.
 */
const PERMISSION_ERRORS = ['The user has specified a rule which prevents you from using this specific tool call', 'The user rejected permission to use this specific tool call']

function permissionRefusal(error: unknown, callId: string): Emission | undefined {
  if (typeof error !== 'string' || !PERMISSION_ERRORS.some((words) => error.startsWith(words))) return undefined
  return refusalWarning(APPROVAL_DENIED, error, callId)
}

/**
 * A completed call's result. opencode completes a `bash` call whose command failed and keeps the
 * exit code in `metadata.exit` (1.18.18 ran `exit 3` and said `completed`): a nonzero exit is a
 * failure, as every other harness's shell result reports one.
 */
function completedResult(callId: string, state: JsonObject): Emission {
  const exit = asI64(asObject(state['metadata'])?.['exit']) ?? null
  return toolResult(callId, exit !== null && exit !== 0, state['output'] ?? null, exit)
}

function untimedPartEvents(part: JsonObject, role: string | null, model: string | null, line: number | null): Emission[] {
  const type = asString(part['type']) ?? ''
  switch (type) {
    case 'text': {
      const text = asString(part['text']) ?? ''
      if (role === 'user' || part['synthetic'] === true) return [{ event: 'injection', text, origin: part['synthetic'] === true ? 'synthetic' : 'user' }]
      return [{ event: 'text', text, request_id: null }]
    }
    case 'reasoning':
      return [{ event: 'thinking', text: asString(part['text']) ?? '', request_id: null }]
    case 'step-start':
      return []
    case 'step-finish':
      return [{ event: 'usage', request_id: null, model, usage: opencodeUsage(part['tokens'], part['cost']) }]
    default: {
      const meaning = OPENCODE_PART_RECORDS[`part/${type}`]
      // A part the vocabulary says holds no call (a snapshot id, a patch summary…) is read and gives nothing.
      if (meaning !== undefined && 'carriesNoToolCall' in meaning) return []
      return [opaqueValue(part, 'part', type, line)]
    }
  }
}
