import type { z } from 'zod'
import type { EventName } from './format.js'
import type { PayloadSchemas } from './schema.js'
import type * as schema from './schema.js'

/** An event's payload as read (every `Option` present, `null` when absent). */
export type Payload<N extends EventName> = z.output<PayloadSchemas[N]>

/** An event's payload as an adapter may write it (`Option` fields may be left out). */
export type PayloadInput<N extends EventName> = z.input<PayloadSchemas[N]>

/** One event, tagged by name, as read from a stream. */
export type EventOf<N extends EventName> = { event: N } & Payload<N>

/** Any event as read from a stream. */
export type HarnessEvent = { [N in EventName]: EventOf<N> }[EventName]

/** What an adapter emits: an event, with the vendor's own timestamp when it recorded one. */
export type Emission = {
  [N in EventName]: { event: N; at?: string | null } & PayloadInput<N>
}[EventName]

/** One line of a stream: the envelope and its event. */
export type EventLine = HarnessEvent & {
  format: 'metaharness.event/1'
  seq: number
  run: string
  at?: string
}

export type Usage = z.output<typeof schema.usageSchema>
export type Census = z.output<typeof schema.censusSchema>
export type Decision = z.output<typeof schema.decisionSchema>
export type Seam = z.output<typeof schema.seamSchema>
export type CloseReason = z.output<typeof schema.closeReasonSchema>
export type HermeticMode = z.output<typeof schema.hermeticModeSchema>
export type DecisionMode = z.output<typeof schema.decisionModeSchema>
export type Hermetic = z.input<typeof schema.hermeticSchema>
