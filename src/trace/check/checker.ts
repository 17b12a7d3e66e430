import type { AssistantRequest, IrEvent, IrFamily, IrReads, IrSink, StreamEnd } from '../ir/types.js'
import { timeOf } from '../ir/timestamp.js'
import type { TraceSpec } from '../spec/model.js'
import type { TraceReport } from '../report-types.js'
import type { Accumulator, CheckContext } from './accumulator.js'
import { CallCorrelator, StepClock, StreamFacts } from './context.js'
import { accumulatorFor } from './kinds/index.js'
import { buildReport } from './report.js'
import type { UnreadRecords } from './unread.js'

/**
 * What a specification's expectations read, so the reader may pass over the rest. Every check
 * reads the opening, the terminal record and the unread (`opaque`) events: the shared facts and
 * every count's honesty rest on them. Reading results or request citations brings in what those
 * are made of.
 */
function readsOf(accumulators: readonly Accumulator[]): { reads: IrReads; named: ReadonlySet<IrFamily> } {
  const named = new Set<IrFamily>()
  for (const accumulator of accumulators) {
    for (const family of accumulator.families) named.add(family)
    for (const family of accumulator.facts ?? []) named.add(family)
    if (accumulator.wantsResults) named.add('tool_call').add('tool_result')
    if (accumulator.wantsRequestEvents) named.add('assistant_text').add('assistant_thinking').add('tool_call')
  }
  const reads: IrReads = {
    families: new Set<IrFamily>([...named, 'session_start', 'run_outcome', 'opaque']),
    requests: accumulators.some((accumulator) => accumulator.wantsRequests === true),
    // A terminal record's denials are joined with the seam's decisions: whoever reads it reads them.
    decisions: named.has('run_outcome'),
    clock: accumulators.some((accumulator) => accumulator.readsClock === true),
  }
  return { reads, named }
}

/**
 * Checks one specification against IR as a reader produces it: one accumulator per expectation,
 * fed only the families it reads, the shared facts kept alongside. Nothing holds the transcript,
 * so memory is what the expectations need, not what the run was.
 */
export class TraceChecker implements IrSink {
  private readonly accumulators: Accumulator[]
  private readonly byFamily = new Map<IrFamily, Accumulator[]>()
  private readonly requestReaders: Accumulator[]
  private readonly context: CheckContext
  private readonly correlating: boolean
  readonly wantsRequestEvents: boolean
  /** What the expectations read: the reader passes over the rest (see `IrReads`). */
  readonly reads: IrReads

  constructor(
    private readonly spec: TraceSpec,
    private readonly advisoryOverrides: string[] = [],
  ) {
    this.accumulators = spec.expectations.map((expectation) => accumulatorFor(expectation.kind))
    for (const accumulator of this.accumulators) {
      for (const family of accumulator.families) {
        const list = this.byFamily.get(family)
        if (list) list.push(accumulator)
        else this.byFamily.set(family, [accumulator])
      }
    }
    this.requestReaders = this.accumulators.filter((accumulator) => accumulator.wantsRequests)
    this.correlating = this.accumulators.some((accumulator) => accumulator.wantsResults)
    this.wantsRequestEvents = this.accumulators.some((accumulator) => accumulator.wantsRequestEvents)
    const { reads, named } = readsOf(this.accumulators)
    this.reads = reads
    this.context = { facts: new StreamFacts(named), clock: new StepClock(reads.clock), correlator: new CallCorrelator() }
  }

  passed(_index: number, sourceLine: number, timestamp: string | null): void {
    if (this.reads.clock) this.context.clock.observeAt(sourceLine, timeOf(timestamp))
  }

  event(event: IrEvent): void {
    const context = this.context
    context.facts.observe(event)
    context.clock.observe(event)
    if (this.correlating) {
      if (event.family === 'tool_call') context.correlator.call(event)
      else if (event.family === 'tool_result') context.correlator.result(event)
    }
    const readers = this.byFamily.get(event.family)
    if (readers === undefined) return
    for (let i = 0; i < readers.length; i++) (readers[i] as Accumulator).event?.(event, context)
  }

  request(request: AssistantRequest): void {
    for (const reader of this.requestReaders) reader.request?.(request, this.context)
  }

  end(end: StreamEnd): void {
    this.context.facts.end = end
  }

  /** The records nobody could read, counted by type with their first lines. */
  unread(): UnreadRecords {
    return this.context.facts.unread.summary()
  }

  /** The report, once the stream has ended. */
  report(transcriptDigest: string): TraceReport {
    const end = this.context.facts.end
    if (end === null) throw new Error('the transcript has not ended: call end() before report()')
    return buildReport({
      spec: this.spec,
      outcomes: this.accumulators.map((accumulator) => accumulator.finish(this.context)),
      transcriptDigest,
      adapter: end.adapter,
      advisoryOverrides: this.advisoryOverrides,
    })
  }
}
