import { bodyBuffer, frameBuffer, type CassetteResponse } from './cassette.js'

/** A response with its bytes computed once, at load: serving it is a lookup and writes. */
export interface PreparedResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The head as written: the recorded headers, plus `cache-control: no-store` on streams. */
  readonly head: Readonly<Record<string, string>>
  /** One buffer per frame (or the whole body): one write each, as recorded. */
  readonly chunks: readonly Buffer[]
  /** All the chunks as one buffer, for the unpaced path: one write, the same bytes. */
  readonly whole: Buffer
  /** Milliseconds after the head at which each chunk was sent, when known. */
  readonly atMs: readonly (number | undefined)[]
  readonly streamed: boolean
  /** The stream was cut mid-event: close the socket after the last chunk instead of ending cleanly. */
  readonly cut: boolean
}

function isTerminated(frame: Buffer): boolean {
  const tail = frame.subarray(-4).toString('latin1')
  return tail.endsWith('\n\n') || tail.endsWith('\r\n\r\n') || tail.endsWith('\r\r')
}

export function prepareResponse(response: CassetteResponse, paceMs = 0): PreparedResponse {
  if (response.frames) {
    const chunks = response.frames.map(frameBuffer)
    const last = chunks[chunks.length - 1]
    return {
      status: response.status,
      headers: response.headers,
      head: { 'cache-control': 'no-store', ...response.headers },
      chunks,
      whole: Buffer.concat(chunks),
      atMs: response.frames.map((frame, index) => (paceMs > 0 ? index * paceMs : frame.atMs)),
      streamed: true,
      cut: last !== undefined && !isTerminated(last),
    }
  }
  const body = bodyBuffer(response)
  return { status: response.status, headers: response.headers, head: { ...response.headers, 'content-length': String(body.length) }, chunks: body.length > 0 ? [body] : [], whole: body, atMs: [], streamed: false, cut: false }
}

/** Splits the concatenated chunks at the given byte offsets, so SSE parsers meet frames cut anywhere. */
export function rechunk(chunks: readonly Buffer[], offsets: readonly number[]): Buffer[] {
  const whole = Buffer.concat(chunks)
  const cuts = [...new Set(offsets.filter((offset) => offset > 0 && offset < whole.length))].sort((a, b) => a - b)
  const out: Buffer[] = []
  let start = 0
  for (const cut of cuts) {
    out.push(whole.subarray(start, cut))
    start = cut
  }
  out.push(whole.subarray(start))
  return out
}
