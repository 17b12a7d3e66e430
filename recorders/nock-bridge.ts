import { Readable } from 'node:stream'
import type { ReadStream } from 'node:fs'
import nock from 'nock'
import { RecorderError } from './errors.js'
import type { Miss } from './provider/match.js'
import { rechunk } from './provider/prepared.js'
import type { RequestLogEntry } from './provider/request-log.js'
import { ProviderScope, type ScopeOptions } from './provider/scope.js'

/** The vendors' hosts an in-process SDK client talks to by default. */
export const DEFAULT_BRIDGED_ORIGINS: readonly string[] = ['https://api.openai.com', 'https://api.anthropic.com']

export interface NockBridgeOptions extends Omit<ScopeOptions, 'upstream' | 'pacing'> {
  /** The origins to answer for. Default: `https://api.openai.com`, `https://api.anthropic.com`. */
  readonly origins?: readonly string[]
}

/** An active bridge: what it saw, and how to take it down. */
export interface NockBridge {
  requests(): readonly RequestLogEntry[]
  misses(): readonly Miss[]
  /** Removes this bridge's interceptors (and only them) and writes a recorded cassette. */
  close(): void
}

/**
 * Routes in-process SDK clients (global `fetch` and `node:http`/`https`, through nock) to the same
 * cassettes and scenarios the loopback provider serves, without a server. Answers are the
 * provider's own: same matching, same misses, same bytes, streamed frame by frame.
 *
 * It never reaches a network: an `upstream` is refused (recording goes through `startProvider`).
 *
 * @example
 * const bridge = bridgeToCassette({ cassette: 'test/cassettes/chat.cassette.jsonl' })
 * const completion = await new OpenAI({ apiKey: 'placeholder' }).chat.completions.create(…)
 * bridge.close()
 */
export function bridgeToCassette(options: NockBridgeOptions): NockBridge {
  if ((options as ScopeOptions).upstream !== undefined) {
    throw new RecorderError('VH_OPTION_INVALID', 'the nock bridge answers from cassettes and scenarios only; to record from an upstream, use startProvider({ mode: "record", upstream })', { location: 'upstream' })
  }
  const entries: RequestLogEntry[] = []
  const scope = new ProviderScope('nock', options, (entry) => {
    const full = { seq: entries.length + 1, ...entry }
    entries.push(full)
    return full
  })
  const interceptors = (options.origins ?? DEFAULT_BRIDGED_ORIGINS).map((origin) => {
    const interceptor = nock(origin).persist().intercept(/.*/, 'POST')
    interceptor.reply(async function reply(uri, body) {
      const text = typeof body === 'string' ? body : JSON.stringify(body)
      const url = new URL(uri, origin)
      const path = url.pathname
      const answer = await scope.handle({ method: 'POST', path, query: url.search, headers: this.req.headers, body: Buffer.from(text, 'utf8') })
      if (answer.kind !== 'prepared') throw new RecorderError('VH_OPTION_INVALID', 'the nock bridge cannot proxy', { location: path })
      const prepared = answer.response
      const chunks = answer.rechunk ? rechunk(prepared.chunks, answer.rechunk) : prepared.chunks
      const stream = Readable.from(chunks.map((chunk) => Buffer.from(chunk)), { objectMode: false })
      return [prepared.status, stream as unknown as ReadStream, { ...prepared.headers }] as const
    })
    return interceptor
  })
  return {
    requests: () => entries,
    misses: () => scope.misses(),
    close() {
      for (const interceptor of interceptors) nock.removeInterceptor(interceptor)
      scope.close()
    },
  }
}
