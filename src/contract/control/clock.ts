/**
 * The time a control session measures deadlines and latencies in. Injected, so a vector's
 * deadline expires deterministically: a manual clock only moves when the driver waits out a
 * deadline, a system clock moves on its own.
 */
export interface ControlClock {
  /** Milliseconds since the clock started. */
  now(): number
  /** Resolves once `now() >= ms`; a manual clock jumps there at once. */
  sleepUntil(ms: number): Promise<void>
  /** Whether time passes while the driver waits on the child, so a deadline can expire mid-read. */
  readonly passesOnItsOwn: boolean
}

/** A clock that moves only when told to: what every vector runs on. */
export class ManualClock implements ControlClock {
  readonly passesOnItsOwn = false
  private current = 0

  now(): number {
    return this.current
  }

  async sleepUntil(ms: number): Promise<void> {
    this.current = Math.max(this.current, ms)
  }

  advance(ms: number): void {
    this.current += ms
  }
}

/** Wall-clock time, for driving a real vendor. */
export class SystemClock implements ControlClock {
  readonly passesOnItsOwn = true
  private readonly started = performance.now()

  now(): number {
    return Math.floor(performance.now() - this.started)
  }

  sleepUntil(ms: number): Promise<void> {
    const wait = ms - this.now()
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)))
  }
}
