import { sha256Hex } from '../events/digest.js'
import { escapeForTerminal } from '../util/terminal-text.js'
import { compareCodePoints } from '../events/json.js'
import { CallCorrelator, StepClock } from './check/context.js'
import { compactInput, repetitionKey } from './ir/call.js'
import { openTranscriptPath } from './ir/any-format.js'
import type { TranscriptChunk, TranscriptReadOptions } from './ir/read.js'
import type { AdapterRef, AssistantRequest, IrEvent, IrSink, StreamClose, StreamEnd } from './ir/types.js'
import { witnessMarker } from './ir/types.js'
import { timeOf } from './ir/timestamp.js'
import { readThrough } from './read-through.js'
import { utf8Length } from './rust-format.js'

/** What one tool cost the run: calls, errors, and the bytes each direction carried. */
export interface ToolTraffic {
  calls: number
  errors: number
  results: number
  /** Bytes of arguments (model output). */
  input_bytes: number
  /** Bytes of results (injected into the next request). */
  result_bytes: number
}

/** One call's place in the run's wall clock, derived from recorded timestamps. */
export interface CensusStep {
  call_event: number
  tool: string
  gen_ms: number | null
  exec_ms: number | null
}

/**
 * What `inspect` reports: upstream's census (events by family, unread events, requests, per-tool
 * traffic, repeated call groups, per-call steps and the time split), plus which reader read the
 * transcript and whether its producer said it was whole.
 */
export interface TraceCensus {
  transcript_digest: string
  adapter: AdapterRef
  events: number
  events_by_family: Record<string, number>
  opaque_events: number
  assistant_events: number
  api_requests: number
  tool_traffic: Record<string, ToolTraffic>
  /** Calls of tools no operation table knows, by tool name: a selector by operation or by subject alone cannot see them. */
  unclassified_calls: Record<string, number>
  /** Shell calls by the program their line named only through an expansion (`$TOOL`): a selector by subject cannot rule them out. */
  unnamed_programs: Record<string, number>
  repeated_call_groups: number
  steps: CensusStep[]
  inference_total_ms: number | null
  tool_exec_total_ms: number | null
  /** The producer's statement that the transcript is the whole run, or `null`: nobody said. */
  closure: StreamClose | null
  /** The statements this wire can carry. */
  closure_markers: string[]
  /** Subagents that ran whose calls the transcript says it does not hold (`subagent_calls_unseen`). */
  subagents_unseen: number
  /** Processes that could have been sent input the transcript says it does not hold (`process_input_unseen`). */
  processes_unseen: number
  /** Calls whose code called tools the transcript says it does not hold (`nested_calls_unseen`). */
  nested_unseen: number
  /** Records that said their usage sums several model requests (`requests_unmarked`): `api_requests` is then a lower bound. */
  requests_unmarked: number
}

function sortedRecord<T>(map: Map<string, T>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const key of [...map.keys()].sort(compareCodePoints)) out[key] = map.get(key) as T
  return out
}

/** Sums derived durations, or `null` when any is missing (or there are none). */
function totalOf(values: (number | null)[]): number | null {
  if (values.length === 0) return null
  let total = 0
  for (const value of values) {
    if (value === null) return null
    total += value
  }
  return total
}

/**
 * Counts a transcript as its IR goes by. Per-call steps and distinct request ids are kept (the
 * census lists them); everything else is a counter.
 */
export class CensusSink implements IrSink {
  private readonly families = new Map<string, number>()
  private opaque = 0
  private events = 0
  private assistantEvents = 0
  private readonly requestIds = new Set<string>()
  private anonymousRequests = 0
  private readonly traffic = new Map<string, ToolTraffic>()
  private readonly unclassified = new Map<string, number>()
  private readonly unnamed = new Map<string, number>()
  private readonly groups = new Map<string, number>()
  private readonly steps: CensusStep[] = []
  private readonly clock = new StepClock()
  private readonly correlator = new CallCorrelator()
  private ended: StreamEnd | null = null

  event(event: IrEvent): void {
    this.events += 1
    this.families.set(event.family, (this.families.get(event.family) ?? 0) + 1)
    this.clock.observe(event)
    if (event.family === 'opaque') this.opaque += 1
    else if (event.family === 'tool_result') this.correlator.result(event)
    else if (event.family === 'tool_call') {
      const call = event.call
      let traffic = this.traffic.get(call.name)
      if (!traffic) {
        traffic = { calls: 0, errors: 0, results: 0, input_bytes: 0, result_bytes: 0 }
        this.traffic.set(call.name, traffic)
      }
      const counted = traffic
      counted.calls += 1
      if (call.unclassified) this.unclassified.set(call.name, (this.unclassified.get(call.name) ?? 0) + 1)
      for (const program of call.unnamedPrograms) this.unnamed.set(program, (this.unnamed.get(program) ?? 0) + 1)
      counted.input_bytes += utf8Length(compactInput(call.input))
      const key = repetitionKey(call)
      const id = key.length <= 64 ? `k${key}` : `h${sha256Hex(key)}`
      this.groups.set(id, (this.groups.get(id) ?? 0) + 1)
      const step: CensusStep = { call_event: event.index, tool: call.name, gen_ms: this.clock.genOf(event), exec_ms: null }
      this.steps.push(step)
      this.correlator.call(event)
      const sent = timeOf(event.timestamp)
      this.correlator.onResult(event, (result) => {
        counted.results += 1
        counted.result_bytes += result.result.contentBytes ?? 0
        if (result.result.isError === true) counted.errors += 1
        const done = timeOf(result.timestamp)
        if (sent !== null && done !== null) step.exec_ms = done - sent
      })
    }
  }

  request(request: AssistantRequest): void {
    this.assistantEvents += 1
    if (request.requestId === null) this.anonymousRequests += 1
    else this.requestIds.add(request.requestId)
  }

  end(end: StreamEnd): void {
    this.ended = end
  }

  census(transcriptDigest: string): TraceCensus {
    const end = this.ended
    if (end === null) throw new Error('the transcript has not ended')
    return {
      transcript_digest: transcriptDigest,
      adapter: end.adapter,
      events: this.events,
      events_by_family: sortedRecord(this.families),
      opaque_events: this.opaque,
      assistant_events: this.assistantEvents,
      api_requests: this.requestIds.size + this.anonymousRequests,
      tool_traffic: sortedRecord(this.traffic),
      unclassified_calls: sortedRecord(this.unclassified),
      unnamed_programs: sortedRecord(this.unnamed),
      repeated_call_groups: [...this.groups.values()].filter((count) => count > 1).length,
      steps: this.steps,
      inference_total_ms: totalOf(this.steps.map((step) => step.gen_ms)),
      tool_exec_total_ms: totalOf(this.steps.map((step) => step.exec_ms)),
      closure: end.closure,
      closure_markers: [...end.closureMarkers],
      subagents_unseen: end.subagentsUnseen,
      processes_unseen: end.processesUnseen,
      nested_unseen: end.nestedUnseen,
      requests_unmarked: end.requestsUnmarked,
    }
  }
}

/** Takes the census of a transcript streamed from any byte source. */
export async function inspectTranscript(source: AsyncIterable<TranscriptChunk>, options: TranscriptReadOptions & { source?: string; requireRead?: boolean } = {}): Promise<TraceCensus> {
  const sink = new CensusSink()
  const result = await readThrough(source, sink, options)
  return sink.census(result.digest)
}

/**
 * The census of a transcript file (or directory) in any supported format, streamed: converted by
 * its adapter where the trace reader does not read it itself (see `checkTranscriptFile`).
 */
export function inspectTranscriptFile(path: string, options: TranscriptReadOptions & { source?: string; from?: string } = {}): Promise<TraceCensus> {
  const { from, ...rest } = options
  const opened = openTranscriptPath(path, from, options.source ?? path)
  return inspectTranscript(opened.bytes, { source: path, ...rest, ...opened.read })
}

const ms = (value: number | null) => (value === null ? '?' : `${value}ms`)

/** A census for a person, as upstream prints it, then the reader and the closure. */
export function censusToText(census: TraceCensus): string {
  const lines = [`transcript   sha256:${census.transcript_digest}`]
  const families = Object.entries(census.events_by_family).map(([family, count]) => `${count} ${family}`)
  lines.push(`events       ${census.events} total — ${families.join(', ')}`)
  lines.push(`unread       ${census.opaque_events} event(s) the adapter could not read`)
  const atLeast = census.requests_unmarked > 0 ? 'at least ' : ''
  const unmarked = census.requests_unmarked > 0 ? ' — the record sums usage over several requests (requests_unmarked)' : ''
  lines.push(`requests     ${atLeast}${census.assistant_events} assistant events, ${atLeast}${census.api_requests} api requests${unmarked}`)
  let calls = 0
  let results = 0
  for (const [tool, traffic] of Object.entries(census.tool_traffic)) {
    lines.push(`tool         ${tool}: ${traffic.calls} call(s), ${traffic.errors} error(s), in ${traffic.input_bytes}B, results ${traffic.result_bytes}B`)
    calls += traffic.calls
    results += traffic.result_bytes
  }
  lines.push(`tools-total  ${calls} call(s), results ${results}B into context`)
  const unclassified = Object.entries(census.unclassified_calls)
  if (unclassified.length > 0) {
    const named = unclassified.map(([tool, count]) => `${tool} ×${count}`).join(', ')
    lines.push(`unclassified ${unclassified.reduce((sum, [, count]) => sum + count, 0)} call(s) of tools no operation table knows: ${named} — a check by operation or by subject alone cannot see them`)
  }
  const unnamed = Object.entries(census.unnamed_programs)
  if (unnamed.length > 0) {
    const named = unnamed.map(([program, count]) => `${program} ×${count}`).join(', ')
    lines.push(`unnamed      shell lines name a program only through an expansion: ${named} — a check by subject cannot rule those calls out`)
  }
  lines.push(`repeated     ${census.repeated_call_groups} identical call group(s)`)
  census.steps.forEach((step, position) => {
    lines.push(`step         ${position + 1}. ${step.tool} (event ${step.call_event}): gen ${ms(step.gen_ms)}, exec ${ms(step.exec_ms)}`)
  })
  lines.push(`time-split   inference ${ms(census.inference_total_ms)}, tool-exec ${ms(census.tool_exec_total_ms)} across ${census.steps.length} step(s)`)
  lines.push(`adapter      ${census.adapter.name} (written against ${census.adapter.written_against.join(', ')})`)
  const close = census.closure
  const unseen = census.subagents_unseen
  const running = census.processes_unseen
  const nested = census.nested_unseen
  lines.push(
    close === null && unseen > 0
      ? `closure      not closed — ${unseen} subagent(s) ran apart from this transcript (subagent_calls_unseen): their calls are in their own files`
      : close === null && running > 0
        ? `closure      not closed — ${running} process(es) could have been sent input this transcript does not show (process_input_unseen)`
      : close === null && nested > 0
        ? `closure      not closed — ${nested} call(s) ran code that called tools apart from this transcript (nested_calls_unseen)`
      : close === null
        ? `closure      not closed — nothing says this is the whole run (${census.closure_markers.join(' or ')} would)`
        : `closure      closed by ${witnessMarker(close.witness)}${close.reason === null ? '' : ` (${close.reason})`}`,
  )
  // Tool names and reasons are the transcript's own words.
  return escapeForTerminal(`${lines.join('\n')}\n`)
}
