/** The format tag every event line carries. */
export const EVENT_FORMAT = 'metaharness.event/1'

/** The format tag every command line carries. */
export const COMMAND_FORMAT = 'metaharness.command/1'

/** The twenty event names of `metaharness.event/1`, in upstream's declaration order. */
export const EVENT_NAMES = [
  'session.started',
  'session.ended',
  'step.entered',
  'step.left',
  'turn.started',
  'turn.ended',
  'text',
  'thinking',
  'thinking.estimate',
  'injection',
  'tool.requested',
  'tool.decided',
  'tool.result',
  'usage',
  'rate_limit',
  'command.result',
  'warning',
  'opaque',
  'auth.expired',
  'stream.closed',
] as const

export type EventName = (typeof EVENT_NAMES)[number]

const eventNameSet: ReadonlySet<string> = new Set(EVENT_NAMES)

export function isEventName(name: string): name is EventName {
  return eventNameSet.has(name)
}

/** The seven command names of `metaharness.command/1`. */
export const COMMAND_NAMES = [
  'tool.decide',
  'frame.set',
  'message.inject',
  'steer',
  'permission.set',
  'interrupt',
  'halt',
] as const

export type CommandName = (typeof COMMAND_NAMES)[number]
