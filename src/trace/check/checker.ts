import type { AssistantRequest, IrEvent, IrFamily, IrSink, StreamEnd } from '../ir/types.js'
import type { TraceSpec } from '../spec/model.js'
import type { TraceReport } from '../report-types.js'
import type { Accumulator, CheckContext } from './accumulator.js'
import { CallCorrelator, StepClock, StreamFacts } from './context.js'
import { accumulatorFor } from './kinds/index.js'
import { buildReport } from './report.js'
import type { UnreadRecords } from './unread.js'

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
    this.context = { facts: new StreamFacts(), clock: new StepClock(), correlator: new CallCorrelator() }
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
