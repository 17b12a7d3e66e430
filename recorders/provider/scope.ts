import type { IncomingHttpHeaders } from 'node:http'
import { RecorderError } from '../errors.js'
import { toolVersion } from '../version.js'
import { bodyFromText, cassetteWire, filterHeaders, readCassette, REQUEST_HEADER_ALLOW_LIST, writeCassette, type CassetteRequest, type CassetteResponse, type Interaction, type Provenance } from './cassette.js'
import { tryParseJson, sha256Hex, type JsonValue } from './json.js'
import { InteractionIndex, RequestCanonicalizer, type Exhausted, type MatchRules, type Miss } from './match.js'
import { resolveMode, type ProviderMode } from './modes.js'
import { prepareResponse, type PreparedResponse } from './prepared.js'
import { credentialOf, Redactor } from './redact.js'
import type { RequestLogEntry, RequestOutcome } from './request-log.js'
import { loadScenario, ScenarioResponder, type Scenario } from './scenario.js'
import { forwardUpstream, type UpstreamAnswer } from './upstream.js'
import { errorBody, routeOf, summarizeRequest, wireForPath, type ErrorKind, type Route, type WireName } from './wire.js'

/** What one cassette scope does: where its answers come from and where they go. */
export interface ScopeOptions {
  /** `replay` | `record` | `auto` | `passthrough`; default: `VITEST_HARNESS_MODE`, else `replay`. */
  readonly mode?: ProviderMode
  /** The cassette file read in `replay`/`auto` and written in `record`/`auto`. */
  readonly cassette?: string
  /** Scripted answers: a scenario object or a scenario file. Serves as the upstream when recording. */
  readonly scenario?: Scenario | string
  /** The real provider's origin (`https://api.openai.com`), for `record`, `auto` and `passthrough`. */
  readonly upstream?: string
  /** The label written into a recorded cassette. Default: `provider_emulated` for a scenario, `vendor_live` for an upstream. */
  readonly provenance?: Provenance
  /** Extra volatile fields and text rules for request matching. */
  readonly match?: MatchRules
  /** Identical requests beyond their recordings: answer the last again, or miss. Default: `repeat-last`. */
  readonly exhausted?: Exhausted
  /** Extra secret patterns redacted on every write (credential headers always are). */
  readonly redact?: readonly (RegExp | string)[]
  /** Byte offsets at which a streamed answer's bytes are split into separate writes. */
  readonly rechunk?: readonly number[]
  /** `recorded` reproduces the recorded gaps between frames; scripted paces always apply. Default: `none`. */
  readonly pacing?: 'none' | 'recorded'
  /** Where `CI` and `VITEST_HARNESS_MODE` are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** A request as the server read it. */
export interface IncomingCall {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** The answer to one request: bytes ready to write, or a proxied stream. */
export type Answer = { readonly kind: 'prepared'; readonly response: PreparedResponse; readonly rechunk?: readonly number[]; readonly paced: boolean } | { readonly kind: 'upstream'; readonly answer: UpstreamAnswer }

/** What a scope saw: every request and every miss. */
export interface ScopeReport {
  readonly id: string
  readonly mode: ProviderMode
  readonly cassette: string | null
  readonly requests: readonly RequestLogEntry[]
  readonly misses: readonly Miss[]
  readonly recorded: number
}

/** An error answer in the wire's shape, with a status the SDKs do not retry. */
export function errorAnswer(wire: WireName, status: number, kind: ErrorKind, message: string, extraHeaders: Record<string, string> = {}): Answer {
  return { kind: 'prepared', paced: false, response: prepareResponse({ status, headers: { 'content-type': 'application/json', 'x-should-retry': 'false', ...extraHeaders }, bodyText: errorBody(wire, kind, message) }) }
}

/** One cassette, one mode: the unit a test gets. Requests on `/__scope/<id>/v1/…` land here. */
export class ProviderScope {
  readonly mode: ProviderMode
  readonly redactor: Redactor
  private readonly index: InteractionIndex
  private readonly recordedInteractions: Interaction[] = []
  private readonly missList: Miss[] = []
  private readonly entries: RequestLogEntry[] = []
  private readonly responder: ScenarioResponder | undefined
  private readonly provenance: Provenance
  private dirty = false

  constructor(
    readonly id: string,
    readonly options: ScopeOptions,
    private readonly log: (entry: Omit<RequestLogEntry, 'seq'>) => RequestLogEntry,
  ) {
    this.mode = resolveMode(options.mode, options.env ?? process.env)
    this.redactor = new Redactor(options.redact ?? [])
    const scenario = typeof options.scenario === 'string' ? loadScenario(options.scenario) : options.scenario
    this.responder = scenario ? new ScenarioResponder(scenario) : undefined
    this.provenance = options.provenance ?? (scenario ? 'provider_emulated' : 'vendor_live')
    const needsSource = this.mode !== 'replay'
    if (needsSource && !this.responder && !options.upstream) {
      throw new RecorderError('VH_UPSTREAM_MISSING', `mode ${this.mode} needs an upstream URL or a scenario to answer from; set upstream (e.g. https://api.openai.com) or scenario`, { location: 'upstream' })
    }
    if ((this.mode === 'record' || this.mode === 'auto') && !options.cassette) {
      throw new RecorderError('VH_OPTION_INVALID', `mode ${this.mode} needs a cassette path to write`, { location: 'cassette' })
    }
    let interactions: Interaction[] = []
    if (this.mode === 'replay' && options.cassette) interactions = [...readCassette(options.cassette).interactions]
    else if (this.mode === 'replay' && !this.responder) throw new RecorderError('VH_OPTION_INVALID', 'mode replay needs a cassette (or a scenario) to answer from', { location: 'cassette' })
    else if (this.mode === 'auto' && options.cassette) {
      try {
        interactions = [...readCassette(options.cassette).interactions]
      } catch (error) {
        if ((error as RecorderError).code !== 'VH_CASSETTE_MISSING') throw error
      }
      this.recordedInteractions.push(...interactions)
    }
    this.index = new InteractionIndex(interactions, new RequestCanonicalizer(options.match ?? {}), options.exhausted ?? 'repeat-last')
  }

  /** Answers one request. Never throws for a client's mistake: those are error answers. */
  async handle(call: IncomingCall): Promise<Answer> {
    const route = routeOf(call.method, call.path)
    const digest = sha256Hex(call.body)
    const credential = credentialOf(call.headers)
    const base = { scope: this.id, method: call.method, path: call.path, bodySha256: digest, bodyBytes: call.body.length, credential }
    if (!route) {
      const wire = wireForPath(call.path)
      this.record({ ...base, wire: null, model: null, stream: false, tools: [], outcome: 'refused', status: 404 })
      return errorAnswer(wire, 404, 'not_found', `unknown path: ${call.method} ${call.path}; the provider serves POST /v1/responses, /v1/chat/completions, /v1/messages and /v1/messages/count_tokens`)
    }
    const text = call.body.toString('utf8')
    const body = text === '' ? undefined : tryParseJson(text)
    const summary = summarizeRequest(body)
    const described = { ...base, wire: route.wire, model: summary.model, stream: summary.stream, tools: summary.tools }
    if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) {
      this.record({ ...described, outcome: 'refused', status: 400 })
      return errorAnswer(route.wire, 400, 'invalid_request', text === '' ? 'the request has no body; send a JSON object' : 'the request body is not a JSON object (malformed JSON)')
    }
    const request: CassetteRequest = { method: call.method, path: call.path, headers: filterHeaders(call.headers, REQUEST_HEADER_ALLOW_LIST), body }
    const matchable = { ...request, body: this.redactor.json(body) }
    if (this.mode === 'replay' || this.mode === 'auto') {
      const found = this.index.size > 0 || this.mode === 'replay' ? this.index.take(matchable, summary.model) : undefined
      if (found && 'interaction' in found) {
        this.record({ ...described, outcome: 'replayed', status: found.interaction.response.status })
        return this.prepared(found.interaction.response)
      }
      if (this.mode === 'replay') {
        if (this.responder && this.index.size === 0) return this.fromScenario(route, request, described, 'scripted')
        const miss = (found as { miss: Miss }).miss
        this.missList.push(miss)
        this.record({ ...described, outcome: 'miss', status: 400, ...(miss.nearest !== undefined ? { nearest: miss.nearest } : {}), ...(miss.differsAt !== undefined ? { differsAt: miss.differsAt } : {}) })
        return errorAnswer(route.wire, 400, 'cassette_miss', `[vitest-harness] cassette miss: ${miss.message}`)
      }
    }
    // record, auto (miss) and passthrough: ask the source.
    if (this.responder) return this.fromScenario(route, request, described, this.mode === 'passthrough' ? 'scripted' : 'recorded')
    const answer = await forwardUpstream(this.options.upstream as string, call.method, call.path, call.headers, call.body)
    this.record({ ...described, outcome: this.mode === 'passthrough' ? 'proxied' : 'recorded', status: answer.status })
    if (this.mode !== 'passthrough') {
      answer.recorded.then(
        (response) => this.store({ wire: route.wire, request, response }),
        () => undefined,
      )
    }
    return { kind: 'upstream', answer }
  }

  private fromScenario(route: Route, request: CassetteRequest, described: Omit<RequestLogEntry, 'seq' | 'outcome' | 'status'>, outcome: RequestOutcome): Answer {
    const { response, paceMs } = (this.responder as ScenarioResponder).respond(route, request.body, Buffer.byteLength(JSON.stringify(request.body)))
    this.record({ ...described, outcome, status: response.status })
    const stored = paceMs > 0 && response.frames ? { ...response, frames: response.frames.map((frame, index) => ({ ...frame, atMs: index * paceMs })) } : response
    if (outcome === 'recorded') this.store({ wire: route.wire, request, response: stored })
    return { kind: 'prepared', paced: paceMs > 0, response: prepareResponse(stored, paceMs), ...(this.options.rechunk ? { rechunk: this.options.rechunk } : {}) }
  }

  private prepared(response: CassetteResponse): Answer {
    return { kind: 'prepared', paced: this.options.pacing === 'recorded', response: prepareResponse(response), ...(this.options.rechunk ? { rechunk: this.options.rechunk } : {}) }
  }

  private store(interaction: Interaction): void {
    if (this.mode === 'auto') this.index.add(interaction)
    this.recordedInteractions.push(interaction)
    this.dirty = true
    this.flush()
  }

  private record(entry: Omit<RequestLogEntry, 'seq'>): void {
    this.entries.push(this.log(entry))
  }

  /** Writes the cassette when this scope recorded something (atomically, redacted). */
  flush(): void {
    if (!this.dirty || !this.options.cassette) return
    writeCassette(
      this.options.cassette,
      {
        wire: cassetteWire(this.recordedInteractions),
        provenance: this.provenance,
        tool: toolVersion(),
        ...(this.responder ? { scenario: this.responder.scenario.name } : {}),
        interactions: this.recordedInteractions,
      },
      this.redactor,
    )
    this.dirty = false
  }

  misses(): readonly Miss[] {
    return this.missList
  }

  requests(): readonly RequestLogEntry[] {
    return this.entries
  }

  report(): ScopeReport {
    return { id: this.id, mode: this.mode, cassette: this.options.cassette ?? null, requests: [...this.entries], misses: [...this.missList], recorded: this.recordedInteractions.length }
  }
}

/** A streamed cassette response's frames, for callers that read recorded content directly. */
export type { CassetteResponse, JsonValue }
