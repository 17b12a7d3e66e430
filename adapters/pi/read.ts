import type { CloseReason, Emission } from '../../src/events/types.js'
import { asArray, asBoolean, asF64, asObject, asString, asU64, isObject, millisToIso, type JsonObject } from '../shared/fields.js'
import { concatenatedObjects } from '../shared/concatenated.js'
import { recordedNestedCall, UnseenNestedCalls } from '../shared/nested-calls.js'
import { OpeningBuffer } from '../shared/opening.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { opaqueLine, opaqueValue } from '../shared/opaque.js'
import { CallClassifier, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { pricedCost } from '../shared/unpriced.js'
import { DriftWatch, meaningOf } from '../shared/vocabulary.js'
import type { LineFormat } from '../formats.js'
import type { RecordProjector, SeamOptions } from '../types.js'
import { PI_VOCABULARY } from './pi-vocabulary.js'
import { PiRunOutcome } from './run-outcome.js'

export const PI_ADAPTER_ID = 'pi'

// pi 1.x's tool that runs the model's JavaScript, whose only reach is pi's other tools (and non-LLM models).
const CODEMODE = 'codemode'

/** pi's built-in tools by operation. */
export const PI_TOOL_OPERATIONS: ToolOperationTable = {
  tools: { read: 'file.read', write: 'file.write', edit: 'file.edit', bash: 'shell', ls: 'dir.list', find: 'dir.list', grep: 'search' },
  // pi 1.x registers an MCP server's tools as `mcp__<server>__<tool>`.
  prefixes: [['mcp__', 'mcp.call']],
  inert: { [CODEMODE]: 'runs JavaScript that reaches nothing but pi’s other tools, each call of which its result records (nestedCalls)' },
  pathKeys: ['path', 'file_path'],
  commandKeys: ['command'],
}

// Where the calls of a tool's code are when its result does not hold them all.
const NESTED_ELSEWHERE = 'no record pi kept (a result keeps at most 256 of a tool’s calls and 32 KiB of their arguments, and a script whose result never came left none)'

// Entries whose `summary` the model is given in place of the context they summarise.
const SUMMARIES = new Set(['compaction', 'branch_summary'])

/**
 * A pi session file (`pi-session-jsonl`, format versions 1–3): a `session` header, then entries
 * (from v2 on, a tree through `parentId`), read in file order. The opening waits for the first
 * message so it can name the model a `model_change` set.
 *
 * `pi --mode json` stdout opens with the same header and goes on with the session's events
 * (`agent_start`, `message_start`/`update`/`end`, `tool_execution_*`, `turn_end`, `agent_end`…):
 * each `message_end` holds the final message, read as a session entry's; the other events repeat
 * what a `message_end` holds or carry no call. Unlike the session file, the stream proves the run
 * ended: its last record is `agent_settled`, or an `agent_end` that will not retry.
 */
export class PiProjector implements RecordProjector {
  private readonly opening = new OpeningBuffer()
  private readonly calls = new CallClassifier(PI_TOOL_OPERATIONS, PI_ADAPTER_ID)
  private readonly drift = new DriftWatch(PI_VOCABULARY)
  private model: string | null = null
  // Whether the last record ended the run (`--mode json` stdout only), and how the last answer stopped.
  private ended = false
  private stoppedBy: string | null = null
  // The run `--mode json` stdout is printing, ended by its `agent_end` (a session file has none).
  private run = new PiRunOutcome()
  // codemode calls whose result, which records the calls their code made, has not come yet.
  private readonly codeRunning = new Set<string>()
  // Calls a tool's code made that no record holds: the stream then proves no end.
  private readonly nested = new UnseenNestedCalls()

  constructor(private readonly seam: SeamOptions) {}

  pushUnreadable(raw: string | Uint8Array, lineNumber: number): Emission[] {
    this.ended = false
    // pi appends without checking the last record ended its line, so two records can share one.
    const records = typeof raw === 'string' ? concatenatedObjects(raw) : null
    if (records) return records.flatMap((record) => this.pushRecord(record.value, record.raw, lineNumber))
    return this.opening.pass([opaqueLine(raw, null, null, lineNumber)])
  }

  pushRecord(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const type = asString(record['type']) ?? ''
    this.ended = type === 'agent_settled' || (type === 'agent_end' && record['willRetry'] !== true)
    if (type === 'message_end') {
      const message = asObject(record['message'])
      return this.pushRecord({ type: 'message', message: record['message'] ?? null, ...(message && millisToIso(message['timestamp']) ? { timestamp: millisToIso(message['timestamp']) } : {}) }, raw, lineNumber)
    }
    // An entry the session appended: a message's own `message_end` carried it already.
    if (type === 'entry_appended') {
      const entry = asObject(record['entry'])
      return entry && asString(entry['type']) !== 'message' ? this.pushRecord(entry, raw, lineNumber) : []
    }
    if (type === 'agent_end' && record['willRetry'] !== true) {
      const ended = this.run.ended()
      this.run = new PiRunOutcome()
      return this.opening.pass([ended])
    }
    const at = asString(record['timestamp'])
    if (type === 'session' && !this.opening.pending) {
      // A v1 header has no `version` and names the model itself.
      this.drift.sawVersion(String(asU64(record['version']) ?? 1))
      this.model = asString(record['modelId']) ?? this.model
      const facts = { session_id: asString(record['id']) ?? null, cwd: asString(record['cwd']) ?? this.seam.cwd ?? null, ...(this.model ? { model: this.model } : {}) }
      this.opening.begin({ ...sessionStart(PI_ADAPTER_ID, this.seam, facts), ...(at ? { at } : {}) })
      return []
    }
    if (type === 'model_change') {
      this.model = asString(record['modelId']) ?? this.model
      const start = this.opening.pending
      if (start) start.model = this.model
      return []
    }
    if (type === 'message') {
      const events = this.message(record, raw, lineNumber)
      return this.opening.release(timed(events, at))
    }
    // pi 1.x: model work outside the conversation, in the run's totals: cache warming (a `usage`
    // entry), and on stdout the summary a compaction wrote.
    if (type === 'usage' || type === 'compaction_end') {
      const work = piUsage(asObject(type === 'usage' ? record['usage'] : asObject(record['result'])?.['usage']))
      if (work) this.run.otherWork(work)
      return []
    }
    if (SUMMARIES.has(type)) return this.opening.pass(timed([{ event: 'injection', text: asString(record['summary']) ?? '', origin: type }], at))
    if (type === 'custom_message') return this.opening.pass(timed([{ event: 'injection', text: textContent(record['content']) ?? '', origin: 'custom_message' }], at))
    if (meaningOf(PI_VOCABULARY, type) !== undefined) return []
    this.drift.sawUnknown(type)
    return this.opening.pass(timed([opaqueLine(raw, type, null, lineNumber)], at))
  }

  finish(): Emission[] {
    // A script whose result never came may have called tools nobody recorded.
    const unrecorded = [...this.codeRunning].map((id) => this.nested.warning(id, CODEMODE, NESTED_ELSEWHERE))
    return this.opening.release([...unrecorded, ...this.drift.finish()])
  }

  closure(): CloseReason | null {
    if (!this.ended) return null
    return this.nested.closure(this.stoppedBy === 'error' || this.stoppedBy === 'aborted' ? 'error' : 'completed')
  }

  private message(record: JsonObject, raw: string, lineNumber: number): Emission[] {
    const message = asObject(record['message'])
    if (!message) return [opaqueLine(raw, 'message', null, lineNumber)]
    const role = asString(message['role']) ?? ''
    switch (role) {
      case 'user':
        return [{ event: 'injection', text: textContent(message['content']) ?? '', origin: 'user' }]
      case 'assistant':
        return this.assistant(message, lineNumber)
      case 'toolResult': {
        const id = asString(message['toolCallId']) ?? ''
        this.codeRunning.delete(id)
        const work = piUsage(asObject(message['usage']))
        if (work) this.run.otherWork(work)
        return [...this.nestedCalls(id, asString(message['toolName']) ?? '', asObject(message['nestedCalls'])), toolResult(id, asBoolean(message['isError']) ?? null, message['content'])]
      }
      case 'system':
        // pi 1.x: the prompt (its base text and named sections) and the tools it offers from here on.
        return [{ event: 'injection', text: systemText(message), origin: 'system' }]
      case 'bashExecution': {
        // The user's own `!command`: its line and output enter the context; the model called nothing.
        const output = asString(message['output'])
        const text = [asString(message['command']) ?? '', ...(output ? [output] : [])].join('\n')
        return [{ event: 'injection', text, origin: 'user_shell' }]
      }
      case 'custom':
      case 'hookMessage':
      case 'branchSummary':
      case 'compactionSummary':
        return [{ event: 'injection', text: textContent(message['content']) ?? asString(message['summary']) ?? '', origin: role }]
      default:
        this.drift.sawUnknown('message', role)
        return [opaqueLine(raw, 'message', role, lineNumber)]
    }
  }

  /**
   * The calls a tool made while it ran (pi 1.x: a codemode script's), which its result records
   * (`nestedCalls`) and no assistant message holds: each call, then how it ended (pi keeps no
   * nested result's content). Where pi left calls or arguments out, or a call had not finished,
   * the calls of the tool's code are not all here.
   */
  private nestedCalls(parentId: string, parentTool: string, record: JsonObject | undefined): Emission[] {
    if (!record) return []
    const events: Emission[] = []
    for (const entry of asArray(record['calls']) ?? []) {
      const call = asObject(entry)
      if (!call) continue
      const status = asString(call['status'])
      events.push(...recordedNestedCall(this.calls, asString(call['id']) ?? '', asString(call['name']) ?? '', call['arguments'] ?? {}, status === 'ok' || status === 'error' ? status === 'error' : undefined))
    }
    if (record['complete'] !== true) events.push(this.nested.warning(parentId, parentTool, NESTED_ELSEWHERE))
    return events
  }

  private assistant(message: JsonObject, lineNumber: number): Emission[] {
    const events: Emission[] = []
    let answer: string | null = null
    for (const block of asArray(message['content']) ?? []) {
      const kind = isObject(block) ? (asString(block['type']) ?? '') : ''
      const object = (isObject(block) ? block : {}) as JsonObject
      if (kind === 'text') {
        const text = asString(object['text']) ?? ''
        answer = answer === null ? text : answer + text
        events.push({ event: 'text', text, request_id: null })
      }
      else if (kind === 'thinking') events.push({ event: 'thinking', text: asString(object['thinking']) ?? '', request_id: null })
      else if (kind === 'toolCall') {
        const name = asString(object['name']) ?? ''
        const input = object['arguments'] ?? {}
        const id = asString(object['id']) ?? ''
        if (name === CODEMODE) this.codeRunning.add(id)
        events.push(...this.calls.call(id, name, input))
      } else {
        this.drift.sawUnknown('message', `assistant/${kind}`)
        events.push(opaqueValue(block, 'message', `assistant/${kind}`, lineNumber))
      }
    }
    const usage = piUsage(asObject(message['usage']))
    const model = asString(message['model']) ?? this.model
    if (usage) events.push({ event: 'usage', request_id: asString(message['responseId']) ?? null, model, usage })
    const stop = asString(message['stopReason'])
    this.stoppedBy = stop ?? null
    this.run.answered(answer, usage, this.stoppedBy)
    if (stop === 'error' || stop === 'aborted') {
      events.push({ event: 'warning', code: `pi-${stop}`, message: asString(message['errorMessage']) ?? `the assistant message stopped: ${stop}` })
    }
    return events
  }
}

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/** A system message's text: its base text (or added instructions), then each section it sets, in order. */
function systemText(message: JsonObject): string {
  const sections = Object.values(asObject(message['sections']) ?? {}).filter((section): section is string => typeof section === 'string')
  return [textContent(message['content']) ?? '', ...sections].filter((part) => part.length > 0).join('\n')
}

/** An answer's `usage` (`{input, output, cacheRead, cacheWrite, cost{total}}`; input without the cache reads), its cost read through `pricedCost`. */
function piUsage(usage: JsonObject | undefined): Usage | null {
  if (!usage) return null
  const cost = asObject(usage['cost'])
  // One literal, the cost filled in after: a spread copy gave every usage a second shape to write.
  const tokens: Usage = {
    input_tokens: asU64(usage['input']) ?? null,
    output_tokens: asU64(usage['output']) ?? null,
    cache_read_input_tokens: asU64(usage['cacheRead']) ?? null,
    cache_creation_input_tokens: asU64(usage['cacheWrite']) ?? null,
    cost_usd: null,
  }
  tokens.cost_usd = pricedCost(cost ? (asF64(cost['total']) ?? null) : null, tokens)
  return tokens
}

/** pi's session file (`PI_CODING_AGENT_SESSION_DIR/*.jsonl`). */
export const piSessionFormat: LineFormat = {
  kind: 'lines',
  // Our own mapping (no upstream projection to match byte for byte): numbers by value.
  numbers: 'value',
  name: 'pi-session-jsonl',
  aliases: [],
  adapter: PI_ADAPTER_ID,
  summary: 'pi session file (format versions 1–3), or `pi --mode json` stdout',
  extension: '.jsonl',
  vocabulary: PI_VOCABULARY,
  createProjector: (seam) => new PiProjector(seam),
  sniff: (record) =>
    // The header; before v3 `version` may be absent (v1), and a v1 header names the model.
    (record['type'] === 'session' &&
      typeof record['timestamp'] === 'string' &&
      typeof record['id'] === 'string' &&
      (typeof record['version'] === 'number' || record['version'] === undefined) &&
      !('seq' in record) &&
      !('createdAt' in record)) ||
    (typeof record['parentId'] !== 'undefined' && typeof record['id'] === 'string' && typeof record['timestamp'] === 'string' && !('sessionId' in record)),
}
