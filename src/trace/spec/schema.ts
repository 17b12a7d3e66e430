import { z } from 'zod'
import { KIND_ALIASES, KIND_NAMES } from './kinds.js'

/**
 * `trace-spec/1` as written, in zod: the shape the reader accepts and the source of the shipped
 * JSON Schema. Every object is strict (unknown keys are refused, as upstream's
 * `deny_unknown_fields`); a kind is the single key of `expect:`; a matcher is the single key of
 * its object. What the shape cannot see (ids, bounds, vacuity, regex syntax) is `validate.ts`'s.
 */

/** Descriptions and `$defs` names for the JSON Schema, kept off zod's global registry. */
export const traceSpecSchemaRegistry = z.registry<{ id?: string; title?: string; description?: string }>()

const u64 = () => z.number().int().min(0)
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional()
const names = () => z.array(z.string())

export const countBoundSchema = z
  .strictObject({ at_least: optional(u64()), at_most: optional(u64()), exactly: optional(u64()) })
  .register(traceSpecSchemaRegistry, { id: 'CountBound', description: 'A bound over a whole number: at_least, at_most, or exactly (never beside the others). Never a bare number.' })

export const rangeBoundSchema = z
  .strictObject({ at_least: optional(z.number()), at_most: optional(z.number()) })
  .register(traceSpecSchemaRegistry, { id: 'RangeBound', description: 'A bound over a fraction: at_least and/or at_most. No exactly.' })

/** The variants of each externally tagged union, so a refusal can name them. */
export const MATCHER_NAMES = ['exact', 'contains', 'glob', 'equals', 'regex'] as const

export const matcherSchema = z
  .union([
    z.strictObject({ exact: z.string() }).register(traceSpecSchemaRegistry, { description: 'The whole field, character for character.' }),
    z.strictObject({ contains: z.string() }).register(traceSpecSchemaRegistry, { description: 'A substring of the field.' }),
    z.strictObject({ glob: z.string() }).register(traceSpecSchemaRegistry, { description: 'Anchored at both ends: * any run, ? one character, everything else literal.' }),
    z.strictObject({ equals: z.union([z.boolean(), z.number(), z.string()]) }).register(traceSpecSchemaRegistry, { description: 'Typed equality with a boolean, an integer or a string (false never matches "false").' }),
    z.strictObject({ regex: z.string() }).register(traceSpecSchemaRegistry, { description: 'An RE2 pattern searched anywhere in the field (anchor with ^ and $).' }),
  ])
  .register(traceSpecSchemaRegistry, { id: 'FieldMatcher', description: 'How one named field is compared: exactly one of exact, contains, glob, equals, regex.' })

const selectorShape = {
  tool: optional(z.string()).register(traceSpecSchemaRegistry, { description: 'One tool name. Never beside tools.' }),
  tools: optional(names()).register(traceSpecSchemaRegistry, { description: 'Tool names, any of which is in scope (a union with operations).' }),
  operations: optional(names()).register(traceSpecSchemaRegistry, { description: 'Neutral operations (file.write, shell…), any of which is in scope. An operation is what the tool is: a shell line that writes a file is a shell call, not a file.write.' }),
  subject: optional(matcherSchema).register(traceSpecSchemaRegistry, { description: 'Matched against each scheme-prefixed subject (file:<path>, proc:<program>); any may hold.' }),
  args: z.record(z.string(), matcherSchema).optional().register(traceSpecSchemaRegistry, { description: 'Matchers over named arguments, all of which must hold.' }),
}

export const selectorSchema = z.strictObject(selectorShape).register(traceSpecSchemaRegistry, { id: 'CallSelector', description: 'Which tool calls: tools ∪ operations, then subject, then every args matcher.' })

const count = { count: countBoundSchema }
const ms = { ms: countBoundSchema }
const equalsText = { equals: z.string() }
const modelCount = { count: countBoundSchema, model: optional(z.string()) }
const usageField = z.enum(['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'])

/** Each kind's parameters, keyed by the kind's name. */
export const kindParamSchemas = {
  'env.plugin_loaded': z.strictObject({ plugin: z.string(), version: optional(z.string()), source: optional(z.string()) }),
  'env.exclusive': z.strictObject({ plugins: names() }),
  'env.output_style': z.strictObject(equalsText),
  'env.skill_available': z.strictObject({ skill: z.string() }),
  'env.agent_available': z.strictObject({ agent: z.string() }),
  'env.tool_available': z.strictObject({
    tool: optional(z.string()),
    tools: optional(names()),
    operations: optional(names()),
    available: optional(z.boolean()),
    only: optional(names()),
  }),
  'env.mcp_servers': z.strictObject(count),
  'env.model': z.strictObject(equalsText),
  'env.permission_mode': z.strictObject(equalsText),
  'env.api_key_source': z.strictObject(equalsText),
  'skill.invoked': z.strictObject({ skill: z.string(), count: optional(countBoundSchema) }),
  'skill.completed': z.strictObject({ skill: z.string(), count: optional(countBoundSchema) }),
  'tool.called': z.strictObject({ ...selectorShape, count: optional(countBoundSchema) }),
  'tool.absent': z.strictObject(selectorShape),
  'tool.result': z.strictObject({ ...selectorShape, result: z.record(z.string(), matcherSchema) }),
  'tool.result_bytes': z.strictObject({ ...selectorShape, bytes: countBoundSchema, per: z.enum(['total', 'each']).optional() }),
  'tool.failed': z.strictObject({ ...selectorShape, ...count }),
  'tool.error_rate': z.strictObject({ ...selectorShape, rate: rangeBoundSchema }),
  'tool.repeated': z.strictObject({ ...selectorShape, ...count }),
  order: z.strictObject({ first: selectorSchema, before: selectorSchema }),
  result: z.strictObject({
    is_error: optional(z.boolean()),
    subtype: optional(z.string()),
    stop_reason: optional(z.string()),
    terminal_reason: optional(z.string()),
    api_error_status: optional(z.union([z.literal('absent'), z.strictObject({ equals: z.string() })])),
  }),
  'permission.denied': z.strictObject(count),
  'subagent.spawned': z.strictObject(count),
  'text.matches': matcherSchema,
  'rate_limit.status': z.strictObject({ allowed: names() }),
  'rate_limit.overage': z.strictObject({ equals: z.boolean() }),
  'rate_limit.utilization': rangeBoundSchema,
  turns: z.strictObject(count),
  api_requests: z.strictObject(count),
  'events.assistant': z.strictObject(count),
  iterations: z.strictObject(count),
  'tokens.input': z.strictObject(modelCount),
  'tokens.output': z.strictObject(modelCount),
  'tokens.total': z.strictObject(modelCount),
  'tokens.thinking': z.strictObject(count),
  'thinking.estimated': z.strictObject(count),
  'cost.total': z.strictObject({ at_least_usd: optional(z.number()), at_most_usd: optional(z.number()), model: optional(z.string()) }),
  'cache.used': z.strictObject({ equals: z.boolean() }),
  'cache.read_tokens': z.strictObject(modelCount),
  'cache.created_tokens': z.strictObject(modelCount),
  'cache.hit_ratio': rangeBoundSchema,
  'usage.trend': z.strictObject({ field: usageField, trend: z.enum(['non_decreasing', 'non_increasing']) }),
  'usage.share': z.strictObject({ field: usageField, at_least: optional(z.number()), at_most: optional(z.number()) }),
  'duration.total': z.strictObject(ms),
  'duration.api': z.strictObject(ms),
  ttft: z.strictObject(ms),
  time_to_request: z.strictObject(ms),
  'step.gen_time': z.strictObject({ ...selectorShape, ...ms }),
  'step.exec_time': z.strictObject({ ...selectorShape, ...ms }),
  'time.inference_total': z.strictObject(ms),
  'time.tool_exec_total': z.strictObject(ms),
  speed: z.strictObject(equalsText),
  service_tier: z.strictObject(equalsText),
} as const satisfies Record<(typeof KIND_NAMES)[number], z.ZodType>

export type KindParamSchemas = typeof kindParamSchemas

/** Every spelling `expect:` accepts: the canonical names, then the aliases. */
export const EXPECT_VARIANTS: readonly string[] = [...KIND_NAMES, ...Object.keys(KIND_ALIASES)]

function expectVariant<N extends keyof KindParamSchemas>(name: N, schema: z.ZodType = kindParamSchemas[name]) {
  return z.strictObject({ [name]: schema } as { [K in N]: KindParamSchemas[N] })
}

type ExpectVariants = { [N in keyof KindParamSchemas]: ReturnType<typeof expectVariant<N>> }[keyof KindParamSchemas]

const expectVariants: ExpectVariants[] = KIND_NAMES.map((name) => expectVariant(name)) as ExpectVariants[]

export const expectSchema = z
  .union([
    ...expectVariants,
    z.strictObject({ 'skill.available': kindParamSchemas['env.skill_available'] }).register(traceSpecSchemaRegistry, { description: 'Alias of env.skill_available.' }),
  ] as unknown as [ExpectVariants, ...ExpectVariants[]])
  .register(traceSpecSchemaRegistry, { description: 'What the expectation claims: exactly one key, the kind name, holding its parameters.' })

export const expectationSchema = z.strictObject({
  id: z.string().register(traceSpecSchemaRegistry, { description: 'Lowercase letters, digits and dashes; unique in the document.' }),
  statement: optional(z.string()).register(traceSpecSchemaRegistry, { description: 'The author’s sentence, copied into the report.' }),
  severity: z.enum(['gate', 'advisory']).optional().register(traceSpecSchemaRegistry, { description: 'gate (default) moves the exit code; advisory is reported and never gates.' }),
  on_unknown: z.enum(['unknown', 'gap']).optional().register(traceSpecSchemaRegistry, { description: 'unknown (default), or gap: a row the transcript cannot decide is a gap.' }),
  expect: expectSchema,
})

/** A `trace-spec/1` document as written. */
export const traceSpecDocumentSchema = z
  .strictObject({
    format: z.string().register(traceSpecSchemaRegistry, { description: 'Exactly trace-spec/1.' }),
    id: z.string().register(traceSpecSchemaRegistry, { description: 'Lowercase letters, digits and dashes, with at most one / between a namespace and a name.' }),
    title: optional(z.string()),
    expectations: z.array(expectationSchema).optional().register(traceSpecSchemaRegistry, { description: 'Non-empty; document order is report order.' }),
  })
  .register(traceSpecSchemaRegistry, { title: 'trace-spec/1', description: 'What an agent run must have looked like, checked against its transcript with three-valued verdicts.' })

/** A document as an author writes it (input types: optional keys may be left out). */
export type TraceSpecDocument = z.input<typeof traceSpecDocumentSchema>
/** One expectation as written. */
export type ExpectationDocument = z.input<typeof expectationSchema>
/** The `expect:` object of one expectation: one kind name, holding its parameters. */
export type ExpectDocument = z.input<typeof expectSchema>
