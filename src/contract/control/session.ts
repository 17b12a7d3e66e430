import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { HarnessAdapter } from '../../../adapters/adapter.js'
import type { ControlSeam } from '../../../adapters/control.js'
import type { LineProjector, SeamOptions } from '../../../adapters/types.js'
import { okOutcome, refusedOutcome, type Command, type CommandOutcome } from '../../events/command.js'
import { digestValue } from '../../events/digest.js'
import type { Census, Decision, Emission, Seam } from '../../events/types.js'
import { EventStreamWriter } from '../../events/write.js'
import { ManualClock, type ControlClock } from './clock.js'
import { deadlineReason, driverDeadlineMs } from './deadline.js'
import { gateCommand } from './gate.js'

/** Warning codes the driver raises, so an embedder matches a code and not prose. */
export const CONTROL_WARNINGS = {
  /** The window closed on a call nobody decided; a later decision for it is `TOO_LATE`. */
  PENDING_CALL_ABANDONED: 'PENDING_CALL_ABANDONED',
  /** The same call id came back with a different input; refused, never approved under the old decision. */
  REQUEST_MUTATED: 'REQUEST_MUTATED',
} as const

type DecidedBy = 'embedder' | 'frame' | 'deadline' | 'adapter' | 'observe'

/** One event the session delivered: what the adapter emitted and the exact line written for it. */
export interface SessionEvent {
  readonly emission: Emission
  readonly line: string
}

export interface ControlSessionOptions {
  /** The run id written on every line. */
  run: string
  /** `ask`: every call waits for the embedder; `observe`: the driver allows every call itself. */
  decisions: 'ask' | 'observe'
  /** Default: a manual clock, so deadlines expire only when the child blocks. */
  clock?: ControlClock
  /** Facts the child's wire does not carry (model, cwd, transcript, attestation). */
  seam?: Omit<SeamOptions, 'run'>
  /** Real-time limit for the whole run; the child is killed and the session fails past it. Default: 10 s. */
  timeoutMs?: number
  cwd?: string
}

/** How the child ended, and what it says it received. */
export interface SessionEnd {
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  /** The lines the child echoed on stderr: for the scripted fake, every line it read. */
  readonly received: string[]
  readonly timedOut: boolean
}

interface PendingCall {
  readonly callId: string
  readonly seam: Seam
  readonly deadlineMs: number
  armedAt: number | undefined
}

type Read = { kind: 'line'; line: string } | { kind: 'end' } | { kind: 'tick' }

function emptyCensus(): Census {
  return { allowed: 0, denied: 0, replaced: 0, abstained: 0, by_seam: {}, by_decider: {} }
}

/**
 * The driver side of `metaharness.command/1` over one live child: events out, commands in,
 * decisions correlated. Each command yields exactly one `command.result`; a decision is written
 * to the child before any control; an unanswered call is denied by the driver's own deadline,
 * strictly before the vendor's; a decision for a call never presented is `UNKNOWN_CALL`, a second
 * one `TOO_LATE`; `session.ended` carries the census of every decision the driver took.
 */
export class ControlSession {
  /** Every line written to the child, in order. */
  readonly written: string[] = []
  private readonly control: ControlSeam
  private readonly child: ChildProcessWithoutNullStreams
  private readonly lines: AsyncIterator<string>
  private readonly projector: LineProjector
  private readonly writer: EventStreamWriter
  private readonly clock: ControlClock
  private readonly deadlineMs: number
  private readonly outbox: Emission[] = []
  private readonly pending: PendingCall[] = []
  private readonly presented = new Map<string, string>()
  private readonly received: string[] = []
  private readonly ended: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>
  private readonly watchdog: NodeJS.Timeout
  private census = emptyCensus()
  private pendingRead: Promise<IteratorResult<string>> | undefined
  private lineNumber = 0
  private nextCommand = 1
  private finished = false
  private timedOut = false
  private spawnError: Error | undefined

  private constructor(
    private readonly adapter: HarnessAdapter,
    script: string,
    private readonly options: ControlSessionOptions,
  ) {
    if (!adapter.control) throw new Error(`the ${adapter.id} adapter has no control seam: it refuses tool.decide with UNSUPPORTED_CONTROL`)
    this.control = adapter.control
    this.clock = options.clock ?? new ManualClock()
    this.deadlineMs = driverDeadlineMs(this.control.vendorTimeoutMs)
    this.projector = this.control.createProjector({ ...options.seam, run: options.run })
    this.writer = new EventStreamWriter(options.run)
    const plan = this.control.spawn(script)
    this.child = spawn(plan.program, plan.args, { env: plan.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    this.child.on('error', (error) => (this.spawnError = error))
    // A child that exited early makes writes fail with EPIPE; the written list still says what was sent.
    this.child.stdin.on('error', () => {})
    const stderr = createInterface({ input: this.child.stderr, crlfDelay: Infinity })
    stderr.on('line', (line) => this.received.push(line))
    const stderrClosed = new Promise<void>((resolve) => stderr.once('close', resolve))
    this.lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]()
    this.ended = new Promise((resolve) => {
      this.child.once('close', (exitCode, signal) => void stderrClosed.then(() => resolve({ exitCode, signal })))
      this.child.once('error', () => resolve({ exitCode: null, signal: null }))
    })
    this.watchdog = setTimeout(() => {
      this.timedOut = true
      this.child.kill('SIGKILL')
    }, options.timeoutMs ?? 10_000)
    this.watchdog.unref()
  }

  /** Starts the adapter's child for this fake-vendor script. */
  static start(adapter: HarnessAdapter, script: string, options: ControlSessionOptions): ControlSession {
    return new ControlSession(adapter, script, options)
  }

  /** The driver's own per-decision budget, strictly less than the vendor's timeout. */
  get decisionDeadlineMs(): number {
    return this.deadlineMs
  }

  /** The next event, or undefined when the run is over. */
  async next(): Promise<SessionEvent | undefined> {
    for (;;) {
      const queued = this.outbox.shift()
      if (queued) return this.deliver(queued)
      if (this.expireDeadlines()) continue
      if (this.finished) return undefined
      const read = await this.readChild()
      if (this.spawnError) throw this.spawnError
      if (read.kind === 'end') this.windUp()
      else if (read.kind === 'line') await this.take(read.line)
    }
  }

  /** Sends one command under `id` (default `c-<n>`); its `command.result` is the next event delivered. */
  async send(command: Command, id = `c-${this.nextCommand++}`): Promise<CommandOutcome> {
    const outcome = await this.apply(command)
    this.outbox.push({ event: 'command.result', id, outcome })
    return outcome
  }

  /** Waits for the child to exit (after the run is over) and reports what it received. */
  async end(): Promise<SessionEnd> {
    if (!this.finished) this.windUp()
    const grace = setTimeout(() => this.child.kill('SIGTERM'), 2_000)
    // Whatever the child still writes after the run is over is read and dropped, so it never blocks on a full pipe.
    if (this.pendingRead) await this.pendingRead
    while (!(await this.lines.next()).done) {
      // discarded
    }
    const { exitCode, signal } = await this.ended
    clearTimeout(grace)
    clearTimeout(this.watchdog)
    return { exitCode, signal, received: [...this.received], timedOut: this.timedOut }
  }

  private deliver(emission: Emission): SessionEvent {
    if (emission.event === 'tool.requested' && emission.decision_required) {
      const call = this.pending.find((candidate) => candidate.callId === emission.call_id && candidate.armedAt === undefined)
      // Armed at delivery, so an embedder answering in the order it was handed is never timed out by its own queue.
      if (call) call.armedAt = this.clock.now()
    }
    return { emission, line: this.writer.write(emission) }
  }

  private async readChild(): Promise<Read> {
    this.pendingRead ??= this.lines.next()
    const deadline = this.earliestDeadline()
    if (this.clock.passesOnItsOwn && deadline !== undefined) {
      const tick = this.clock.sleepUntil(deadline).then((): Read => ({ kind: 'tick' }))
      const read = this.pendingRead.then((result): Read => (result.done ? { kind: 'end' } : { kind: 'line', line: result.value }))
      const first = await Promise.race([read, tick])
      if (first.kind !== 'tick') this.pendingRead = undefined
      return first
    }
    const result = await this.pendingRead
    this.pendingRead = undefined
    return result.done ? { kind: 'end' } : { kind: 'line', line: result.value }
  }

  private async take(line: string): Promise<void> {
    this.lineNumber += 1
    const awaited = this.control.awaitingCall?.(line)
    if (awaited !== undefined) {
      await this.childBlockedOn(awaited)
      return
    }
    this.admit(this.projector.pushLine(line, this.lineNumber))
  }

  // The child says it is blocked: if the call is still open, wait out the earliest deadline.
  private async childBlockedOn(callId: string): Promise<void> {
    if (!this.pending.some((call) => call.callId === callId)) {
      // Already answered: the decision is on its way to the child. Never presented: nobody can answer it.
      if (this.presented.has(callId)) return
      throw new Error(`the child is waiting on a decision for ${callId}, a call it never presented; neither side can leave this state`)
    }
    const deadline = this.earliestDeadline()
    if (deadline === undefined) throw new Error(`the child is waiting on ${callId} and no deadline is armed`)
    await this.clock.sleepUntil(deadline)
  }

  private earliestDeadline(): number | undefined {
    let earliest: number | undefined
    for (const call of this.pending) {
      if (call.armedAt === undefined) continue
      const due = call.armedAt + call.deadlineMs
      if (earliest === undefined || due < earliest) earliest = due
    }
    return earliest
  }

  private admit(emissions: Emission[]): void {
    for (const emission of emissions) {
      if (emission.event === 'tool.requested') {
        // A call no seam covers is a record of a call, not one awaiting a decision.
        if (emission.seam === 'none') this.outbox.push(emission)
        else this.admitCall(emission)
        continue
      }
      if (emission.event === 'session.ended') {
        this.outbox.push({ ...emission, census: structuredClone(this.census) })
        continue
      }
      this.outbox.push(emission)
      if (emission.event === 'turn.ended') this.abandonPending('the turn ended')
    }
  }

  private admitCall(emission: Extract<Emission, { event: 'tool.requested' }>): void {
    const callId = emission.call_id
    const digest = digestValue({ call_id: callId, name: emission.name, input: emission.input ?? null })
    const previous = this.presented.get(callId)
    const seam = this.control.seam
    if (previous !== undefined && previous !== digest) {
      this.outbox.push({ ...emission, decision_required: false, deadline_ms: null, seam })
      this.warn(
        CONTROL_WARNINGS.REQUEST_MUTATED,
        `call ${callId} was presented again with a different input; the earlier decision does not carry over`,
      )
      this.writeDecision({ callId, seam, deadlineMs: this.deadlineMs, armedAt: undefined }, { decision: 'deny', reason: 'this call id was already presented with a different input' }, 'adapter', null)
      return
    }
    const first = previous === undefined
    this.presented.set(callId, digest)
    if (this.options.decisions === 'ask' && this.adapter.capabilities().commands['tool.decide'] === 'honoured') {
      if (!this.pending.some((call) => call.callId === callId)) {
        this.pending.push({ callId, seam, deadlineMs: this.deadlineMs, armedAt: undefined })
      }
      this.outbox.push({ ...emission, decision_required: true, deadline_ms: this.deadlineMs, seam })
      return
    }
    this.outbox.push({ ...emission, decision_required: false, deadline_ms: null, seam })
    // A call repeated byte for byte is recorded again but decided once: the census counts calls, not lines.
    if (first) this.writeDecision({ callId, seam, deadlineMs: this.deadlineMs, armedAt: undefined }, { decision: 'allow' }, 'observe', null)
  }

  // The decision reaches the child before anything is emitted about it.
  private writeDecision(call: PendingCall, decision: Decision, by: DecidedBy, latency: number | null): void {
    this.writeChild(this.control.decisionLine(call.callId, decision))
    this.count(decision, call.seam, by)
    this.outbox.push({ event: 'tool.decided', call_id: call.callId, decision, decided_by: by, seam: call.seam, latency_ms: latency })
  }

  private writeChild(line: string): void {
    this.written.push(line)
    if (this.child.stdin.writable) this.child.stdin.write(`${line}\n`)
  }

  private count(decision: Decision, seam: Seam, by: DecidedBy): void {
    if (decision.decision === 'allow') this.census.allowed += 1
    else if (decision.decision === 'deny') this.census.denied += 1
    else if (decision.decision === 'replace') this.census.replaced += 1
    else this.census.abstained += 1
    this.census.by_seam[seam] = (this.census.by_seam[seam] ?? 0) + 1
    this.census.by_decider[by] = (this.census.by_decider[by] ?? 0) + 1
  }

  private warn(code: string, message: string): void {
    this.outbox.push({ event: 'warning', code, message })
  }

  private expireDeadlines(): boolean {
    const now = this.clock.now()
    const expired = this.pending.filter((call) => call.armedAt !== undefined && now - call.armedAt >= call.deadlineMs)
    if (expired.length === 0) return false
    for (const call of expired) {
      this.pending.splice(this.pending.indexOf(call), 1)
      const reason = deadlineReason(call.deadlineMs, this.control.vendorTimeoutMs)
      this.writeDecision(call, { decision: 'deny', reason }, 'deadline', now - (call.armedAt ?? now))
    }
    return true
  }

  // Interrupt is a legal answer to a pending decision, and the deny still goes first: cancelling
  // first would leave the child waiting on a correlation that no longer exists.
  private abandonPending(why: string): void {
    const abandoned = this.pending.splice(0, this.pending.length)
    for (const call of abandoned) {
      const latency = call.armedAt === undefined ? null : this.clock.now() - call.armedAt
      this.writeDecision(call, { decision: 'deny', reason: `${why} before this call was decided, so nothing ran` }, 'adapter', latency)
      this.warn(CONTROL_WARNINGS.PENDING_CALL_ABANDONED, `${call.callId} was never decided by the embedder`)
    }
  }

  private windUp(): void {
    if (this.finished) return
    this.abandonPending('the stream ended')
    this.outbox.push(...this.projector.finish())
    this.finished = true
    this.child.stdin.end()
  }

  private async apply(command: Command): Promise<CommandOutcome> {
    const gated = gateCommand(this.adapter.capabilities(), command)
    if (gated) return gated
    switch (command.command) {
      case 'tool.decide':
        return this.decide(command.call_id, command.decision)
      case 'frame.set':
        return refusedOutcome('UNSUPPORTED_CONTROL', 'this driver enforces no frame, so a frame set here would be advertised and never applied')
      case 'interrupt':
        this.abandonPending('the run was interrupted')
        this.writeControl(command)
        return okOutcome()
      case 'halt':
        this.abandonPending('the run was halted')
        this.writeControl(command)
        this.windUp()
        return okOutcome()
      default:
        this.writeControl(command)
        return okOutcome()
    }
  }

  private writeControl(command: Command): void {
    const line = this.control.controlLine(command)
    if (line !== undefined) this.writeChild(line)
  }

  // A decision correlates to one presented call and cannot be replayed.
  private decide(callId: string, decision: Decision): CommandOutcome {
    const index = this.pending.findIndex((call) => call.callId === callId)
    if (index === -1) {
      return this.presented.has(callId)
        ? refusedOutcome('TOO_LATE', `${callId} was decided or its window closed; a decision cannot be replayed`)
        : refusedOutcome('UNKNOWN_CALL', `${callId} does not correlate to an open request`)
    }
    const [call] = this.pending.splice(index, 1) as [PendingCall]
    const latency = call.armedAt === undefined ? null : this.clock.now() - call.armedAt
    this.writeDecision(call, decision, 'embedder', latency)
    return okOutcome()
  }
}
