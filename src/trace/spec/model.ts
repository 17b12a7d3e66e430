/**
 * The validated `trace-spec/1` model. Its shape is upstream's serialized `TraceSpec` (field names,
 * tags, `null` for an absent option), because the specification digest is the sha256 of exactly
 * this value as key-sorted compact JSON: one shape serves the checker and the digest.
 */

export const SPEC_FORMAT = 'trace-spec/1'

/** A bound over a whole number. At least one side is set; `exactly` never beside the others. */
export interface CountBound {
  at_least: number | null
  at_most: number | null
  exactly: number | null
}

/** A bound over a fraction (money, a ratio, a utilization). No `exactly`, by design. */
export interface RangeBound {
  at_least: number | null
  at_most: number | null
}

/** How one named field is compared. Exactly one key. */
export type FieldMatcher =
  | { exact: string }
  | { contains: string }
  | { glob: string }
  | { regex: string }
  | { equals: boolean | number | string }

/** Which tool calls an expectation is about: `tools` ∪ `operations`, then `subject`, then every `args`. */
export interface CallSelector {
  /** Sorted, unique. Empty selects every tool (unless `operations` names some). */
  tools: string[]
  /** Sorted, unique; omitted from the model when empty (upstream skips it, so digests stay put). */
  operations?: string[]
  /** Holds when any of the call's scheme-prefixed subjects matches; omitted when absent. */
  subject?: FieldMatcher
  /** Every named argument must be present and match. */
  args: Record<string, FieldMatcher>
}

export type Severity = 'gate' | 'advisory'
export type OnUnknown = 'unknown' | 'gap'
export type Aggregate = 'total' | 'each'
export type UsageField = 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'
export type Trend = 'non_decreasing' | 'non_increasing'

export type ApiErrorStatus = { api_error_status: 'absent' } | { api_error_status: 'equals'; value: string }

export type ToolAvailability =
  | { form: 'offered'; tool: string }
  | { form: 'not_offered'; tool: string }
  | { form: 'offered_any'; tools: string[]; operations: string[] }
  | { form: 'only'; tools: string[] }

type Count = { count: CountBound }
type Ms = { ms: CountBound }
type Equals = { equals: string }
type ModelCount = { count: CountBound; model: string | null }

/** One expectation kind, tagged by `expect` with upstream's dotted name. */
export type ExpectationKind =
  | { expect: 'env.plugin_loaded'; plugin: string; version: string | null; source: string | null }
  | { expect: 'env.exclusive'; plugins: string[] }
  | ({ expect: 'env.output_style' } & Equals)
  | { expect: 'env.skill_available'; skill: string }
  | { expect: 'env.agent_available'; agent: string }
  | { expect: 'env.tool_available'; availability: ToolAvailability }
  | ({ expect: 'env.mcp_servers' } & Count)
  | ({ expect: 'env.model' } & Equals)
  | ({ expect: 'env.permission_mode' } & Equals)
  | ({ expect: 'env.api_key_source' } & Equals)
  | { expect: 'skill.invoked'; skill: string; count: CountBound }
  | { expect: 'skill.completed'; skill: string; count: CountBound }
  | { expect: 'tool.called'; selector: CallSelector; count: CountBound }
  | { expect: 'tool.absent'; selector: CallSelector }
  | { expect: 'tool.result'; selector: CallSelector; result: { fields: Record<string, FieldMatcher> } }
  | { expect: 'tool.result_bytes'; selector: CallSelector; bytes: CountBound; per: Aggregate }
  | { expect: 'tool.failed'; selector: CallSelector; count: CountBound }
  | { expect: 'tool.error_rate'; selector: CallSelector; rate: RangeBound }
  | { expect: 'tool.repeated'; selector: CallSelector; count: CountBound }
  | { expect: 'order'; first: CallSelector; before: CallSelector }
  | {
      expect: 'result'
      is_error: boolean | null
      subtype: string | null
      stop_reason: string | null
      terminal_reason: string | null
      api_error_status: ApiErrorStatus | null
    }
  | ({ expect: 'permission.denied' } & Count)
  | ({ expect: 'subagent.spawned' } & Count)
  | { expect: 'text.matches'; matcher: FieldMatcher }
  | { expect: 'rate_limit.status'; allowed: string[] }
  | { expect: 'rate_limit.overage'; equals: boolean }
  | { expect: 'rate_limit.utilization'; utilization: RangeBound }
  | ({ expect: 'turns' } & Count)
  | ({ expect: 'api_requests' } & Count)
  | ({ expect: 'events.assistant' } & Count)
  | ({ expect: 'iterations' } & Count)
  | ({ expect: 'tokens.input' } & ModelCount)
  | ({ expect: 'tokens.output' } & ModelCount)
  | ({ expect: 'tokens.total' } & ModelCount)
  | ({ expect: 'tokens.thinking' } & Count)
  | ({ expect: 'thinking.estimated' } & Count)
  | { expect: 'cost.total'; usd: RangeBound; model: string | null }
  | { expect: 'cache.used'; equals: boolean }
  | ({ expect: 'cache.read_tokens' } & ModelCount)
  | ({ expect: 'cache.created_tokens' } & ModelCount)
  | { expect: 'cache.hit_ratio'; ratio: RangeBound }
  | { expect: 'usage.trend'; field: UsageField; trend: Trend }
  | { expect: 'usage.share'; field: UsageField; share: RangeBound }
  | ({ expect: 'duration.total' } & Ms)
  | ({ expect: 'duration.api' } & Ms)
  | ({ expect: 'ttft' } & Ms)
  | ({ expect: 'time_to_request' } & Ms)
  | { expect: 'step.gen_time'; selector: CallSelector; ms: CountBound }
  | { expect: 'step.exec_time'; selector: CallSelector; ms: CountBound }
  | ({ expect: 'time.inference_total' } & Ms)
  | ({ expect: 'time.tool_exec_total' } & Ms)
  | ({ expect: 'speed' } & Equals)
  | ({ expect: 'service_tier' } & Equals)

export type KindName = ExpectationKind['expect']

/** The kind whose `expect` tag is `N`. */
export type KindOf<N extends KindName> = Extract<ExpectationKind, { expect: N }>

export interface Expectation {
  id: string
  statement: string | null
  severity: Severity
  on_unknown: OnUnknown
  kind: ExpectationKind
}

/** A validated specification. Build one with `readSpec`, `readSpecFile` or `spec()`; never by hand. */
export interface TraceSpec {
  format: typeof SPEC_FORMAT
  id: string
  title: string | null
  expectations: Expectation[]
  /** sha256 of the key-sorted compact JSON of the document as authored (without this field). */
  digest: string
}
