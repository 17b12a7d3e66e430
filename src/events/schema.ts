import { z } from 'zod'

/**
 * `metaharness.event/1` payloads as zod schemas. The shape order of every object is the field
 * order upstream serializes, so the writer walks these schemas to print exact bytes: one
 * declaration serves the reader, the writer and the TypeScript types.
 */

const floatSchemas = new WeakSet<z.ZodType>()

/** An `f64` upstream prints the Rust way (`0.0`, never `0`). */
function f64(): z.ZodNumber {
  const schema = z.number()
  floatSchemas.add(schema)
  return schema
}

export function isFloatSchema(schema: z.ZodType): boolean {
  return floatSchemas.has(schema)
}

/** An upstream `Option<T>`: absent reads as `null`, and `null` is written explicitly. */
function option<T extends z.ZodType>(schema: T) {
  return schema.nullable().default(null)
}

const u64 = () => z.number().int().nonnegative()
const i64 = () => z.number().int()
const str = () => z.string()
/** Any JSON value, carried verbatim (serde_json `Value`). */
const value = () => z.unknown()

export const digestSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a digest is 64 lowercase hex characters')

export const seamSchema = z.enum(['registration', 'hook', 'control_request', 'owned_tool', 'none'])
export const decidedBySchema = z.enum(['embedder', 'frame', 'deadline', 'adapter', 'observe'])
export const closeReasonSchema = z.enum(['completed', 'budget', 'killed', 'error', 'steer-halt'])
export const hermeticModeSchema = z.enum(['off', 'on', 'strict'])
export const decisionModeSchema = z.enum(['frame', 'ask', 'observe'])

export const usageSchema = z.object({
  input_tokens: option(u64()),
  output_tokens: option(u64()),
  cache_read_input_tokens: option(u64()),
  cache_creation_input_tokens: option(u64()),
  service_tier: option(str()),
  thinking_tokens: option(u64()),
  iterations: option(u64()),
  speed: option(str()),
  cost_usd: option(f64()),
})

export const censusSchema = z.object({
  allowed: u64(),
  denied: u64(),
  replaced: u64(),
  abstained: u64(),
  by_seam: z.record(z.string(), u64()),
  by_decider: z.record(z.string(), u64()),
})

export const transcriptRefSchema = z.object({
  path: option(str()),
  digest: option(str()),
  bytes: option(u64()),
})

/**
 * metaharness's own claim about the launch. Lenient by design: streams in the wild omit rows
 * (`unavailable`, `ambient_inputs`) and add the stream attestation (`stream_complete`).
 */
export const hermeticSchema = z.object({
  mode: option(str()),
  decisions: option(str()),
  imposed: z.array(value()).optional(),
  unavailable: z.array(value()).optional(),
  ambient_inputs: z.array(value()).optional(),
  installed_plugins: z.array(value()).optional(),
  stream_complete: z.boolean().optional(),
  stream_events: u64().optional(),
  stream_reason: str().optional(),
})

export const stepRefSchema = z.object({
  workflow: str(),
  state: str(),
  index: u64(),
  attempt: u64(),
})

export const stepOutcomeSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('completed') }),
  z.object({ outcome: z.literal('failed'), reason: str() }),
  z.object({ outcome: z.literal('no_verdict'), reason: str() }),
])

export const decisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('allow') }),
  z.object({ decision: z.literal('abstain') }),
  z.object({ decision: z.literal('deny'), reason: str() }),
  z.object({ decision: z.literal('replace'), input: value() }),
])

export const commandOutcomeSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('ok'), applies_at: option(str()) }),
  z.object({ result: z.literal('refused'), refused: z.object({ code: str(), reason: str() }) }),
])

export const rateLimitInfoSchema = z.object({
  status: option(str()),
  window: option(str()),
  resets_at: option(i64()),
  utilization: option(f64()),
  using_overage: option(z.boolean()),
})

const stringList = () => option(z.array(str()))

/** Every payload, keyed by event name; shape order is serialization order. */
export const payloadSchemas = {
  'session.started': z.object({
    adapter: str(),
    adapter_class: str(),
    harness_version: option(str()),
    session_id: option(str()),
    model: option(str()),
    permission_mode: option(str()),
    credential_source: option(str()),
    output_style: option(str()),
    cwd: option(str()),
    offered_tools: stringList(),
    /** Skipped when `null`. */
    available_operations: stringList(),
    withheld: option(z.array(z.object({ tool: str(), reason: str() }))),
    slash_commands: stringList(),
    skills: stringList(),
    agents: stringList(),
    plugins: option(
      z.array(z.object({ name: option(str()), source: option(str()), version: option(str()) })),
    ),
    mcp_servers: option(z.array(z.object({ name: option(str()), status: option(str()) }))),
    inputs_digest: option(str()),
    transcript: transcriptRefSchema,
    hermetic: hermeticSchema,
  }),
  'session.ended': z.object({
    final_answer: option(str()),
    observed_models: stringList(),
    is_error: option(z.boolean()),
    subtype: option(str()),
    stop_reason: option(str()),
    terminal_reason: option(str()),
    api_error_status: option(str()),
    num_turns: option(u64()),
    duration_ms: option(u64()),
    duration_api_ms: option(u64()),
    ttft_ms: option(u64()),
    time_to_request_ms: option(u64()),
    total_cost_usd: option(f64()),
    permission_denials: option(
      z.array(
        z.object({ tool_name: option(str()), tool_use_id: option(str()), tool_input: option(value()) }),
      ),
    ),
    subagents_spawned: option(u64()),
    usage: option(usageSchema),
    model_usage: option(z.record(z.string(), usageSchema)),
    census: censusSchema,
  }),
  'step.entered': z.object({ step: stepRefSchema, frame_digest: option(str()) }),
  'step.left': z.object({ step: stepRefSchema, outcome: stepOutcomeSchema }),
  'turn.started': z.object({ turn: u64(), frame_digest: option(str()) }),
  'turn.ended': z.object({ turn: u64(), stop_reason: option(str()) }),
  /** `parent_call_id` (ours, skipped when absent): the call that started the subagent whose words these are. */
  text: z.object({ text: str(), request_id: option(str()), parent_call_id: str().optional() }),
  thinking: z.object({ text: str(), request_id: option(str()) }),
  'thinking.estimate': z.object({ estimate: u64(), delta: option(i64()) }),
  injection: z.object({ text: str(), origin: option(str()) }),
  'tool.requested': z.object({
    call_id: str(),
    name: str(),
    input: value(),
    /** Skipped when empty. */
    operations: z.array(str()).default([]),
    /** Skipped when empty. */
    subjects: z.array(str()).default([]),
    decision_required: z.boolean(),
    deadline_ms: option(u64()),
    seam: seamSchema,
  }),
  'tool.decided': z.object({
    call_id: str(),
    decision: decisionSchema,
    decided_by: decidedBySchema,
    seam: seamSchema,
    latency_ms: option(u64()),
  }),
  'tool.result': z.object({
    exit_code: option(i64()),
    outcome_source: option(str()),
    call_id: str(),
    is_error: option(z.boolean()),
    content: option(value()),
    bytes: option(u64()),
    tool_use_result: option(value()),
  }),
  usage: z.object({ request_id: option(str()), model: option(str()), usage: usageSchema }),
  rate_limit: z.object({ info: rateLimitInfoSchema }),
  'command.result': z.object({ id: str(), outcome: commandOutcomeSchema }),
  /** `call_id` (ours, skipped when absent): the call a refusal warning is about, where the harness's record says which. */
  warning: z.object({ code: str(), message: str(), call_id: str().optional() }),
  opaque: z.object({
    vendor_type: option(str()),
    vendor_subtype: option(str()),
    digest: digestSchema,
    source_line: option(u64()),
  }),
  'auth.expired': z.object({
    credential_source: option(str()),
    detail: option(str()),
    source_line: option(u64()),
  }),
  'stream.closed': z.object({
    events: u64(),
    reason: closeReasonSchema,
    run_id: option(str()),
  }),
} as const

export type PayloadSchemas = typeof payloadSchemas
