import type { z } from 'zod'
import { compareCodePoints } from '../../events/json.js'
import type { TraceRefusal } from '../errors.js'
import { rustDisplayF64 } from '../rust-format.js'
import { describeCount, describeRange } from './bounds.js'
import { specDigest } from './digest.js'
import { KIND_ALIASES } from './kinds.js'
import { compilePattern, describeMatcher, matchesEveryText } from './matcher.js'
import type {
  CallSelector,
  CountBound,
  Expectation,
  ExpectationKind,
  FieldMatcher,
  KindName,
  RangeBound,
  ToolAvailability,
  TraceSpec,
} from './model.js'
import { SPEC_FORMAT } from './model.js'
import type { kindParamSchemas, matcherSchema, traceSpecDocumentSchema } from './schema.js'
import { describeSelector, isUnscoped, sortedKeys } from './selector.js'

/**
 * The rules a shape cannot see (`TRACE-SPEC-001`, `003`..`008`), every one accumulated: a document
 * with four defects reports four refusals in one pass. Messages are upstream's.
 */

type Document = z.output<typeof traceSpecDocumentSchema>
type Params<N extends keyof typeof kindParamSchemas> = z.output<(typeof kindParamSchemas)[N]>
type RawMatcher = z.output<typeof matcherSchema>
type RawCount = { at_least?: number | null | undefined; at_most?: number | null | undefined; exactly?: number | null | undefined }
type RawRange = { at_least?: number | null | undefined; at_most?: number | null | undefined }
type RawSelector = {
  tool?: string | null | undefined
  tools?: string[] | null | undefined
  operations?: string[] | null | undefined
  subject?: RawMatcher | null | undefined
  args?: Record<string, RawMatcher> | undefined
}

class Refusals {
  readonly list: TraceRefusal[] = []

  refuse(code: TraceRefusal['code'], location: string, message: string): void {
    this.list.push({ code, location, message })
  }
}

const at = (location: string, kind: string, field: string) => `${location}.expect.${kind}.${field}`
const atKind = (location: string, kind: string) => `${location}.expect.${kind}`

/** Lowercase letters, digits and dashes, not starting with a dash. */
export function isIdentifier(value: string): boolean {
  return /^[a-z0-9][a-z0-9-]*$/.test(value)
}

/** An identifier, or two separated by one `/`. */
export function isDocumentId(value: string): boolean {
  const segments = value.split('/')
  return segments.length <= 2 && segments.every(isIdentifier)
}

const blank = (value: string) => value.trim() === ''

function stated(value: string, location: string, noun: string, errors: Refusals): string | undefined {
  if (blank(value)) {
    errors.refuse('TRACE-SPEC-005', location, `a blank ${noun} names nothing, so this expectation can only report a gap`)
    return undefined
  }
  return value
}

/** An optional name: absent is fine (`null`), blank is refused (`undefined`). */
function optionallyStated(value: string | null | undefined, location: string, noun: string, errors: Refusals): string | null | undefined {
  if (value === null || value === undefined) return null
  return stated(value, location, noun, errors)
}

function namesOf(values: string[], location: string, noun: string, empty: string, errors: Refusals): string[] | undefined {
  if (values.length === 0) {
    errors.refuse('TRACE-SPEC-005', location, empty)
    return undefined
  }
  if (values.some(blank)) {
    errors.refuse('TRACE-SPEC-005', location, `a blank entry is not a ${noun}`)
    return undefined
  }
  return sortedSet(values)
}

function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints)
}

function countOf(raw: RawCount, location: string, errors: Refusals): CountBound | undefined {
  const bound: CountBound = { at_least: raw.at_least ?? null, at_most: raw.at_most ?? null, exactly: raw.exactly ?? null }
  if (bound.at_least === null && bound.at_most === null && bound.exactly === null) {
    errors.refuse('TRACE-SPEC-005', location, 'a bound with no side accepts every number, which is not a bound; write `at_least`, `at_most` or `exactly`')
    return undefined
  }
  if (bound.exactly !== null && (bound.at_least !== null || bound.at_most !== null)) {
    errors.refuse(
      'TRACE-SPEC-007',
      location,
      `\`exactly\` states the only acceptable value, so it cannot be combined with a floor or a ceiling; this bound says \`${describeCount(bound)}\` and silently ignores the rest`,
    )
    return undefined
  }
  if (bound.at_least !== null && bound.at_most !== null && bound.at_least > bound.at_most) {
    errors.refuse('TRACE-SPEC-007', location, `the floor is above the ceiling (${describeCount(bound)}), so no observed value can satisfy it`)
    return undefined
  }
  return bound
}

function defaultCount(raw: RawCount | null | undefined, location: string, errors: Refusals): CountBound | undefined {
  if (raw === null || raw === undefined) return { at_least: 1, at_most: null, exactly: null }
  return countOf(raw, location, errors)
}

function rangeOf(raw: RawRange, location: string, errors: Refusals): RangeBound | undefined {
  const bound: RangeBound = { at_least: raw.at_least ?? null, at_most: raw.at_most ?? null }
  if (bound.at_least === null && bound.at_most === null) {
    errors.refuse('TRACE-SPEC-005', location, 'a bound with no side accepts every value, which is not a bound; write `at_least` or `at_most`')
    return undefined
  }
  if (bound.at_least !== null && bound.at_most !== null && bound.at_least > bound.at_most) {
    errors.refuse('TRACE-SPEC-007', location, `the floor is above the ceiling (${describeRange(bound)}), so no observed value can satisfy it`)
    return undefined
  }
  return bound
}

function shareOfATotal(bound: RangeBound, location: string, errors: Refusals): boolean {
  // A refutation, so that NaN (which compares false against everything) is refused.
  const unreachableFloor = bound.at_least !== null && !(bound.at_least > 0 && bound.at_least <= 1)
  const unreachableCeiling = bound.at_most !== null && !(bound.at_most > 0 && bound.at_most < 1)
  if (unreachableFloor || unreachableCeiling) {
    errors.refuse(
      'TRACE-SPEC-005',
      location,
      `a share is one request's part of a run's own total, so it is above 0 and at most 1, and \`${describeRange(bound)}\` decides this expectation before the run is read; write a ceiling below 1 or a floor above 0 — \`at_least: 1\` is the only bound at an end, and it says one request took the whole total`,
    )
    return false
  }
  return true
}

function matcherOf(raw: RawMatcher, location: string, errors: Refusals): FieldMatcher | undefined {
  if ('regex' in raw) {
    const compiled = compilePattern(raw.regex)
    if (!compiled.ok) {
      errors.refuse(
        'TRACE-SPEC-008',
        location,
        `\`regex: ${JSON.stringify(raw.regex)}\` is not a regular expression this build can compile, so the expectation could never be evaluated. Note that a regex searches anywhere in the field, where \`glob:\` has to match the whole of it — \`*\` alone is a glob and not a pattern. The engine says: ${compiled.complaint}`,
      )
      return undefined
    }
    return { regex: raw.regex }
  }
  if ('equals' in raw) {
    const value = raw.equals
    if (typeof value === 'number' && !Number.isInteger(value)) {
      errors.refuse(
        'TRACE-SPEC-005',
        location,
        `\`equals: ${rustDisplayF64(value)}\` asks for equality against a fraction, which is the comparison design decision D6 refuses: every fractional quantity here varies run to run. Write a bound — \`{at_most: …}\` or \`{at_least: …}\` — on the kind that carries one`,
      )
      return undefined
    }
    return { equals: value }
  }
  if ('exact' in raw) return { exact: raw.exact }
  if ('contains' in raw) return { contains: raw.contains }
  return { glob: raw.glob }
}

function scopeNames(written: string[], key: string, location: string, into: Set<string>, errors: Refusals): boolean {
  let usable = true
  if (written.length === 0) {
    errors.refuse(
      'TRACE-SPEC-005',
      `${location}.${key}`,
      `an empty \`${key}:\` selects no call at all, and reads like the omission that would have selected every one. Name them, or leave the key out.`,
    )
    usable = false
  }
  for (const name of written) {
    if (blank(name)) {
      errors.refuse('TRACE-SPEC-005', `${location}.${key}`, `a blank name in \`${key}:\` matches no call, and widens nothing`)
      usable = false
    } else if (into.has(name)) {
      errors.refuse('TRACE-SPEC-005', `${location}.${key}`, `\`${name}\` is named twice in \`${key}:\`; a set that repeats a name is a set somebody edited without reading`)
      usable = false
    } else {
      into.add(name)
    }
  }
  return usable
}

function selectorOf(raw: RawSelector, location: string, errors: Refusals): CallSelector | undefined {
  let usable = true
  const tool = raw.tool ?? null
  const tools = raw.tools ?? null
  if (tool !== null && tools !== null) {
    errors.refuse(
      'TRACE-SPEC-005',
      location,
      '`tool:` and `tools:` are two spellings of one scope and this selector writes both. Use `tools: [...]` for a set and `tool: X` for one name.',
    )
    usable = false
  }
  const names = new Set<string>()
  if (tool !== null) {
    if (blank(tool)) {
      errors.refuse('TRACE-SPEC-005', `${location}.tool`, 'a blank tool name matches no call, and reads like the omission that would have matched every one')
      usable = false
    } else {
      names.add(tool)
    }
  }
  if (tools !== null) usable = scopeNames(tools, 'tools', location, names, errors) && usable
  const args: Record<string, FieldMatcher> = {}
  for (const field of sortedKeys(raw.args ?? {})) {
    if (blank(field)) {
      errors.refuse('TRACE-SPEC-005', `${location}.args`, 'an argument matcher names the argument it is about, and a blank name names none')
      usable = false
      continue
    }
    const matcher = matcherOf((raw.args ?? {})[field] as RawMatcher, `${location}.args.${field}`, errors)
    if (matcher) args[field] = matcher
    else usable = false
  }
  let subject: FieldMatcher | undefined
  if (raw.subject !== null && raw.subject !== undefined) {
    subject = matcherOf(raw.subject, `${location}.subject`, errors)
    if (!subject) usable = false
  }
  const operations = new Set<string>()
  if (raw.operations !== null && raw.operations !== undefined) usable = scopeNames(raw.operations, 'operations', location, operations, errors) && usable
  if (!usable) return undefined
  const selector: CallSelector = { tools: sortedSet(names), args }
  if (operations.size > 0) selector.operations = sortedSet(operations)
  if (subject) selector.subject = subject
  return selector
}

function resultOf(fields: Record<string, RawMatcher>, location: string, errors: Refusals): { fields: Record<string, FieldMatcher> } | undefined {
  const keys = sortedKeys(fields)
  if (keys.length === 0) {
    errors.refuse('TRACE-SPEC-005', location, 'a result matcher over no field claims nothing about a result; `tool.called` is the kind that asserts the call happened')
    return undefined
  }
  let usable = true
  const matchers: Record<string, FieldMatcher> = {}
  for (const field of keys) {
    if (blank(field)) {
      errors.refuse('TRACE-SPEC-005', location, 'a result matcher names the field it is about, and a blank name names none')
      usable = false
      continue
    }
    const matcher = matcherOf(fields[field] as RawMatcher, `${location}.${field}`, errors)
    if (matcher) matchers[field] = matcher
    else usable = false
  }
  return usable ? { fields: matchers } : undefined
}

function sameSelector(a: CallSelector, b: CallSelector): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

function canonical(selector: CallSelector): unknown {
  return { tools: selector.tools, operations: selector.operations ?? [], subject: selector.subject ?? null, args: sortedKeys(selector.args).map((key) => [key, selector.args[key]]) }
}

function toolAvailable(raw: Params<'env.tool_available'>, location: string, errors: Refusals): ExpectationKind | undefined {
  const kind = 'env.tool_available'
  const has = (value: unknown) => value !== null && value !== undefined
  if (has(raw.operations) && (has(raw.tool) || has(raw.only))) {
    errors.refuse(
      'TRACE-SPEC-005',
      atKind(location, kind),
      '`operations` is an any-of witness, like `tools`, and cannot be combined with `tool` or `only`: those make narrower claims and a row holding both reports one verdict for two',
    )
    return undefined
  }
  if (has(raw.tools) && (has(raw.tool) || has(raw.only))) {
    errors.refuse('TRACE-SPEC-005', atKind(location, kind), '`tools` is the any-of form of `tool` and cannot be combined with `tool` or `only`: one row makes one claim about the offered list')
    return undefined
  }
  let availability: ToolAvailability | undefined
  if (has(raw.tools) || has(raw.operations)) {
    if (has(raw.available)) {
      errors.refuse(
        'TRACE-SPEC-005',
        at(location, kind, 'available'),
        '`available: false` asks whether one named tool was withheld, and the any-of form names several; *none of these was offered* is a different claim and has no form here yet',
      )
      return undefined
    }
    let tools: string[] | undefined = []
    if (raw.tools) {
      tools = namesOf(raw.tools, at(location, kind, 'tools'), 'tool', 'an `env.tool_available` listing no tool under `tools` names none, so it can only report a gap', errors)
      if (!tools) return undefined
    }
    let operations: string[] | undefined = []
    if (raw.operations) {
      operations = namesOf(raw.operations, at(location, kind, 'operations'), 'operation', 'an `env.tool_available` listing no operation names none, so it can only report a gap', errors)
      if (!operations) return undefined
    }
    availability = { form: 'offered_any', tools, operations }
  } else if (has(raw.tool) && has(raw.only)) {
    errors.refuse(
      'TRACE-SPEC-005',
      atKind(location, kind),
      '`tool` and `only` are two different claims — one tool was offered, against exactly these were — and an expectation holding both reports one verdict for two',
    )
    return undefined
  } else if (raw.tool !== null && raw.tool !== undefined) {
    const tool = stated(raw.tool, at(location, kind, 'tool'), 'tool name', errors)
    if (tool === undefined) return undefined
    availability = (raw.available ?? true) ? { form: 'offered', tool } : { form: 'not_offered', tool }
  } else if (raw.only !== null && raw.only !== undefined) {
    if (has(raw.available)) {
      errors.refuse(
        'TRACE-SPEC-005',
        at(location, kind, 'available'),
        '`available` is about the one tool `tool` names; beside `only` it has no reading, because `only` already says of every tool whether it was offered',
      )
      return undefined
    }
    const tools = namesOf(
      raw.only,
      at(location, kind, 'only'),
      'tool',
      'an `env.tool_available` listing no tool under `only` is an unfinished document far more often than it is the claim that no tool at all was offered, and the two read the same',
      errors,
    )
    if (!tools) return undefined
    availability = { form: 'only', tools }
  } else {
    errors.refuse('TRACE-SPEC-005', atKind(location, kind), 'an `env.tool_available` with neither `tool` nor `only` names no tool, so it can only report a gap')
    return undefined
  }
  return { expect: kind, availability }
}

function equalsKind<N extends 'env.output_style' | 'env.model' | 'env.permission_mode' | 'env.api_key_source' | 'speed' | 'service_tier'>(
  kind: N,
  raw: { equals: string },
  noun: string,
  location: string,
  errors: Refusals,
): ExpectationKind | undefined {
  const equals = stated(raw.equals, at(location, kind, 'equals'), noun, errors)
  return equals === undefined ? undefined : ({ expect: kind, equals } as ExpectationKind)
}

function countKind(kind: KindName, raw: { count: RawCount }, location: string, errors: Refusals): ExpectationKind | undefined {
  const count = countOf(raw.count, at(location, kind, 'count'), errors)
  return count === undefined ? undefined : ({ expect: kind, count } as ExpectationKind)
}

function msKind(kind: KindName, raw: { ms: RawCount }, location: string, errors: Refusals): ExpectationKind | undefined {
  const ms = countOf(raw.ms, at(location, kind, 'ms'), errors)
  return ms === undefined ? undefined : ({ expect: kind, ms } as ExpectationKind)
}

function modelCountKind(kind: KindName, raw: { count: RawCount; model?: string | null | undefined }, location: string, errors: Refusals): ExpectationKind | undefined {
  const count = countOf(raw.count, at(location, kind, 'count'), errors)
  const model = optionallyStated(raw.model, at(location, kind, 'model'), 'model', errors)
  if (count === undefined || model === undefined) return undefined
  return { expect: kind, count, model } as ExpectationKind
}

function selectorCountKind(kind: 'tool.failed' | 'tool.repeated', raw: RawSelector & { count: RawCount }, location: string, errors: Refusals): ExpectationKind | undefined {
  const selector = selectorOf(raw, atKind(location, kind), errors)
  const count = countOf(raw.count, at(location, kind, 'count'), errors)
  if (!selector || !count) return undefined
  return { expect: kind, selector, count }
}

function stepKind(kind: 'step.gen_time' | 'step.exec_time', raw: RawSelector & { ms: RawCount }, location: string, errors: Refusals): ExpectationKind | undefined {
  const selector = selectorOf(raw, atKind(location, kind), errors)
  const ms = countOf(raw.ms, at(location, kind, 'ms'), errors)
  if (!selector || !ms) return undefined
  return { expect: kind, selector, ms }
}

function skillKind(kind: 'skill.invoked' | 'skill.completed', raw: Params<'skill.invoked'>, location: string, errors: Refusals): ExpectationKind | undefined {
  const skill = stated(raw.skill, at(location, kind, 'skill'), 'skill name', errors)
  const count = defaultCount(raw.count, at(location, kind, 'count'), errors)
  if (skill === undefined || count === undefined) return undefined
  return { expect: kind, skill, count }
}

/** Validates one kind's parameters; `undefined` when a refusal was recorded. */
function kindOf(name: KindName, params: unknown, location: string, errors: Refusals): ExpectationKind | undefined {
  switch (name) {
    case 'env.plugin_loaded': {
      const raw = params as Params<'env.plugin_loaded'>
      const plugin = stated(raw.plugin, at(location, name, 'plugin'), 'plugin name', errors)
      const version = optionallyStated(raw.version, at(location, name, 'version'), 'version', errors)
      const source = optionallyStated(raw.source, at(location, name, 'source'), 'source', errors)
      if (plugin === undefined || version === undefined || source === undefined) return undefined
      return { expect: name, plugin, version, source }
    }
    case 'env.exclusive': {
      const plugins = namesOf(
        (params as Params<'env.exclusive'>).plugins,
        at(location, name, 'plugins'),
        'plugin',
        'an `env.exclusive` listing no plugin is an unfinished document far more often than it is the claim that nothing at all was loaded, and the two read the same',
        errors,
      )
      return plugins && { expect: name, plugins }
    }
    case 'env.output_style':
      return equalsKind(name, params as { equals: string }, 'output style', location, errors)
    case 'env.skill_available': {
      const skill = stated((params as Params<'env.skill_available'>).skill, at(location, name, 'skill'), 'skill name', errors)
      return skill === undefined ? undefined : { expect: name, skill }
    }
    case 'env.agent_available': {
      const agent = stated((params as Params<'env.agent_available'>).agent, at(location, name, 'agent'), 'agent name', errors)
      return agent === undefined ? undefined : { expect: name, agent }
    }
    case 'env.tool_available':
      return toolAvailable(params as Params<'env.tool_available'>, location, errors)
    case 'env.mcp_servers':
    case 'permission.denied':
    case 'subagent.spawned':
    case 'turns':
    case 'api_requests':
    case 'events.assistant':
    case 'iterations':
    case 'tokens.thinking':
    case 'thinking.estimated':
      return countKind(name, params as { count: RawCount }, location, errors)
    case 'env.model':
      return equalsKind(name, params as { equals: string }, 'model', location, errors)
    case 'env.permission_mode':
      return equalsKind(name, params as { equals: string }, 'permission mode', location, errors)
    case 'env.api_key_source':
      return equalsKind(name, params as { equals: string }, 'credential source', location, errors)
    case 'speed':
      return equalsKind(name, params as { equals: string }, 'speed tier', location, errors)
    case 'service_tier':
      return equalsKind(name, params as { equals: string }, 'service tier', location, errors)
    case 'skill.invoked':
    case 'skill.completed':
      return skillKind(name, params as Params<'skill.invoked'>, location, errors)
    case 'tool.called': {
      const raw = params as Params<'tool.called'>
      const selector = selectorOf(raw, atKind(location, name), errors)
      const count = defaultCount(raw.count, at(location, name, 'count'), errors)
      if (!selector || !count) return undefined
      return { expect: name, selector, count }
    }
    case 'tool.absent': {
      const selector = selectorOf(params as RawSelector, atKind(location, name), errors)
      if (!selector) return undefined
      if (isUnscoped(selector)) {
        errors.refuse(
          'TRACE-SPEC-005',
          atKind(location, name),
          'a `tool.absent` with no tool and no argument matcher forbids every tool call, which is almost always a lost `tool:` line rather than the claim it makes',
        )
        return undefined
      }
      return { expect: name, selector }
    }
    case 'tool.result': {
      const raw = params as Params<'tool.result'>
      const selector = selectorOf(raw, atKind(location, name), errors)
      const result = resultOf(raw.result, at(location, name, 'result'), errors)
      if (!selector || !result) return undefined
      return { expect: name, selector, result }
    }
    case 'tool.result_bytes': {
      const raw = params as Params<'tool.result_bytes'>
      const selector = selectorOf(raw, atKind(location, name), errors)
      const bytes = countOf(raw.bytes, at(location, name, 'bytes'), errors)
      if (!selector || !bytes) return undefined
      return { expect: name, selector, bytes, per: raw.per ?? 'total' }
    }
    case 'tool.failed':
    case 'tool.repeated':
      return selectorCountKind(name, params as RawSelector & { count: RawCount }, location, errors)
    case 'tool.error_rate': {
      const raw = params as Params<'tool.error_rate'>
      const selector = selectorOf(raw, atKind(location, name), errors)
      const rate = rangeOf(raw.rate, at(location, name, 'rate'), errors)
      if (!selector || !rate) return undefined
      return { expect: name, selector, rate }
    }
    case 'order': {
      const raw = params as Params<'order'>
      const first = selectorOf(raw.first, at(location, name, 'first'), errors)
      const before = selectorOf(raw.before, at(location, name, 'before'), errors)
      if (!first || !before) return undefined
      if (sameSelector(first, before)) {
        errors.refuse(
          'TRACE-SPEC-005',
          atKind(location, name),
          `both sides select the same calls (${describeSelector(first)}), and the first occurrence of a call cannot precede itself`,
        )
        return undefined
      }
      return { expect: name, first, before }
    }
    case 'result': {
      const raw = params as Params<'result'>
      const given = (value: unknown) => value !== null && value !== undefined
      if (!given(raw.is_error) && !given(raw.subtype) && !given(raw.stop_reason) && !given(raw.terminal_reason) && !given(raw.api_error_status)) {
        errors.refuse(
          'TRACE-SPEC-005',
          atKind(location, name),
          'a `result` that states none of `is_error`, `subtype`, `stop_reason`, `terminal_reason` or `api_error_status` holds for every run that produced a terminal record, which is a green verdict about nothing',
        )
        return undefined
      }
      const subtype = optionallyStated(raw.subtype, at(location, name, 'subtype'), 'subtype', errors)
      const stopReason = optionallyStated(raw.stop_reason, at(location, name, 'stop_reason'), 'stop reason', errors)
      const terminalReason = optionallyStated(raw.terminal_reason, at(location, name, 'terminal_reason'), 'terminal reason', errors)
      let apiErrorStatus: KindOfResult['api_error_status'] | undefined = null
      const status = raw.api_error_status
      if (status === 'absent') apiErrorStatus = { api_error_status: 'absent' }
      else if (status !== null && status !== undefined) {
        const value = stated(status.equals, at(location, name, 'api_error_status.equals'), 'API error status', errors)
        apiErrorStatus = value === undefined ? undefined : { api_error_status: 'equals', value }
      }
      if (subtype === undefined || stopReason === undefined || terminalReason === undefined || apiErrorStatus === undefined) return undefined
      return { expect: name, is_error: raw.is_error ?? null, subtype, stop_reason: stopReason, terminal_reason: terminalReason, api_error_status: apiErrorStatus }
    }
    case 'text.matches': {
      const matcher = matcherOf(params as RawMatcher, atKind(location, name), errors)
      if (!matcher) return undefined
      if (matchesEveryText(matcher)) {
        errors.refuse('TRACE-SPEC-005', atKind(location, name), `every text satisfies \`${describeMatcher(matcher)}\`, so this expectation can only report \`ok\``)
        return undefined
      }
      return { expect: name, matcher }
    }
    case 'rate_limit.status': {
      const allowed = namesOf(
        (params as Params<'rate_limit.status'>).allowed,
        at(location, name, 'allowed'),
        'status',
        'an empty allowlist permits no rate-limit status at all, so every run fails it',
        errors,
      )
      return allowed && { expect: name, allowed }
    }
    case 'rate_limit.overage':
      return { expect: name, equals: (params as Params<'rate_limit.overage'>).equals }
    case 'rate_limit.utilization': {
      const utilization = rangeOf(params as RawRange, atKind(location, name), errors)
      return utilization && { expect: name, utilization }
    }
    case 'tokens.input':
    case 'tokens.output':
    case 'tokens.total':
    case 'cache.read_tokens':
    case 'cache.created_tokens':
      return modelCountKind(name, params as { count: RawCount; model?: string | null }, location, errors)
    case 'cost.total': {
      const raw = params as Params<'cost.total'>
      const usd = rangeOf({ at_least: raw.at_least_usd, at_most: raw.at_most_usd }, atKind(location, name), errors)
      const model = optionallyStated(raw.model, at(location, name, 'model'), 'model', errors)
      if (!usd || model === undefined) return undefined
      return { expect: name, usd, model }
    }
    case 'cache.used':
      return { expect: name, equals: (params as Params<'cache.used'>).equals }
    case 'cache.hit_ratio': {
      const ratio = rangeOf(params as RawRange, atKind(location, name), errors)
      return ratio && { expect: name, ratio }
    }
    case 'usage.trend': {
      const raw = params as Params<'usage.trend'>
      return { expect: name, field: raw.field, trend: raw.trend }
    }
    case 'usage.share': {
      const raw = params as Params<'usage.share'>
      const location_ = atKind(location, name)
      const share = rangeOf({ at_least: raw.at_least, at_most: raw.at_most }, location_, errors)
      if (!share || !shareOfATotal(share, location_, errors)) return undefined
      return { expect: name, field: raw.field, share }
    }
    case 'duration.total':
    case 'duration.api':
    case 'ttft':
    case 'time_to_request':
    case 'time.inference_total':
    case 'time.tool_exec_total':
      return msKind(name, params as { ms: RawCount }, location, errors)
    case 'step.gen_time':
    case 'step.exec_time':
      return stepKind(name, params as RawSelector & { ms: RawCount }, location, errors)
  }
}

type KindOfResult = Extract<ExpectationKind, { expect: 'result' }>

/** Validates a document that already has the `trace-spec/1` shape. */
export function validateDocument(document: Document): { ok: true; spec: TraceSpec } | { ok: false; refusals: TraceRefusal[] } {
  const errors = new Refusals()
  if (document.format !== SPEC_FORMAT) {
    errors.refuse('TRACE-SPEC-001', 'format', `this build reads \`${SPEC_FORMAT}\`, and the document is written in \`${document.format}\``)
  }
  if (!isDocumentId(document.id)) {
    errors.refuse(
      'TRACE-SPEC-006',
      'id',
      `\`${document.id}\` is not a specification id: lowercase letters, digits and dashes, with at most one \`/\` between a namespace and a name`,
    )
  }
  const written = document.expectations ?? []
  if (written.length === 0) {
    errors.refuse('TRACE-SPEC-004', 'expectations', 'a specification that expects nothing judges nothing, and a report with no content reads exactly like a report with no gaps')
  }
  const seen = new Map<string, number>()
  const expectations: Expectation[] = []
  written.forEach((raw, index) => {
    const location = `expectations[${index}]`
    if (!isIdentifier(raw.id)) {
      errors.refuse('TRACE-SPEC-006', `${location}.id`, `\`${raw.id}\` is not an expectation id: lowercase letters, digits and dashes`)
    }
    const first = seen.get(raw.id)
    if (first !== undefined) {
      errors.refuse('TRACE-SPEC-003', `${location}.id`, `\`${raw.id}\` is already declared at expectations[${first}], and a report names a verdict by its id`)
    }
    // Upstream's map keeps the latest index, so a third copy names the second.
    seen.set(raw.id, index)
    const [written] = Object.entries(raw.expect) as [[string, unknown]]
    const name = (KIND_ALIASES[written[0]] ?? written[0]) as KindName
    const kind = kindOf(name, written[1], location, errors)
    if (!kind) return
    expectations.push({ id: raw.id, statement: raw.statement ?? null, severity: raw.severity ?? 'gate', on_unknown: raw.on_unknown ?? 'unknown', kind })
  })
  if (errors.list.length > 0) return { ok: false, refusals: errors.list }
  const model: Omit<TraceSpec, 'digest'> = { format: SPEC_FORMAT, id: document.id, title: document.title ?? null, expectations }
  return { ok: true, spec: { ...model, digest: specDigest(model) } }
}
