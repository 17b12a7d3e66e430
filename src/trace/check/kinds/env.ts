import { compareCodePoints } from '../../../events/json.js'
import type { SessionStart } from '../../ir/types.js'
import { countHolds, describeCount } from '../../spec/bounds.js'
import type { CountBound, KindOf, ToolAvailability } from '../../spec/model.js'
import { fromFacts, type Accumulator, type CheckContext } from '../accumulator.js'
import { isOutcome } from '../context.js'
import { fieldAbsent, gap, ok, undecidable, type Outcome } from '../outcome.js'

/**
 * The environment family: every kind here reads the run's opening records, and nothing else. A
 * stream that concatenates sessions opens each one, and the claim is the run's: it holds when it
 * holds in every session, is a gap where any session contradicts it (the first such is cited), and
 * is otherwise undecided where any session cannot say.
 */

const fromSession = (finish: (context: CheckContext) => Outcome): Accumulator => fromFacts(finish, ['session_start'])

function withSession(context: CheckContext, decide: (at: number, start: SessionStart) => Outcome): Outcome {
  const sessions = context.facts.sessions()
  if (isOutcome(sessions)) return sessions
  const outcomes = sessions.map((session) => decide(session.index, session.start))
  const first = outcomes[0] as Outcome
  if (outcomes.length === 1) return first
  const contradicted = outcomes.find((outcome) => outcome.outcome === 'gap')
  if (contradicted) return contradicted
  const undecided = outcomes.find((outcome) => outcome.outcome === 'undecidable')
  if (undecided) return undecided
  return ok(
    outcomes.flatMap((outcome) => (outcome.outcome === 'ok' ? outcome.events : [])),
    `${first.outcome === 'ok' ? first.note : ''}, in each of the ${outcomes.length} sessions`,
  )
}

function envField(field: string, expected: string, read: (start: SessionStart) => string | null): Accumulator {
  return fromSession((context) =>
    withSession(context, (at, start) => {
      const actual = read(start)
      if (actual === null) return fieldAbsent(field)
      return actual === expected ? ok([at], `${field} = ${actual}`) : gap([at], `${field} = ${actual}, expected ${expected}`)
    }),
  )
}

function offers(context: CheckContext, field: string, noun: string, wanted: string, read: (start: SessionStart) => string[] | null): Outcome {
  return withSession(context, (at, start) => {
    const offered = read(start)
    if (offered === null) return fieldAbsent(field)
    return offered.includes(wanted) ? ok([at], `${noun} ${wanted} is among ${offered.length} offered`) : gap([at], `${noun} ${wanted} is not among the ${offered.length} offered`)
  })
}

function withholds(context: CheckContext, unwanted: string): Outcome {
  return withSession(context, (at, start) => {
    const offered = start.tools
    if (offered === null) return fieldAbsent('tools')
    return offered.includes(unwanted)
      ? gap([at], `tool ${unwanted} is among the ${offered.length} offered`)
      : ok([at], `tool ${unwanted} is not among the ${offered.length} offered`)
  })
}

/** Exactly a named set: what leaked in and what was missing, both halves at once. */
function exactly(at: number, present: string[], expected: string[], noun: string, held: (present: string[]) => string, missingWord: string): Outcome {
  const have = new Set(present)
  const want = new Set(expected)
  const sorted = [...have].sort(compareCodePoints)
  const unexpected = sorted.filter((name) => !want.has(name))
  const missing = expected.filter((name) => !have.has(name))
  if (unexpected.length === 0 && missing.length === 0) return ok([at], held(sorted))
  const parts: string[] = []
  if (unexpected.length > 0) parts.push(`${unexpected.length} unexpected ${noun}(s): ${unexpected.join(', ')}`)
  if (missing.length > 0) parts.push(`${missing.join(', ')} ${missingWord}`)
  return gap([at], parts.join('; '))
}

function toolAvailable(availability: ToolAvailability): Accumulator {
  return fromSession((context) => {
    switch (availability.form) {
      case 'offered':
        return offers(context, 'tools', 'tool', availability.tool, (start) => start.tools)
      case 'not_offered':
        return withholds(context, availability.tool)
      case 'offered_any': {
        // Any witness satisfies it; the citation names which. An unknown from a missing list
        // gives way to the operations' answer, a gap from the tools does not.
        let last: Outcome = undecidable({ reason: 'no_session_start' })
        for (const tool of availability.tools) {
          const outcome = offers(context, 'tools', 'tool', tool, (start) => start.tools)
          if (outcome.outcome === 'ok') return outcome
          last = outcome
        }
        for (const operation of availability.operations) {
          const outcome = offers(context, 'available_operations', 'operation', operation, (start) => start.availableOperations)
          if (outcome.outcome === 'ok') return outcome
          if (last.outcome === 'undecidable') last = outcome
        }
        return last
      }
      case 'only':
        return withSession(context, (at, start) => {
          if (start.tools === null) return fieldAbsent('tools')
          return exactly(at, start.tools, availability.tools, 'tool', (present) => `exactly the ${present.length} tools expected were offered`, 'not offered')
        })
    }
  })
}

function mcpServers(bound: CountBound): Accumulator {
  return fromSession((context) =>
    withSession(context, (at, start) => {
      if (start.mcpServers === null) return fieldAbsent('mcp_servers')
      const observed = start.mcpServers.length
      // The count, never the names: they are account-level and end up in committed reports.
      return countHolds(bound, observed)
        ? ok([at], `${observed} MCP server(s), bound ${describeCount(bound)}`)
        : gap([at], `${observed} MCP server(s), expected ${describeCount(bound)}`)
    }),
  )
}

function pluginLoaded(kind: KindOf<'env.plugin_loaded'>): Accumulator {
  return fromSession((context) =>
    withSession(context, (at, start) => {
      if (start.plugins === null) return fieldAbsent('plugins')
      const loaded = start.plugins.find((entry) => entry.name === kind.plugin)
      if (!loaded) return gap([at], `${kind.plugin} is not loaded`)
      for (const [pinned, actual, field] of [
        [kind.version, loaded.version, 'plugins[].version'],
        [kind.source, loaded.source, 'plugins[].source'],
      ] as const) {
        if (pinned === null) continue
        if (actual === null) return fieldAbsent(field)
        if (actual !== pinned) return gap([at], `${kind.plugin} ${field} is ${actual}, expected ${pinned}`)
      }
      const version = loaded.version === null ? '' : ` ${loaded.version}`
      const source = loaded.source === null ? '' : ` from ${loaded.source}`
      return ok([at], `${kind.plugin}${version}${source} is loaded`)
    }),
  )
}

function exclusive(plugins: string[]): Accumulator {
  return fromSession((context) =>
    withSession(context, (at, start) => {
      if (start.plugins === null) return fieldAbsent('plugins')
      return exactly(at, start.plugins.map((entry) => entry.name), plugins, 'plugin', (present) => `exactly ${present.join(', ')} loaded`, 'not loaded')
    }),
  )
}

type EnvKind = KindOf<
  | 'env.plugin_loaded'
  | 'env.exclusive'
  | 'env.output_style'
  | 'env.skill_available'
  | 'env.agent_available'
  | 'env.tool_available'
  | 'env.mcp_servers'
  | 'env.model'
  | 'env.permission_mode'
  | 'env.api_key_source'
>

export function envAccumulator(kind: EnvKind): Accumulator {
  switch (kind.expect) {
    case 'env.plugin_loaded':
      return pluginLoaded(kind)
    case 'env.exclusive':
      return exclusive(kind.plugins)
    case 'env.output_style':
      return envField('output_style', kind.equals, (start) => start.outputStyle)
    case 'env.skill_available':
      return fromSession((context) => offers(context, 'skills', 'skill', kind.skill, (start) => start.skills))
    case 'env.agent_available':
      return fromSession((context) => offers(context, 'agents', 'agent', kind.agent, (start) => start.agents))
    case 'env.tool_available':
      return toolAvailable(kind.availability)
    case 'env.mcp_servers':
      return mcpServers(kind.count)
    case 'env.model':
      return envField('model', kind.equals, (start) => start.model)
    case 'env.permission_mode':
      return envField('permission_mode', kind.equals, (start) => start.permissionMode)
    case 'env.api_key_source':
      return envField('api_key_source', kind.equals, (start) => start.apiKeySource)
  }
}
