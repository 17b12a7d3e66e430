// Server-sent events as the official SDKs parse them: fields end at `\n`, an event ends at a blank
// line, one space after the colon is dropped, several `data:` lines join with `\n`.

/** One event as a client sees it: its `event:` name (absent on data-only wires) and its data. */
export interface SseEvent {
  readonly event: string | undefined
  readonly data: string
}

/** The bytes of one event: `event: NAME\n` when named, one `data: ` line per data line, a blank line. */
export function encodeSseFrame(event: string | undefined, data: string): string {
  let frame = event === undefined ? '' : `event: ${event}\n`
  for (const line of data.split('\n')) frame += `data: ${line}\n`
  return `${frame}\n`
}

/**
 * Cuts a stream's text into raw frames, each with its terminating blank line. Text after the last
 * blank line (a stream cut mid-event) is returned as a last, unterminated frame.
 */
export function splitSseFrames(text: string): string[] {
  const frames: string[] = []
  let start = 0
  const pattern = /\r\n\r\n|\n\n|\r\r/g
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].length
    frames.push(text.slice(start, end))
    start = end
  }
  if (start < text.length) frames.push(text.slice(start))
  return frames
}

/** Reads one raw frame's fields as the SDKs' decoders do; comments and `id:`/`retry:` are skipped. */
export function parseSseFrame(raw: string): SseEvent {
  let event: string | undefined
  const data: string[] = []
  for (const line of raw.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
  }
  return { event, data: data.join('\n') }
}

/**
 * Incremental frame splitter for proxied streams: feed decoded text as it arrives, get each
 * complete raw frame once its blank line is in.
 */
export class SseFrameSplitter {
  private pending = ''

  push(text: string): string[] {
    this.pending += text
    const frames = splitSseFrames(this.pending)
    const last = frames[frames.length - 1]
    if (last !== undefined && !/(\r\n\r\n|\n\n|\r\r)$/.test(last)) {
      this.pending = last
      frames.pop()
    } else this.pending = ''
    return frames
  }

  /** What is left when the stream ends: an unterminated frame, or nothing. */
  finish(): string | undefined {
    const rest = this.pending
    this.pending = ''
    return rest === '' ? undefined : rest
  }
}
