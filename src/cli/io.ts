import type { Readable } from 'node:stream'

/** What a command may touch, so tests run commands in-process without spawning. */
export interface CliIO {
  readonly stdout: { write(chunk: string): unknown }
  readonly stderr: { write(chunk: string): unknown }
  readonly stdin: Readable
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

type Listener = () => void
type Emitter = { once?: (event: string, listener: Listener) => void; on?: (event: string, listener: Listener) => void }

/** Writes to a stream and waits when it asks to, so large outputs keep memory flat. */
export async function writeWithBackpressure(stream: CliIO['stdout'], chunk: string): Promise<void> {
  const flushed = stream.write(chunk)
  const emitter = stream as unknown as Emitter
  if (flushed === false && typeof emitter.once === 'function') {
    // A reader that went away never drains: `close` ends the wait too, so the command still returns its verdict.
    await new Promise<void>((resolve) => {
      emitter.once?.('drain', resolve)
      emitter.once?.('close', resolve)
    })
  }
}

/** The process's stdout as a command writes to it, and whether its reader went away. */
export interface ProcessStdout {
  readonly stream: CliIO['stdout']
  /** True once a write failed with EPIPE: the rest of the output had nowhere to go. */
  readonly closed: () => boolean
}

/**
 * Guards stdout against a reader that stops reading (`… | head -c1`): EPIPE ends the output
 * quietly — later writes are dropped, waiters for `drain` are released — instead of an uncaught
 * error that prints a stack and exits 1, which for `check` would read as a gap.
 */
export function guardStdout(stdout: NodeJS.WriteStream): ProcessStdout {
  let closed = false
  const waiters: Listener[] = []
  const close = (): void => {
    closed = true
    for (const waiter of waiters.splice(0)) waiter()
  }
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') close()
    else throw error
  })
  const stream = {
    write(chunk: string): boolean {
      if (closed) return true
      return stdout.write(chunk)
    },
    once(event: string, listener: Listener): void {
      if (event === 'close') {
        if (closed) listener()
        else waiters.push(listener)
        return
      }
      stdout.once(event, listener)
    },
  }
  return { stream, closed: () => closed }
}
