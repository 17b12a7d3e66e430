import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { RecorderError } from '../errors.js'
import { bodyFromBuffer, filterHeaders, frameFromBytes, RESPONSE_HEADER_ALLOW_LIST, type CassetteFrame, type CassetteResponse } from './cassette.js'
import { SseFrameSplitter } from './sse.js'

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer'])

/** A proxied answer: its head now, its bytes as they arrive, and what to record once it ends. */
export interface UpstreamAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: AsyncIterable<Buffer>
  /** Resolves with the answer as a cassette stores it, after the last byte. */
  readonly recorded: Promise<CassetteResponse>
  /** What a scripted upstream (another vitest-harness provider) says its answer is: `x-vitest-harness-provenance`. */
  readonly declaredProvenance?: string
}

/** The upstream URL a provider path goes to: the origin, plus the path (a trailing `/v1` on the upstream is not doubled). */
export function upstreamUrl(upstream: string, path: string): URL {
  let base: URL
  try {
    base = new URL(upstream)
  } catch (error) {
    throw new RecorderError('VH_OPTION_INVALID', `upstream ${JSON.stringify(upstream)} is not a URL; give an origin such as https://api.openai.com`, { location: 'upstream', cause: error })
  }
  const prefix = base.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')
  return new URL(`${prefix}${path}`, base.origin)
}

/**
 * Forwards one request to the upstream, decoded (`accept-encoding: identity`), and streams its
 * answer back. `query` (`?alt=sse`) goes with it but into no message: it may hold a key.
 */
export function forwardUpstream(upstream: string, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, query: string): Promise<UpstreamAnswer> {
  const url = upstreamUrl(upstream, path)
  const target = query === '' ? url : new URL(`${url.pathname}${query}`, url.origin)
  const outgoing: Record<string, string | string[]> = { 'accept-encoding': 'identity' }
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) outgoing[name] = value
  if (body.length > 0) outgoing['content-length'] = String(body.length)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const request = send(target, { method, headers: outgoing }, (response) => {
      const status = response.statusCode ?? 502
      const kept = filterHeaders(response.headers, RESPONSE_HEADER_ALLOW_LIST)
      const streamed = (kept['content-type'] ?? '').includes('text/event-stream')
      const started = Date.now()
      // Split as latin1 (one character per byte; the frame boundaries are ASCII), stored as bytes:
      // what is not UTF-8 is kept as recorded, not replaced by U+FFFD.
      const splitter = new SseFrameSplitter()
      const frames: CassetteFrame[] = []
      const body: Buffer[] = []
      const frame = (raw: string) => frames.push(frameFromBytes(Buffer.from(raw, 'latin1'), Date.now() - started))
      let settle: { resolve: (value: CassetteResponse) => void; reject: (error: unknown) => void } | undefined
      const recorded = new Promise<CassetteResponse>((resolveRecorded, rejectRecorded) => (settle = { resolve: resolveRecorded, reject: rejectRecorded }))
      recorded.catch(() => undefined)
      // Stored and relayed decoded, whatever the upstream did with our `identity` request.
      const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase()
      const decoded: Readable = encoding === 'gzip' ? response.pipe(createGunzip()) : encoding === 'br' ? response.pipe(createBrotliDecompress()) : encoding === 'deflate' ? response.pipe(createInflate()) : response
      async function* relay(): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of decoded as AsyncIterable<Buffer>) {
            if (streamed) for (const raw of splitter.push(chunk.toString('latin1'))) frame(raw)
            else body.push(chunk)
            yield chunk
          }
          if (streamed) {
            const tail = splitter.finish()
            if (tail !== undefined) frame(tail)
            settle?.resolve({ status, headers: kept, frames })
          } else settle?.resolve({ status, headers: kept, ...bodyFromBuffer(Buffer.concat(body)) })
        } catch (error) {
          settle?.reject(error)
          throw error
        }
      }
      const declared = response.headers['x-vitest-harness-provenance']
      resolve({ status, headers: kept, body: relay(), recorded, ...(typeof declared === 'string' ? { declaredProvenance: declared } : {}) })
    })
    request.on('error', (error) => reject(new RecorderError('VH_UPSTREAM_MISSING', `the upstream ${url.origin} did not answer ${method} ${path}: ${error.message}`, { location: url.href, cause: error })))
    request.end(body)
  })
}
