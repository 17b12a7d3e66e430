import { digestLine } from '../../src/events/digest.js'
import type { Emission, Hermetic } from '../../src/events/types.js'
import { NO_ATTESTATION, seamAttestation, transcriptRef } from '../shared/hermetic.js'
import type { LineProjector, SeamOptions } from '../types.js'
import { SCRIPTED_ADAPTER_ID } from './declaration.js'

type Json = Record<string, unknown>

// The fake vendor asks for every call's decision: nothing imposed, every decision asked.
const DEFAULT_HERMETIC: Hermetic = { ...NO_ATTESTATION, decisions: 'ask' }

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function text(record: Json, key: string): string | null {
  const value = record[key]
  return typeof value === 'string' ? value : null
}

function count(record: Json, key: string): number | null {
  const value = record[key]
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

function flag(record: Json, key: string): boolean | null {
  const value = record[key]
  return typeof value === 'boolean' ? value : null
}

function strings(record: Json, key: string): string[] | null {
  const value = record[key]
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null
}

/**
 * The scripted fake vendor's wire → events. One JSON object per line with an `emit` key naming
 * the event; `{"awaiting":…}` is the fake's own "I am blocked" marker and emits nothing; anything
 * else is opaque, never dropped. Every call arrives through the hook seam.
 */
export class ScriptedProjector implements LineProjector {
  constructor(private readonly seam: SeamOptions) {}

  pushUndecodable(bytes: Uint8Array, lineNumber: number): Emission[] {
    return [{ event: 'opaque', vendor_type: null, vendor_subtype: null, digest: digestLine(bytes), source_line: lineNumber }]
  }

  pushLine(line: string, lineNumber: number): Emission[] {
    if (line.trim().length === 0) return []
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      return [{ event: 'opaque', vendor_type: null, vendor_subtype: null, digest: digestLine(line), source_line: lineNumber }]
    }
    if (!isObject(record)) {
      return [{ event: 'opaque', vendor_type: null, vendor_subtype: null, digest: digestLine(line), source_line: lineNumber }]
    }
    if (typeof record['awaiting'] === 'string' && record['emit'] === undefined) return []
    const emitted = this.project(record, lineNumber)
    if (emitted) return [emitted]
    const emit = text(record, 'emit')
    return [{ event: 'opaque', vendor_type: emit, vendor_subtype: null, digest: digestLine(line), source_line: lineNumber }]
  }

  finish(): Emission[] {
    return []
  }

  private project(record: Json, lineNumber: number): Emission | undefined {
    switch (record['emit']) {
      case 'session.started':
        return {
          event: 'session.started',
          adapter: SCRIPTED_ADAPTER_ID,
          adapter_class: 'harness',
          harness_version: text(record, 'harness_version') ?? this.seam.harnessVersion ?? null,
          session_id: text(record, 'session_id'),
          model: text(record, 'model') ?? this.seam.model ?? null,
          permission_mode: text(record, 'permission_mode'),
          credential_source: text(record, 'credential_source'),
          output_style: text(record, 'output_style'),
          cwd: text(record, 'cwd') ?? this.seam.cwd ?? null,
          offered_tools: strings(record, 'offered_tools'),
          slash_commands: strings(record, 'slash_commands'),
          skills: strings(record, 'skills'),
          agents: strings(record, 'agents'),
          plugins: strings(record, 'plugins')?.map((name) => ({ name, source: null, version: null })) ?? null,
          mcp_servers: strings(record, 'mcp_servers')?.map((name) => ({ name, status: null })) ?? null,
          inputs_digest: null,
          transcript: transcriptRef(this.seam),
          hermetic: seamAttestation(this.seam, DEFAULT_HERMETIC),
        }
      case 'session.ended': {
        const cost = record['total_cost_usd']
        return {
          event: 'session.ended',
          is_error: flag(record, 'is_error'),
          subtype: text(record, 'subtype'),
          stop_reason: text(record, 'stop_reason'),
          terminal_reason: text(record, 'terminal_reason'),
          num_turns: count(record, 'num_turns'),
          duration_ms: count(record, 'duration_ms'),
          total_cost_usd: typeof cost === 'number' ? cost : null,
          permission_denials: [],
          // The driver that decided the calls fills the census in; a replay decided none.
          census: { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} },
        }
      }
      case 'tool.requested':
        return {
          event: 'tool.requested',
          call_id: text(record, 'call_id') ?? '',
          name: text(record, 'name') ?? '',
          input: record['input'] ?? null,
          decision_required: false,
          deadline_ms: null,
          seam: 'hook',
        }
      case 'tool.result':
        return {
          event: 'tool.result',
          call_id: text(record, 'call_id') ?? '',
          is_error: flag(record, 'is_error'),
          content: record['content'] ?? null,
          tool_use_result: record['tool_use_result'] ?? null,
        }
      case 'text':
        return { event: 'text', text: text(record, 'text') ?? '', request_id: text(record, 'request_id') }
      case 'turn.ended':
        return { event: 'turn.ended', turn: count(record, 'turn') ?? 1, stop_reason: text(record, 'stop_reason') }
      case 'auth.expired':
        return {
          event: 'auth.expired',
          credential_source: text(record, 'credential_source'),
          detail: text(record, 'detail'),
          source_line: lineNumber,
        }
      default:
        return undefined
    }
  }
}
