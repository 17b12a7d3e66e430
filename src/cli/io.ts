import type { Readable } from 'node:stream'

/** What a command may touch, so tests run commands in-process without spawning. */
export interface CliIO {
  readonly stdout: { write(chunk: string): unknown }
  readonly stderr: { write(chunk: string): unknown }
  readonly stdin: Readable
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/** Writes to a stream and waits when it asks to, so large outputs keep memory flat. */
export async function writeWithBackpressure(stream: CliIO['stdout'], chunk: string): Promise<void> {
  const flushed = stream.write(chunk)
  const emitter = stream as unknown as { once?: (event: string, listener: () => void) => void }
  if (flushed === false && typeof emitter.once === 'function') {
    await new Promise<void>((resolve) => emitter.once?.('drain', resolve))
  }
}
