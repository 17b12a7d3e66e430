import type { IncomingHttpHeaders } from 'node:http'
import { prefixed } from '../../src/util/log.js'
import { RecorderError } from '../errors.js'
import { toolVersion } from '../version.js'
import { filterHeaders, readCassette, REQUEST_HEADER_ALLOW_LIST, type Cassette, type CassetteRequest, type CassetteResponse, type Interaction, type Provenance } from './cassette.js'
import { lockCassette, type CassetteLock } from './cassette-lock.js'
import { CassetteAppender } from './cassette-writer.js'
import { tryParseJson, sha256Hex, type JsonValue } from './json.js'
import { InteractionIndex, RequestCanonicalizer, type Exhausted, type MatchRules, type Miss } from './match.js'
import { resolveMode, type ProviderMode } from './modes.js'
import { prepareResponse, type PreparedResponse } from './prepared.js'
import { ByteBoundedCache } from './byte-bounded-cache.js'
import { RecentList } from './recent.js'
import { credentialOf, learnCredentials, learnQueryCredentials, Redactor, SeenCredentials } from './redact.js'
import { requestEntryBytes, type RequestLogEntry, type RequestOutcome } from './request-log.js'
import { loadScenario, ScenarioResponder, type Scenario } from './scenario.js'
import { forwardUpstream, type UpstreamAnswer } from './upstream.js'
import { errorBody, routeOf, summarizeRequest, wireForPath, type ErrorKind, type RequestSummary, type Route, type WireName } from './wire.js'

/** Requests kept in memory per scope and per provider; the request log file keeps all of them. */
export const DEFAULT_KEEP_REQUESTS = 10_000
/** …and at most this many bytes of them. */
export const KEEP_REQUEST_BYTES = 16 * 1024 * 1024
/** Misses kept per scope, by count and by bytes; the rest are counted (`missesDropped`). */
export const KEEP_MISSES = 1_000
export const KEEP_MISS_BYTES = 4 * 1024 * 1024
/** A miss keeps the differing values it cites only up to this size (its message keeps an excerpt). */
export const MISS_VALUE_BYTES = 4 * 1024
/** Parsed request bodies cached per scope, in estimated bytes retained. */
export const PARSE_CACHE_BYTES = 32 * 1024 * 1024
/** Bodies above this are parsed every time rather than cached. */
const PARSE_CACHE_BODY_LIMIT = 1 << 20

/** The entries a request log list keeps: bounded by count and by bytes. */
export function requestList(keep: number | undefined): RecentList<RequestLogEntry> {
  return new RecentList<RequestLogEntry>({ count: keep ?? DEFAULT_KEEP_REQUESTS, bytes: KEEP_REQUEST_BYTES, sizeOf: requestEntryBytes })
}

/** About how many bytes a value's JSON takes, counted only up to `limit` (a flood's 2 MiB value is not serialised to be measured). */
function jsonBytes(value: JsonValue | undefined, limit = Number.POSITIVE_INFINITY): number {
  if (value === undefined) return 0
  let bytes = 0
  const stack: JsonValue[] = [value]
  while (stack.length > 0 && bytes <= limit) {
    const item = stack.pop() as JsonValue
    if (typeof item === 'string') bytes += item.length + 2
    else if (item === null || typeof item !== 'object') bytes += 8
    else if (Array.isArray(item)) {
      bytes += 2 + item.length
      stack.push(...item)
    } else {
      for (const [key, entry] of Object.entries(item)) {
        bytes += key.length + 4
        stack.push(entry)
      }
    }
  }
  return bytes
}

/** The miss as it is kept: a cited value larger than `MISS_VALUE_BYTES` is dropped (the message still quotes its start). */
function keptMiss(miss: Miss): Miss {
  const { recordedValue, receivedValue, ...rest } = miss
  return {
    ...rest,
    ...(recordedValue !== undefined && jsonBytes(recordedValue, MISS_VALUE_BYTES) <= MISS_VALUE_BYTES ? { recordedValue } : {}),
    ...(receivedValue !== undefined && jsonBytes(receivedValue, MISS_VALUE_BYTES) <= MISS_VALUE_BYTES ? { receivedValue } : {}),
  }
}

function missBytes(miss: Miss): number {
  return 256 + miss.message.length + miss.path.length + (miss.model?.length ?? 0) + jsonBytes(miss.recordedValue) + jsonBytes(miss.receivedValue)
}

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
  /** How many recent requests `requests()` and reports keep in memory. Default: 10,000. */
  readonly keepRequests?: number
  /** Where `CI` and `VITEST_HARNESS_MODE` are read. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** A request as the server read it. */
export interface IncomingCall {
  readonly method: string
  /** Without the query: what routes and matches the call. */
  readonly path: string
  /**
   * The query as sent (`?alt=sse`), or empty. Only forwarded to an upstream, which may answer by it
   * (Gemini streams only when asked `alt=sse`); never recorded or matched, so a key in it stays out.
   */
  readonly query: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** The response header a provider names its answers' provenance in (its own answers, or a scripted upstream's). */
export const PROVENANCE_HEADER = 'x-vitest-harness-provenance'

const PROVENANCES: readonly Provenance[] = ['provider_emulated', 'vendor_live', 'synthetic']

function declaredProvenance(value: string | undefined): Provenance | undefined {
  return PROVENANCES.find((known) => known === value)
}

/** The answer to one request: bytes ready to write, or a proxied stream. */
export type Answer = { readonly kind: 'prepared'; readonly response: PreparedResponse; readonly rechunk?: readonly number[]; readonly paced: boolean } | { readonly kind: 'upstream'; readonly answer: UpstreamAnswer }

interface ParsedBody {
  readonly digest: string
  readonly body: JsonValue | undefined
  readonly summary: RequestSummary
  matchable?: CassetteRequest
  canonical?: { readonly body: JsonValue; readonly identity: string }
}

/** What a scope saw: every request and every miss. */
export interface ScopeReport {
  readonly id: string
  readonly mode: ProviderMode
  readonly cassette: string | null
  readonly requests: readonly RequestLogEntry[]
  /** The most recent misses (bounded by count and bytes). */
  readonly misses: readonly Miss[]
  /** Misses that fell out of that window: a scope missed `misses.length + missesDropped` times. */
  readonly missesDropped: number
  readonly recorded: number
}

/** An error answer in the wire's shape, with a status the SDKs do not retry. */
export function errorAnswer(wire: WireName, status: number, kind: ErrorKind, message: string, extraHeaders: Record<string, string> = {}): Answer {
  return { kind: 'prepared', paced: false, response: prepareResponse({ status, headers: { 'content-type': 'application/json', 'x-should-retry': 'false', ...extraHeaders }, bodyText: errorBody(wire, kind, message, status) }) }
}

/** One cassette, one mode: the unit a test gets. Requests on `/__scope/<id>/v1/…` land here. */
export class ProviderScope {
  readonly mode: ProviderMode
  readonly redactor: Redactor
  private readonly index: InteractionIndex
  /** Held from open to close in `record`/`auto`: a second recorder on the cassette is refused. */
  private readonly lock: CassetteLock | undefined
  /** `auto`: the cassette on disk, which new recordings are appended to. */
  private readonly existing: Cassette | undefined
  private appender: CassetteAppender | undefined
  private closed = false
  private readonly missList = new RecentList<Miss>({ count: KEEP_MISSES, bytes: KEEP_MISS_BYTES, sizeOf: missBytes })
  private readonly entries: RecentList<RequestLogEntry>
  private readonly responder: ScenarioResponder | undefined
  /** The label a recording gets: lowered (never raised) when a scripted upstream declares its answers emulated. */
  private provenance: Provenance
  /**
   * What the answers this scope serves are, sent as `x-vitest-harness-provenance` so a recorder in
   * front of this provider keeps the label: `undefined` when they are an upstream's, which says its own.
   */
  readonly servedProvenance: Provenance | undefined
  private readonly canonicalizer: RequestCanonicalizer
  /** Replay bytes, computed once per recorded answer (at load for a cassette). */
  private readonly preparedAnswers = new WeakMap<CassetteResponse, PreparedResponse>()
  /** Parsed bodies, digests and identities by body bytes: a repeated request costs one lookup. */
  private readonly parsed = new ByteBoundedCache<string, ParsedBody>(PARSE_CACHE_BYTES)

  constructor(
    readonly id: string,
    readonly options: ScopeOptions,
    private readonly log: (entry: Omit<RequestLogEntry, 'seq'>) => RequestLogEntry,
    /** The credentials the run has seen: shared by every scope of one provider and its request log. */
    seen: SeenCredentials = new SeenCredentials(),
  ) {
    this.mode = resolveMode(options.mode, options.env ?? process.env)
    this.entries = requestList(options.keepRequests)
    this.redactor = new Redactor(options.redact ?? [], seen)
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
    let replayed: Provenance | undefined
    if (this.mode === 'replay' && options.cassette) {
      const cassette = readCassette(options.cassette)
      interactions = [...cassette.interactions]
      replayed = cassette.provenance
    }
    else if (this.mode === 'replay' && !this.responder) throw new RecorderError('VH_OPTION_INVALID', 'mode replay needs a cassette (or a scenario) to answer from', { location: 'cassette' })
    this.lock = (this.mode === 'record' || this.mode === 'auto') && options.cassette ? lockCassette(options.cassette) : undefined
    if (this.mode === 'auto' && options.cassette) {
      try {
        this.existing = readCassette(options.cassette)
        interactions = [...this.existing.interactions]
      } catch (error) {
        if ((error as RecorderError).code !== 'VH_CASSETTE_MISSING') {
          this.lock?.release()
          throw error
        }
      }
    }
    this.servedProvenance = this.responder ? 'provider_emulated' : (replayed ?? this.existing?.provenance)
    this.canonicalizer = new RequestCanonicalizer(options.match ?? {})
    this.index = new InteractionIndex(interactions, this.canonicalizer, options.exhausted ?? 'repeat-last')
    for (const interaction of interactions) this.preparedAnswers.set(interaction.response, prepareResponse(interaction.response))
  }

  /**
   * Answers one request. Never throws for a client's mistake: those are error answers. A replayed
   * answer comes back synchronously (one hash lookup, no allocation beyond the log entry).
   */
  handle(call: IncomingCall): Answer | Promise<Answer> {
    const route = routeOf(call.method, call.path)
    const parsed = this.parse(call)
    const credential = credentialOf(call.headers)
    const { body, summary } = parsed
    let refusal: RecorderError | undefined
    try {
      // Before anything is matched, stored or logged: every later write knows these values.
      learnCredentials(this.redactor.seen, call.headers, route?.wire, body)
      learnQueryCredentials(this.redactor.seen, call.query)
    } catch (error) {
      if (!(error instanceof RecorderError)) throw error
      refusal = error
    }
    const entry = (outcome: RequestOutcome, status: number, extra?: { nearest?: number; differsAt?: string }): Omit<RequestLogEntry, 'seq'> => ({
      scope: this.id,
      wire: route ? route.wire : null,
      method: call.method,
      path: call.path,
      model: route ? summary.model : null,
      stream: route ? summary.stream : false,
      tools: route ? summary.tools : [],
      bodySha256: parsed.digest,
      bodyBytes: call.body.length,
      credential,
      outcome,
      status,
      ...extra,
    })
    if (refusal) {
      this.record(entry('refused', 400))
      return errorAnswer(route?.wire ?? wireForPath(call.path), 400, 'invalid_request', prefixed(`${refusal.code}: ${refusal.message}`))
    }
    if (!route) {
      this.record(entry('refused', 404))
      return errorAnswer(wireForPath(call.path), 404, 'not_found', `unknown path: ${call.method} ${call.path}; the provider serves POST /v1/responses, /v1/chat/completions, /v1/messages, /v1/messages/count_tokens and /v1beta/models/{model}:generateContent, :streamGenerateContent, :countTokens`)
    }
    if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) {
      this.record(entry('refused', 400))
      return errorAnswer(route.wire, 400, 'invalid_request', call.body.length === 0 ? 'the request has no body; send a JSON object' : 'the request body is not a JSON object (malformed JSON)')
    }
    const request = (): CassetteRequest => ({ method: call.method, path: call.path, headers: filterHeaders(call.headers, REQUEST_HEADER_ALLOW_LIST), body })
    if (this.mode === 'replay' || this.mode === 'auto') {
      const found = this.index.size > 0 || this.mode === 'replay' ? this.index.take(this.matchable(parsed, call), summary.model, parsed.canonical) : undefined
      if (found && 'interaction' in found) {
        this.record(entry('replayed', found.interaction.response.status))
        return this.prepared(found.interaction.response)
      }
      if (this.mode === 'replay') {
        if (this.responder && this.index.size === 0) return this.fromScenario(route, request(), (outcome, status) => this.record(entry(outcome, status)), 'scripted')
        const miss = (found as { miss: Miss }).miss
        this.missList.push(keptMiss(miss))
        this.record(entry('miss', 400, { ...(miss.nearest !== undefined ? { nearest: miss.nearest } : {}), ...(miss.differsAt !== undefined ? { differsAt: miss.differsAt } : {}) }))
        return errorAnswer(route.wire, 400, 'cassette_miss', prefixed(`cassette miss: ${miss.message}`))
      }
    }
    // record, auto (miss) and passthrough: ask the source.
    if (this.responder) return this.fromScenario(route, request(), (outcome, status) => this.record(entry(outcome, status)), this.mode === 'passthrough' ? 'scripted' : 'recorded')
    return this.proxy(route, call, request(), (outcome, status) => this.record(entry(outcome, status)))
  }

  private async proxy(route: Route, call: IncomingCall, request: CassetteRequest, log: (outcome: RequestOutcome, status: number) => void): Promise<Answer> {
    const answer = await forwardUpstream(this.options.upstream as string, call.method, call.path, call.headers, call.body, call.query)
    log(this.mode === 'passthrough' ? 'proxied' : 'recorded', answer.status)
    const declared = declaredProvenance(answer.declaredProvenance)
    if (declared !== undefined && this.options.provenance === undefined && declared !== this.provenance && declared !== 'vendor_live') {
      // A scripted upstream (another vitest-harness provider) said its bytes are not a vendor's: the recording keeps that.
      if (this.appender) process.emitWarning(prefixed(`the upstream declared its answers ${declared}, but ${this.options.cassette} was already started as ${this.provenance}`))
      else this.provenance = declared
    }
    if (this.mode !== 'passthrough') {
      answer.recorded.then(
        (response) => this.store({ wire: route.wire, request, response }),
        () => undefined,
      )
    }
    return { kind: 'upstream', answer: declared === undefined ? answer : { ...answer, headers: { ...answer.headers, [PROVENANCE_HEADER]: declared } } }
  }

  /** Parses a body once per distinct body (bounded), with its digest and summary. */
  private parse(call: IncomingCall): ParsedBody {
    // The bytes themselves are the key (a string hash is cheaper than a sha256); large bodies are not cached.
    const key = call.body.length <= PARSE_CACHE_BODY_LIMIT ? `${call.method} ${call.path} ${call.body.toString('latin1')}` : undefined
    const cached = key === undefined ? undefined : this.parsed.get(key)
    if (cached) return cached
    const text = call.body.toString('utf8')
    const body = text === '' ? undefined : tryParseJson(text)
    const parsed: ParsedBody = { digest: sha256Hex(call.body), body, summary: summarizeRequest(body, routeOf(call.method, call.path)) }
    // The key, the parsed body and (once matched) its redacted copy: about four times the bytes.
    if (key !== undefined) this.parsed.set(key, parsed, 512 + key.length * 4)
    return parsed
  }

  /** The request as matching sees it (redacted as a cassette stores it), and its identity, computed once per body. */
  private matchable(parsed: ParsedBody, call: IncomingCall): CassetteRequest {
    if (parsed.matchable === undefined) {
      parsed.matchable = { method: call.method, path: call.path, headers: {}, body: this.redactor.json(parsed.body as JsonValue) }
      parsed.canonical = this.canonicalizer.canonicalize(parsed.matchable)
    }
    return parsed.matchable
  }

  private fromScenario(route: Route, request: CassetteRequest, log: (outcome: RequestOutcome, status: number) => void, outcome: RequestOutcome): Answer {
    const { response, paceMs } = (this.responder as ScenarioResponder).respond(route, request.body, Buffer.byteLength(JSON.stringify(request.body)))
    log(outcome, response.status)
    const stored = paceMs > 0 && response.frames ? { ...response, frames: response.frames.map((frame, index) => ({ ...frame, atMs: index * paceMs })) } : response
    if (outcome === 'recorded') this.store({ wire: route.wire, request, response: stored })
    return { kind: 'prepared', paced: paceMs > 0, response: prepareResponse(stored, paceMs), ...(this.options.rechunk ? { rechunk: this.options.rechunk } : {}) }
  }

  private prepared(response: CassetteResponse): Answer {
    let prepared = this.preparedAnswers.get(response)
    if (!prepared) this.preparedAnswers.set(response, (prepared = prepareResponse(response)))
    return { kind: 'prepared', paced: this.options.pacing === 'recorded', response: prepared, ...(this.options.rechunk ? { rechunk: this.options.rechunk } : {}) }
  }

  /** Appends the interaction to the cassette at once (redacted): a killed run keeps what it recorded. */
  private store(interaction: Interaction): void {
    if (this.mode === 'auto') this.index.add(interaction)
    if (!this.options.cassette) return
    if (this.closed) {
      // The lock is gone, so another recorder may own the file now: said, not written.
      process.emitWarning(prefixed(`an answer finished after its scope ${this.id} closed; it is not written to ${this.options.cassette}`))
      return
    }
    this.appender ??= new CassetteAppender(
      this.options.cassette,
      { provenance: this.provenance, tool: toolVersion(), ...(this.responder ? { scenario: this.responder.scenario.name } : {}) },
      { redactor: this.redactor, ...(this.existing ? { continues: this.existing } : {}) },
    )
    this.appender.append(interaction)
  }

  private record(entry: Omit<RequestLogEntry, 'seq'>): void {
    this.entries.push(this.log(entry))
  }

  /** Ends the scope: every interaction is on disk already; the cassette's lock is released. */
  close(): void {
    this.closed = true
    this.lock?.release()
  }

  /** @deprecated Interactions are written as they are recorded; use `close()`, which this calls. */
  flush(): void {
    this.close()
  }

  misses(): readonly Miss[] {
    return this.missList.toArray()
  }

  /** Misses no longer kept in memory (counted, not held). */
  get missesDropped(): number {
    return this.missList.dropped
  }

  requests(): readonly RequestLogEntry[] {
    return this.entries.toArray()
  }

  report(): ScopeReport {
    return {
      id: this.id,
      mode: this.mode,
      cassette: this.options.cassette ?? null,
      requests: [...this.entries.toArray()],
      misses: [...this.missList.toArray()],
      missesDropped: this.missList.dropped,
      recorded: this.appender?.interactions ?? this.existing?.interactions.length ?? 0,
    }
  }
}
