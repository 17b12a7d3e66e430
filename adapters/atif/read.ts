import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, asF64, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { opaqueValue } from '../shared/opaque.js'
import { classifiedCall, sessionEnded, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { argumentsObject } from '../shared/arguments.js'
import type { SeamOptions } from '../types.js'

export const ATIF_ADAPTER_ID = 'atif'
export const TERMINUS_ADAPTER_ID = 'terminus'

/** The ATIF versions read: the RFC's v1.0–v1.4 and the later v1.5–v1.7. */
const ACCEPTED_VERSION = /^ATIF-v1\.[0-7]$/

/** Terminus-2's two tools, and the usual function names an ATIF trajectory carries. */
export const ATIF_TOOL_OPERATIONS: ToolOperationTable = {
  tools: { bash_command: 'shell', bash: 'shell', shell: 'shell', read_file: 'file.read', write_file: 'file.write', edit_file: 'file.edit', list_dir: 'dir.list', web_fetch: 'web.read' },
  pathKeys: ['path', 'file_path'],
  commandKeys: ['keystrokes', 'command', 'cmd'],
}

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/** ATIF's token figures as `metaharness.event/1` counts them: `prompt_tokens` includes the cached part, `input_tokens` does not. */
function atifUsage(prompt: unknown, completion: unknown, cached: unknown, cost: unknown, extra?: JsonObject): Usage {
  const promptTokens = asU64(prompt)
  const cachedTokens = asU64(cached)
  return {
    input_tokens: promptTokens === undefined ? null : promptTokens - Math.min(promptTokens, cachedTokens ?? 0),
    output_tokens: asU64(completion) ?? null,
    cache_read_input_tokens: cachedTokens ?? null,
    cache_creation_input_tokens: null,
    service_tier: null,
    thinking_tokens: extra ? (asU64(extra['reasoning_tokens']) ?? null) : null,
    iterations: null,
    speed: null,
    cost_usd: asF64(cost) ?? null,
  }
}

/**
 * ATIF trajectories (Harbor RFC 0001, v1.0–v1.7) and Reef's terminus trial records (the same
 * steps under a verifier's outcome). Each step becomes its events; Harbor's validator rules that
 * fail become warnings (the conversion carries on, saying so).
 */
class AtifReader implements DocumentReader {
  private closed: CloseReason | null = null

  constructor(
    private readonly seam: SeamOptions,
    private readonly expected: 'atif' | 'terminus',
  ) {}

  pushDocument(document: ParsedDocument): Emission[] {
    const root = document.value
    const steps = asArray(root['steps'])
    if (!steps) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not an ATIF trajectory: it has no steps list')
    const version = asString(root['schema_version'])
    const terminus = version === undefined
    if (terminus && this.expected === 'atif') {
      throw new TranscriptError('VH_TRANSCRIPT_UNSUPPORTED_VERSION', document.file, 1, 'the document has no schema_version; an ATIF trajectory names one (ATIF-v1.0 to ATIF-v1.7)')
    }
    if (!terminus && !ACCEPTED_VERSION.test(version)) {
      throw new TranscriptError('VH_TRANSCRIPT_UNSUPPORTED_VERSION', document.file, 1, `schema_version ${JSON.stringify(version)} is not one this reader accepts (ATIF-v1.0 to ATIF-v1.7)`)
    }
    const agent = asObject(root['agent']) ?? {}
    const definitions = asArray(agent['tool_definitions'])
    const events: Emission[] = [
      sessionStart(terminus ? TERMINUS_ADAPTER_ID : ATIF_ADAPTER_ID, this.seam, {
        harness_version: asString(agent['version']) ?? this.seam.harnessVersion ?? null,
        session_id: asString(root['session_id']) ?? null,
        model: asString(agent['model_name']) ?? this.seam.model ?? null,
        offered_tools: definitions
          ? definitions.map((definition) => {
              const object = asObject(definition) ?? {}
              return asString(object['name']) ?? asString(asObject(object['function'])?.['name']) ?? ''
            })
          : null,
      }),
    ]
    steps.forEach((step, index) => events.push(...this.step(step, index, document, asString(agent['model_name']) ?? null)))
    if (terminus) {
      const failed = root['failed'] === true
      events.push(sessionEnded({ is_error: failed, subtype: asString(root['error']) ?? null, terminal_reason: failed ? 'failed' : 'completed' }))
      this.closed = failed ? 'error' : 'completed'
    } else {
      const metrics = asObject(root['final_metrics'])
      if (metrics) {
        events.push(
          sessionEnded({
            total_cost_usd: asF64(metrics['total_cost_usd']) ?? null,
            usage: atifUsage(metrics['total_prompt_tokens'], metrics['total_completion_tokens'], metrics['total_cached_tokens'], undefined),
          }),
        )
        this.closed = 'completed'
      } else this.closed = null
    }
    return events
  }

  finish(): Emission[] {
    return []
  }

  closure(): CloseReason | null {
    return this.closed
  }

  private step(step: unknown, index: number, document: ParsedDocument, agentModel: string | null): Emission[] {
    const line = document.lineOf('steps', index)
    if (!isObject(step)) return [opaqueValue(step, 'step', null, line)]
    const events: Emission[] = []
    const id = asU64(step['step_id'])
    if (id !== index + 1) events.push({ event: 'warning', code: 'atif-step-id', message: `step ${index + 1} has step_id ${JSON.stringify(step['step_id'] ?? null)}; ATIF step ids run from 1 in order` })
    const source = asString(step['source']) ?? ''
    const message = textContent(step['message'])
    if (source === 'user' || source === 'system') {
      events.push({ event: 'injection', text: message ?? '', origin: source })
      if (step['tool_calls'] !== undefined || step['metrics'] !== undefined) events.push({ event: 'warning', code: 'atif-agent-field', message: `step ${index + 1} is a ${source} step carrying agent-only fields` })
      return timed(events, asString(step['timestamp']))
    }
    if (source !== 'agent') return [...events, opaqueValue(step, 'step', source, line)]
    const reasoning = asString(step['reasoning_content'])
    if (reasoning !== undefined && reasoning.length > 0) events.push({ event: 'thinking', text: reasoning, request_id: null })
    if (message !== undefined && message.length > 0) events.push({ event: 'text', text: message, request_id: null })
    const callIds: string[] = []
    for (const call of asArray(step['tool_calls']) ?? []) {
      const object = asObject(call) ?? {}
      const callId = asString(object['tool_call_id']) ?? ''
      callIds.push(callId)
      const name = asString(object['function_name']) ?? ''
      const input = argumentsObject(object['arguments'], 'arguments')
      events.push(classifiedCall(ATIF_TOOL_OPERATIONS, callId, name, input))
    }
    const observation = asObject(step['observation'])
    for (const result of asArray(observation?.['results']) ?? []) {
      const object = asObject(result) ?? {}
      const named = asString(object['source_call_id'])
      if (named !== undefined && !callIds.includes(named)) {
        events.push({ event: 'warning', code: 'atif-unmatched-result', message: `step ${index + 1} has a result for ${named}, which no call of that step made` })
      }
      // Terminus writes terminal text with no call id: it answers the step's only call, when there is one.
      const callId = named ?? (callIds.length === 1 ? (callIds[0] as string) : '')
      events.push(toolResult(callId, null, object['content'] ?? null))
    }
    const metrics = asObject(step['metrics'])
    if (metrics) {
      events.push({
        event: 'usage',
        request_id: null,
        model: asString(step['model_name']) ?? agentModel,
        usage: atifUsage(metrics['prompt_tokens'], metrics['completion_tokens'], metrics['cached_tokens'], metrics['cost_usd'], asObject(metrics['extra'])),
      })
    }
    return timed(events, asString(step['timestamp']))
  }
}

/** A plain ATIF trajectory (`trajectory.json`). */
export const atifFormat: DocumentFormat = {
  kind: 'documents',
  name: 'atif-json',
  aliases: ['atif'],
  adapter: ATIF_ADAPTER_ID,
  summary: 'ATIF trajectory (Harbor RFC 0001), v1.0–v1.7',
  extension: '.json',
  createReader: (seam) => new AtifReader(seam, 'atif'),
  sniff: (document) => typeof document['schema_version'] === 'string' && (document['schema_version'] as string).startsWith('ATIF-') && Array.isArray(document['steps']),
}

/** Reef's terminus trial record: the verifier's outcome and every ATIF step of the trial. */
export const terminusFormat: DocumentFormat = {
  kind: 'documents',
  name: 'terminus-atif-json',
  aliases: [],
  adapter: TERMINUS_ADAPTER_ID,
  summary: "Reef's terminus trial record (<task>.json: rewards, failed, error, steps)",
  extension: '.json',
  createReader: (seam) => new AtifReader(seam, 'terminus'),
  sniff: (document) => document['schema_version'] === undefined && Array.isArray(document['steps']) && ('rewards' in document || 'failed' in document || 'task' in document),
}
