import { digestLine } from '../../src/events/digest.js'
import { JsonNumber } from '../../src/events/float.js'
import { parseJsonLossless } from '../../src/events/json.js'
import { APPROVAL_DENIED, HOOK_REFUSED, refusalWarning } from '../../src/events/refusal-warnings.js'
import type { Emission } from '../../src/events/types.js'
import { asString, asU64, isObject, stringList, type JsonObject } from '../shared/fields.js'
import { isEnriched, seamAttestation, transcriptRef } from '../shared/hermetic.js'
import { toolRequested, UnclassifiedTools } from '../shared/session.js'
import { DriftWatch, meaningOf } from '../shared/vocabulary.js'
import type { LineProjector, SeamOptions } from '../types.js'
import { B10X_ADAPTER_CLASS, B10X_ADAPTER_ID } from './declaration.js'
import { readKnownShape } from './known-shapes.js'
import { B10X_LOOP_VOCABULARY } from './loop-vocabulary.js'

const U32_MAX = 0xffffffff

/** What a line that only adds to the attempt under way reads as: nothing yet, and nothing released. */
const HOLDING: Emission[] = []

const KIND_PREFIX = '{"kind":"'
// The kinds whose numbers or values cross into an event verbatim (token counts, costs, the turn,
// the turns of a finished run, a call's arguments): only they need the lexeme-keeping parse. Every
// other kind carries strings and booleans, and an unknown kind is cited by its raw line's digest.
const LEXEME_KINDS = ['usage', 'cost', 'turn-started', 'tool-requested', 'finished']

/** False only for a line the loop wrote (kind first, unescaped) whose kind carries no number or value across. */
function needsLexemes(line: string): boolean {
  if (!line.startsWith(KIND_PREFIX)) return true
  const start = KIND_PREFIX.length
  const end = line.indexOf('"', start)
  // An escape inside the kind could spell any kind: read such a line the careful way.
  if (end === -1 || line.lastIndexOf('\\', end) !== -1) return true
  const length = end - start
  for (const kind of LEXEME_KINDS) if (kind.length === length && line.startsWith(kind, start)) return true
  return false
}

/**
 * The b10x loop record (`b10x-harness --json`) → `metaharness.event/1`, reproducing
 * metaharness's projection: observe-only (every call `decision_required:false`, `seam:"none"`),
 * enforcement surfaced as warnings, bookkeeping read and not emitted, anything else opaque.
 *
 * Enriched (what `convert` and `check` read by default), it also keeps what upstream's projection
 * drops or leaves opaque:
 * - the `operation` and `subjects` the loop itself resolved for each call, so a check over
 *   operations sees a `file_read` as the `file.read` it was; a call the loop resolved no operation
 *   for (an unpublished tool, an older build such as the 0.9.1 golden) is named unclassified;
 * - a `reasoning-delta` as the model's thinking, and every record its vocabulary
 *   (`B10X_LOOP_VOCABULARY`) lists as carrying no call as read; any other kind is version drift;
 * - the subagents it delegated to, counted;
 * - an attempt's text and thinking held until its stream ended, so a retried attempt's are
 *   discarded, as the loop says a consumer must.
 */
export class B10xProjector implements LineProjector {
  private spentMicroUsd: bigint | undefined
  private readonly enriched: boolean
  private readonly unclassified = new UnclassifiedTools(B10X_ADAPTER_ID)
  private delegates = 0
  private readonly drift = new DriftWatch(B10X_LOOP_VOCABULARY)
  // Enriched: the text and thinking of the attempt whose stream is under way.
  private held: Emission[] = []

  constructor(private readonly seam: SeamOptions) {
    // Replays (the vectors, `replayB10xLoop`) reproduce upstream's bytes unless told otherwise.
    this.enriched = isEnriched(seam, 'upstream')
    this.drift.sawVersion(seam.harnessVersion)
  }

  private opaque(line: string, subtype: string | null, lineNumber: number): Emission {
    return {
      event: 'opaque',
      vendor_type: B10X_ADAPTER_ID,
      vendor_subtype: subtype,
      digest: digestLine(line),
      source_line: lineNumber,
    }
  }

  pushUndecodable(bytes: Uint8Array, lineNumber: number): Emission[] {
    return this.released([{ event: 'opaque', vendor_type: B10X_ADAPTER_ID, vendor_subtype: null, digest: digestLine(bytes), source_line: lineNumber }])
  }

  pushLine(line: string, lineNumber: number): Emission[] {
    return this.released(this.readLine(line, lineNumber))
  }

  /**
   * A line's events, after the text and thinking held back for the attempt under way (enriched):
   * any record but a delta shows the attempt's stream ended, so what it held stands.
   */
  private released(events: Emission[]): Emission[] {
    if (events === HOLDING) return []
    if (this.held.length === 0) return events
    const held = this.held
    this.held = []
    return [...held, ...events]
  }

  /** Holds a delta's event until its attempt's stream ends (enriched), or passes it on. */
  private delta(event: Emission): Emission[] {
    if (!this.enriched) return [event]
    this.held.push(event)
    return HOLDING
  }

  private readLine(line: string, lineNumber: number): Emission[] {
    // A record line starts with `{`; only anything else can be blank.
    if (line.charCodeAt(0) !== 0x7b && line.trim().length === 0) return []
    // The loop's frequent records are read from their exact shape; the rest are parsed.
    let parsed: unknown = readKnownShape(line)
    if (parsed === undefined) {
      try {
        // Only kinds whose numbers or values cross verbatim need the lexeme-keeping parse.
        parsed = needsLexemes(line) ? parseJsonLossless(line) : JSON.parse(line)
      } catch {
        return [this.opaque(line, null, lineNumber)]
      }
    }
    const record: JsonObject = isObject(parsed) ? parsed : {}
    // A JSON line without a string `kind` (an array, `{"kind":7}`) is an unknown kind named "".
    const kind = asString(record['kind']) ?? ''
    switch (kind) {
      case 'started':
        return [this.started(record)]
      case 'text-delta':
        return this.delta({ event: 'text', text: asString(record['text']) ?? '', request_id: null })
      case 'tool-requested': {
        const callId = asString(record['call_id']) ?? ''
        const name = asString(record['name']) ?? ''
        const input = record['arguments'] ?? null
        // Upstream's projection writes the call with neither list, as the loop's record had none.
        if (!this.enriched) return [{ event: 'tool.requested', call_id: callId, name, input, decision_required: false, deadline_ms: null, seam: 'none' }]
        // As the loop resolved the call (both absent, never empty, where it did not); no operation is unclassified.
        const operation = asString(record['operation'])
        const call = toolRequested(callId, name, input, { operations: operation === undefined ? [] : [operation], subjects: stringList(record['subjects']) ?? [] })
        return this.unclassified.warnBefore(call, operation !== undefined)
      }
      case 'reasoning-delta':
        if (this.enriched) return this.delta({ event: 'thinking', text: asString(record['text']) ?? '', request_id: null })
        return [this.opaque(line, kind, lineNumber)]
      case 'turn-retried': {
        // The loop's word: the consumer discards the retried attempt's deltas.
        if (!this.enriched) return [this.opaque(line, kind, lineNumber)]
        const discarded = this.held.length
        this.held = []
        const turn = asU64(record['turn'])
        const attempt = asU64(record['attempt'])
        const reason = asString(record['reason']) ?? 'no reason given'
        return [{ event: 'warning', code: 'turn-retried', message: `turn ${turn ?? '?'} was retried after attempt ${attempt ?? '?'} (${reason}); its ${discarded} streamed event(s) were discarded` }]
      }
      case 'tool-completed': {
        const failed = record['failed']
        return [
          {
            event: 'tool.result',
            exit_code: null,
            outcome_source: null,
            call_id: asString(record['call_id']) ?? '',
            is_error: typeof failed === 'boolean' ? failed : null,
            content: null,
            bytes: null,
            tool_use_result: null,
          },
        ]
      }
      case 'usage':
        return [
          {
            event: 'usage',
            request_id: null,
            model: asString(record['model']) ?? this.seam.model ?? null,
            usage: {
              input_tokens: asU64(record['input_tokens']),
              output_tokens: asU64(record['output_tokens']),
              cache_read_input_tokens: asU64(record['cached_input_tokens']),
            },
          },
        ]
      case 'cost': {
        // Folded into the run's total on session.ended; the per-turn figure has no event of its own.
        // Beyond 2^53 the value is still the JsonNumber that keeps its every digit.
        const micro = asU64(record['micro_usd']) as number | JsonNumber | undefined
        if (micro !== undefined) {
          const add = micro instanceof JsonNumber ? BigInt(micro.text) : BigInt(micro)
          this.spentMicroUsd = (this.spentMicroUsd ?? 0n) + add
        }
        return []
      }
      case 'finished':
        return [this.finished(record)]
      case 'turn-started': {
        const turn = asU64(record['turn'])
        const value = turn === undefined ? 0 : Number(turn)
        return [{ event: 'turn.started', turn: value <= U32_MAX ? value : 0, frame_digest: null }]
      }
      case 'warning':
        return [{ event: 'warning', code: asString(record['code']) ?? '', message: asString(record['message']) ?? '' }]
      case 'hook-ran':
        return this.hookRan(record)
      case 'approval-resolved': {
        if (record['approved'] !== false) return []
        const callId = asString(record['call_id'])
        // Upstream's projection names the call in words alone; enriched, the warning names it too.
        return [refusalWarning(APPROVAL_DENIED, `the approver denied ${callId ?? 'an unnamed call'}`, this.enriched ? callId : undefined)]
      }
      case 'tool-arguments-delta':
        // Still the attempt's stream: what it holds waits on.
        return this.enriched ? HOLDING : []
      case 'approval-required':
      case 'rates':
        return []
      case 'delegate-started':
        // A subagent began; its own events come as `delegated` lines, which stay unread.
        if (!this.enriched) return [this.opaque(line, kind, lineNumber)]
        this.delegates += 1
        return []
      default: {
        // Enriched, a record the vocabulary says carries no call is read; any other is opaque, and drift.
        const meaning = this.enriched ? meaningOf(B10X_LOOP_VOCABULARY, kind) : undefined
        if (meaning !== undefined && 'carriesNoToolCall' in meaning) return []
        if (this.enriched) this.drift.sawUnknown(kind)
        return [this.opaque(line, kind, lineNumber)]
      }
    }
  }

  finish(): Emission[] {
    // No terminal record is invented for a run that stopped without one; what an attempt cut off
    // had streamed is kept, as it stood.
    return this.released(this.enriched ? this.drift.finish() : [])
  }

  private started(record: JsonObject): Emission {
    const withheld = record['withheld']
    return {
      event: 'session.started',
      adapter: B10X_ADAPTER_ID,
      adapter_class: B10X_ADAPTER_CLASS,
      harness_version: this.seam.harnessVersion ?? null,
      session_id: null,
      model: asString(record['model']) ?? this.seam.model ?? null,
      permission_mode: null,
      credential_source: asString(record['credential_source']) ?? null,
      output_style: null,
      cwd: this.seam.cwd ?? null,
      offered_tools: stringList(record['published_tools']),
      available_operations: stringList(record['operations']),
      // Absent is "the record did not say", never "nothing was withheld".
      withheld: Array.isArray(withheld)
        ? withheld.map((entry) => ({
            tool: isObject(entry) ? (asString(entry['tool']) ?? '') : '',
            reason: isObject(entry) ? (asString(entry['reason']) ?? '') : '',
          }))
        : null,
      slash_commands: null,
      skills: stringList(record['skills']) ?? [],
      agents: stringList(record['agents']) ?? [],
      plugins: null,
      // b10x-harness has no MCP client at all: "none" is a standing fact, not a guess.
      mcp_servers: [],
      inputs_digest: null,
      transcript: transcriptRef(this.seam),
      hermetic: seamAttestation(this.seam),
    }
  }

  private finished(record: JsonObject): Emission {
    const stop = record['stop']
    const reason = (isObject(stop) ? asString(stop['kind']) : undefined) ?? 'unknown'
    const turns = asU64(record['turns']) ?? (isObject(stop) ? asU64(stop['turns']) : undefined)
    return {
      event: 'session.ended',
      final_answer: null,
      observed_models: null,
      is_error: reason !== 'completed',
      subtype: reason,
      stop_reason: null,
      terminal_reason: reason,
      api_error_status: null,
      num_turns: (turns as number | undefined) ?? null,
      duration_ms: null,
      duration_api_ms: null,
      ttft_ms: null,
      time_to_request_ms: null,
      // Null where no rate card priced the run: a zero would be a lie about a run that cost money.
      total_cost_usd: this.spentMicroUsd === undefined ? null : microUsdToNumber(this.spentMicroUsd),
      permission_denials: [],
      // Upstream writes 0 whatever the loop delegated; enriched, the delegations counted.
      subagents_spawned: this.enriched ? this.delegates : 0,
      usage: null,
      model_usage: null,
      census: { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} },
    }
  }

  private hookRan(record: JsonObject): Emission[] {
    const decision = isObject(record['decision']) ? record['decision'] : {}
    switch (decision['kind']) {
      case 'block':
        return [
          refusalWarning(HOOK_REFUSED, asString(decision['reason']) ?? 'a hook refused the call and gave no reason'),
        ]
      case 'failed':
        return [
          {
            event: 'warning',
            code: 'hook-failed',
            message: asString(decision['reason']) ?? asString(decision['program']) ?? 'a hook could not be consulted',
          },
        ]
      default:
        return []
    }
  }
}

/** Millionths of a dollar as the nearest double to the exact decimal, as upstream parses it. */
function microUsdToNumber(micro: bigint): number {
  const whole = micro / 1_000_000n
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0')
  return Number(`${whole}.${fraction}`)
}
