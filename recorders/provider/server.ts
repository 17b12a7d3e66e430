import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'
import { prefixed } from '../../src/util/log.js'
import { RecorderError } from '../errors.js'
import { confineToRoot } from './confine.js'
import { controlRefusal, createControlToken, createScopeId, dataPlaneRefusal } from './control-guard.js'
import { PROVIDER_MODES, type ProviderMode } from './modes.js'
import type { Miss } from './match.js'
import { rechunk, type PreparedResponse } from './prepared.js'
import { credentialOf, learnCredentials, Redactor, SeenCredentials } from './redact.js'
import { RequestLogFile, type RequestLogEntry } from './request-log.js'
import { errorAnswer, PROVENANCE_HEADER, ProviderScope, requestList, type Answer, type ScopeOptions, type ScopeReport } from './scope.js'
import { wireForPath } from './wire.js'

/** Bodies above this are refused with 413, as the upstream emulator does. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024

/** Options of `startProvider`: the default scope's options plus where the server listens. */
export interface ProviderOptions extends ScopeOptions {
  /** Must be a loopback address. Default: `127.0.0.1`. */
  readonly host?: string
  /** Default: `0` (an ephemeral port). */
  readonly port?: number
  /** Appends one JSON line per request to this file (never a credential's value). */
  readonly recordRequests?: string
  /** Refuse bodies larger than this many bytes with 413. Default: 4 MiB. */
  readonly maxBodyBytes?: number
  /**
   * The folder that scopes opened through the control endpoint read and write under: their
   * `cassette` and `scenario` paths are resolved against it and refused outside it. Without it,
   * the control endpoint refuses any path. (`openScope` in-process is the owner's and unconfined.)
   */
  readonly cassetteRoot?: string
  /** The upstreams a scope opened through the control endpoint may name (`upstream` is always one of them). */
  readonly upstreams?: readonly string[]
  /** Scenario files (absolute) a scope opened through the control endpoint may name wherever they are; any other must lie under `cassetteRoot`. */
  readonly scenarios?: readonly string[]
}

/** A running loopback provider. */
export interface Provider {
  /** `http://127.0.0.1:PORT/v1`: what OpenAI clients take as their base URL. */
  readonly baseUrl: string
  /** `http://127.0.0.1:PORT`: what Anthropic clients take (they add `/v1` themselves). */
  readonly origin: string
  readonly port: number
  /**
   * The control endpoint's token (256 random bits): `authorization: Bearer <token>` on every
   * `/__vitest-harness/…` request. Hand it only to processes you start (the plugin hands it to its
   * workers through Vitest's `provide`).
   */
  readonly controlToken: string
  /**
   * Settles with the error when the provider fails after it started listening (the server errors,
   * the request log cannot be written); never rejects. `serve` exits on it.
   */
  readonly failure: Promise<RecorderError>
  /** The requests so far (the last `keepRequests`), in arrival order, across all scopes. */
  requests(): readonly RequestLogEntry[]
  /** The most recent misses in the default scope (bounded; see `ScopeReport.missesDropped`). */
  misses(): readonly Miss[]
  /** Opens a cassette scope served under `/__scope/<id>`; its base URL is returned. */
  openScope(options: ScopeOptions): { id: string; baseUrl: string; origin: string }
  /** Closes a scope: writes its cassette if it recorded, returns what it saw. */
  closeScope(id: string): ScopeReport
  scope(id: string): ProviderScope | undefined
  /** Stops listening, ends open connections, and writes any recorded cassette. */
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/** Refuses any host that is not loopback: the provider never listens where another machine could reach it. */
export function assertLoopback(host: string): void {
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (octets && octets.slice(1).some((octet) => Number(octet) > 255)) {
    throw new RecorderError('VH_OPTION_INVALID', `host ${JSON.stringify(host)} is not an IPv4 address (an octet is over 255). Use 127.0.0.1.`, { location: 'host' })
  }
  if (!LOOPBACK.has(host) && !octets) {
    throw new RecorderError('VH_NON_LOOPBACK', `the provider listens on loopback only; host ${JSON.stringify(host)} is refused. Use 127.0.0.1.`, { location: 'host' })
  }
}

/** Why the server could not listen, as a coded refusal naming the address. */
function listenRefusal(error: unknown, host: string, port: number): RecorderError {
  const code = (error as { code?: unknown }).code
  const where = `${host}:${port}`
  const why =
    code === 'EADDRINUSE' ? `port ${port} is already in use; choose another --port, or 0 for any free one`
    : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAFNOSUPPORT' ? `this machine has no address ${host} to listen on; use 127.0.0.1`
    : code === 'EACCES' ? `listening on port ${port} is not permitted; use a port above 1023, or 0`
    : `listening failed (${typeof code === 'string' ? code : (error as Error).message})`
  return new RecorderError('VH_PROVIDER_LISTEN', `the provider cannot listen on ${where}: ${why}`, { location: where, cause: error })
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0)
    if (declared > limit) {
      request.resume()
      resolve('too-large')
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) over = true
      else chunks.push(chunk)
    })
    request.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

function isGone(response: ServerResponse): boolean {
  return response.destroyed || response.writableEnded
}

/** Writes one chunk and waits until it is handed to the socket (or the client is gone). */
function writeChunk(response: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (isGone(response)) return resolve()
    response.write(chunk, () => resolve())
  })
}

/** Writes a prepared answer that needs no pacing or re-chunking, synchronously: one write per frame, corked. */
function writePrepared(response: ServerResponse, prepared: PreparedResponse): void {
  response.writeHead(prepared.status, prepared.head)
  if (!prepared.streamed) {
    response.end(prepared.whole)
    return
  }
  // Frame by frame, as recorded: one write (one HTTP chunk) per frame, so a client's body reader
  // meets the frames as the vendor sent them. Unpaced, they leave together in one syscall.
  response.cork()
  for (const chunk of prepared.chunks) response.write(chunk)
  if (prepared.cut) {
    response.uncork()
    response.socket?.destroySoon()
    return
  }
  response.end()
  response.uncork()
}

/** Serves an answer: frame by frame as recorded, re-chunked or paced when asked. */
export async function sendAnswer(response: ServerResponse, answer: Answer): Promise<void> {
  if (answer.kind === 'upstream') {
    response.writeHead(answer.answer.status, answer.answer.headers)
    for await (const chunk of answer.answer.body) {
      if (isGone(response)) return
      await writeChunk(response, chunk)
    }
    if (!isGone(response)) response.end()
    return
  }
  const prepared = answer.response
  if (!prepared.streamed || (!answer.paced && !answer.rechunk)) return writePrepared(response, prepared)
  response.writeHead(prepared.status, prepared.head)
  const chunks = answer.rechunk ? rechunk(prepared.chunks, answer.rechunk) : prepared.chunks
  const started = Date.now()
  for (let index = 0; index < chunks.length; index++) {
    if (isGone(response)) return
    const at = answer.paced && !answer.rechunk ? prepared.atMs[index] : undefined
    if (at !== undefined && at > Date.now() - started) await sleep(at - (Date.now() - started))
    await writeChunk(response, chunks[index] as Buffer)
    // Give the client a turn to read this piece on its own before the next one.
    if (answer.rechunk) await sleep(1)
  }
  if (isGone(response)) return
  if (prepared.cut) response.socket?.destroySoon()
  else response.end()
}

const controlScopeOptions = z.strictObject({
  mode: z.enum(PROVIDER_MODES as [ProviderMode, ...ProviderMode[]]).optional(),
  cassette: z.string().min(1).optional(),
  scenario: z.string().min(1).optional(),
  upstream: z.string().min(1).optional(),
  provenance: z.enum(['provider_emulated', 'vendor_live', 'synthetic']).optional(),
  match: z.strictObject({ ignore: z.array(z.string()).optional(), replace: z.array(z.strictObject({ path: z.string().optional(), pattern: z.string(), with: z.string() })).optional() }).optional(),
  exhausted: z.enum(['repeat-last', 'miss']).optional(),
  redact: z.array(z.string()).optional(),
  rechunk: z.array(z.number().int().nonnegative()).optional(),
  pacing: z.enum(['none', 'recorded']).optional(),
})

/** Scope options sent to the control endpoint by a worker: checked, never trusted (no `env`). */
function parseControlScopeOptions(text: string): z.infer<typeof controlScopeOptions> {
  let value: unknown
  try {
    value = JSON.parse(text || '{}')
  } catch {
    throw new RecorderError('VH_OPTION_INVALID', 'the scope options are not JSON', { location: '/__vitest-harness/scopes' })
  }
  const result = controlScopeOptions.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new RecorderError('VH_OPTION_INVALID', `scope option ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, { location: `/__vitest-harness/scopes ${issue?.path.join('.') ?? ''}` })
  }
  return result.data
}

/** An upstream as compared against the configured ones: its URL, normalised. */
function normalisedUpstream(upstream: string): string {
  try {
    return new URL(upstream).href.replace(/\/+$/, '')
  } catch {
    return upstream
  }
}

/** What the control endpoint may open: paths confined to the root, an upstream from configuration, the provider's environment. */
function confinedScopeOptions(requested: z.infer<typeof controlScopeOptions>, options: ProviderOptions): ScopeOptions {
  const { cassette, scenario, upstream, ...rest } = requested
  const confine = (path: string, location: string): string => {
    if (options.cassetteRoot === undefined) throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `${location}: this provider has no cassette root, so scopes opened through the control endpoint name no files`, { location })
    return confineToRoot(options.cassetteRoot, path, location)
  }
  if (cassette !== undefined && !cassette.endsWith('.jsonl')) {
    throw new RecorderError('VH_PATH_OUTSIDE_ROOT', `cassette ${JSON.stringify(cassette)} must be a .jsonl file; the control endpoint writes cassettes and nothing else`, { location: 'cassette' })
  }
  if (upstream !== undefined) {
    const allowed = [...(options.upstream !== undefined ? [options.upstream] : []), ...(options.upstreams ?? [])].map(normalisedUpstream)
    if (!allowed.includes(normalisedUpstream(upstream))) {
      throw new RecorderError('VH_UPSTREAM_NOT_CONFIGURED', `upstream ${JSON.stringify(upstream)} is not one this provider was configured with (${allowed.length === 0 ? 'none' : allowed.join(', ')}); upstreams come from configuration, never from a request`, { location: 'upstream' })
    }
  }
  return {
    ...rest,
    ...(cassette !== undefined ? { cassette: confine(cassette, 'cassette') } : {}),
    ...(scenario !== undefined ? { scenario: options.scenarios?.includes(scenario) ? scenario : confine(scenario, 'scenario') } : {}),
    ...(upstream !== undefined ? { upstream } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  } as ScopeOptions
}

/** Refusals that are the caller's lack of permission, not a malformed request. */
const FORBIDDEN_CODES = new Set(['VH_CONTROL_TOKEN', 'VH_CONTROL_HOST', 'VH_CONTROL_ORIGIN', 'VH_CONTROL_CONTENT_TYPE', 'VH_PATH_OUTSIDE_ROOT', 'VH_UPSTREAM_NOT_CONFIGURED'])

/**
 * Starts the loopback model provider on 127.0.0.1 (port 0 by default) and returns its URLs.
 *
 * @example
 * const provider = await startProvider({ cassette: 'test/cassettes/hello.jsonl' })
 * const client = new OpenAI({ baseURL: provider.baseUrl, apiKey: 'placeholder' })
 */
export async function startProvider(options: ProviderOptions = {}): Promise<Provider> {
  const host = options.host ?? '127.0.0.1'
  assertLoopback(host)
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES
  const controlToken = createControlToken()
  const seen = new SeenCredentials()
  let reportFailure: (error: RecorderError) => void = () => undefined
  const failure = new Promise<RecorderError>((resolveFailure) => (reportFailure = resolveFailure))
  const all = requestList(options.keepRequests)
  const logFile = options.recordRequests ? new RequestLogFile(options.recordRequests, new Redactor(options.redact ?? [], seen)) : undefined
  const log = (entry: Omit<RequestLogEntry, 'seq'>): RequestLogEntry => {
    // The entry was built for the log alone: number it in place rather than copy it.
    const full = entry as RequestLogEntry
    ;(full as { seq: number }).seq = all.total + 1
    all.push(full)
    try {
      logFile?.append(full)
    } catch (error) {
      // The request is still answered; whoever runs the provider (serve) decides to stop.
      reportFailure(new RecorderError('VH_REQUEST_LOG_FAILED', `the request log ${options.recordRequests} could not be written: ${(error as Error).message}`, { location: options.recordRequests ?? 'recordRequests', cause: error }))
    }
    return full
  }
  const hasDefault = options.cassette !== undefined || options.scenario !== undefined || options.upstream !== undefined
  const defaultScope = hasDefault ? new ProviderScope('default', options, log, seen) : undefined
  const scopes = new Map<string, ProviderScope>()
  const sockets = new Set<Socket>()
  let origin = ''

  const control = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    const reply = (status: number, value: unknown) => {
      const text = JSON.stringify(value)
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
      response.end(text)
    }
    try {
      const refusal = controlRefusal(request.method ?? 'GET', request.headers, port, controlToken)
      if (refusal) {
        // Nothing of an unauthorised body is buffered.
        request.resume()
        response.setHeader('connection', 'close')
        return reply(403, { error: refusal.message, code: refusal.code })
      }
      const body = await readBody(request, limit)
      if (body === 'too-large') return reply(413, { error: 'control body too large', code: 'VH_OPTION_INVALID' })
      if (request.method === 'POST' && path === '/__vitest-harness/scopes') {
        const opened = provider.openScope(confinedScopeOptions(parseControlScopeOptions(body.toString('utf8')), options))
        return reply(200, opened)
      }
      const match = /^\/__vitest-harness\/scopes\/([\w-]+)(\/close)?$/.exec(path)
      if (match && scopes.has(match[1] as string)) {
        if (request.method === 'POST' && match[2]) return reply(200, provider.closeScope(match[1] as string))
        if (request.method === 'GET' && !match[2]) return reply(200, scopes.get(match[1] as string)?.report())
      }
      return reply(404, { error: `no control endpoint ${request.method} ${path}`, code: 'VH_OPTION_INVALID' })
    } catch (error) {
      const code = error instanceof RecorderError ? error.code : 'VH_OPTION_INVALID'
      return reply(FORBIDDEN_CODES.has(code) ? 403 : 400, { error: (error as Error).message, code })
    }
  }

  const fail = (response: ServerResponse, error: unknown) => {
    // A bug or an upstream failure: answer 502 if the head is not out yet, and keep serving.
    if (!response.headersSent) {
      const code = error instanceof RecorderError ? error.code : 'VH_PROVIDER_FAILED'
      const text = JSON.stringify({ error: { message: prefixed((error as Error).message), type: 'server_error', param: null, code } })
      response.writeHead(502, { 'content-type': 'application/json', 'x-should-retry': 'false', 'content-length': String(Buffer.byteLength(text)) })
      response.end(text)
    } else response.destroy()
  }

  const answer = (response: ServerResponse, scope: ProviderScope, method: string, path: string, query: string, request: IncomingMessage, body: Buffer) => {
    // Answers from a scenario or a recording say so, so a recorder in front of this provider never labels them a vendor's.
    if (scope.servedProvenance !== undefined) response.setHeader(PROVENANCE_HEADER, scope.servedProvenance)
    const answered = scope.handle({ method, path, query, headers: request.headers, body })
    if (answered instanceof Promise) answered.then((value) => sendAnswer(response, value)).catch((error: unknown) => fail(response, error))
    else if (answered.kind === 'prepared' && !answered.paced && !answered.rechunk) writePrepared(response, answered.response)
    else sendAnswer(response, answered).catch((error: unknown) => fail(response, error))
  }

  const serve = (request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '/'
    const query = target.indexOf('?')
    let path = query === -1 ? target : target.slice(0, query)
    let scope = defaultScope
    let scoped: RegExpExecArray | null = null
    if (path.startsWith('/__')) {
      if (path.startsWith('/__vitest-harness/')) return void control(request, response, path).catch((error: unknown) => fail(response, error))
      scoped = /^\/__scope\/([\w-]+)(\/.*)$/.exec(path)
      if (scoped) {
        scope = scopes.get(scoped[1] as string)
        path = scoped[2] as string
      }
    }
    const method = request.method ?? 'GET'
    const refuse = (status: 404 | 413, message: string) => sendAnswer(response, errorAnswer(wireForPath(path), status, status === 413 ? 'too_large' : 'not_found', message)).catch((error: unknown) => fail(response, error))
    const foreign = dataPlaneRefusal(request.headers, port)
    if (foreign) {
      // Nothing of a foreign page's body is read, recorded or relayed.
      request.resume()
      response.setHeader('connection', 'close')
      const text = JSON.stringify({ error: { message: foreign.message, type: 'forbidden', param: null, code: foreign.code } })
      response.writeHead(403, { 'content-type': 'application/json', 'x-should-retry': 'false', 'content-length': String(Buffer.byteLength(text)) })
      return void response.end(text)
    }
    const tooLarge = () => {
      try {
        learnCredentials(seen, request.headers, undefined, undefined)
      } catch {
        // Full: the log line below holds no value anyway.
      }
      log({ scope: scope?.id ?? 'none', wire: null, method, path, model: null, stream: false, tools: [], bodySha256: '', bodyBytes: Number(request.headers['content-length'] ?? 0), credential: credentialOf(request.headers), outcome: 'refused', status: 413 })
      response.setHeader('connection', 'close')
      refuse(413, `the request body is over ${limit} bytes`)
    }
    if (Number(request.headers['content-length'] ?? 0) > limit) {
      request.resume()
      return tooLarge()
    }
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) chunks.push(chunk)
    })
    request.on('error', () => response.destroy())
    request.on('end', () => {
      if (size > limit) return tooLarge()
      if (!scope) return refuse(404, scoped ? `no open cassette scope ${scoped[1]}` : 'this provider has no default cassette or scenario; open a scope')
      try {
        answer(response, scope, method, path, query === -1 ? '' : target.slice(query), request, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))
      } catch (error) {
        fail(response, error)
      }
    })
  }

  const server: Server = createServer(serve)
  server.keepAliveTimeout = 5_000
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  // A client that hangs up mid-stream is not an error of the server's.
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    // `[::1]` is how a URL writes the address; `listen` takes it bare.
    server.listen(options.port ?? 0, host === '[::1]' ? '::1' : host, () => {
      server.off('error', reject)
      resolve()
    })
  }).catch((error: unknown) => {
    // The default scope may hold its cassette's lock: a provider that never listened releases it.
    defaultScope?.close()
    throw listenRefusal(error, host, options.port ?? 0)
  })
  // After listen, an error is not a refusal to start: it is reported, and `serve` stops on it.
  server.on('error', (error) => reportFailure(new RecorderError('VH_PROVIDER_FAILED', `the provider on ${origin} failed: ${error.message}`, { location: origin, cause: error })))
  const port = (server.address() as AddressInfo).port
  origin = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`

  const provider: Provider = {
    baseUrl: `${origin}/v1`,
    origin,
    port,
    controlToken,
    failure,
    requests: () => all.toArray(),
    misses: () => defaultScope?.misses() ?? [],
    openScope(scopeOptions) {
      const id = createScopeId()
      scopes.set(id, new ProviderScope(id, scopeOptions, log, seen))
      return { id, baseUrl: `${origin}/__scope/${id}/v1`, origin: `${origin}/__scope/${id}` }
    },
    closeScope(id) {
      const scope = scopes.get(id)
      if (!scope) throw new RecorderError('VH_OPTION_INVALID', `no open scope ${id}`, { location: id })
      scope.close()
      scopes.delete(id)
      return scope.report()
    },
    scope: (id) => (id === 'default' ? defaultScope : scopes.get(id)),
    async close() {
      defaultScope?.close()
      for (const scope of scopes.values()) scope.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
    },
  }
  return provider
}
