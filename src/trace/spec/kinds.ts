import type { KindName } from './model.js'

/** The fifty-three expectation kinds, sorted, as upstream publishes them (`ExpectationKind::NAMES`). */
export const KIND_NAMES = [
  'api_requests',
  'cache.created_tokens',
  'cache.hit_ratio',
  'cache.read_tokens',
  'cache.used',
  'cost.total',
  'duration.api',
  'duration.total',
  'env.agent_available',
  'env.api_key_source',
  'env.exclusive',
  'env.mcp_servers',
  'env.model',
  'env.output_style',
  'env.permission_mode',
  'env.plugin_loaded',
  'env.skill_available',
  'env.tool_available',
  'events.assistant',
  'iterations',
  'order',
  'permission.denied',
  'rate_limit.overage',
  'rate_limit.status',
  'rate_limit.utilization',
  'result',
  'service_tier',
  'skill.completed',
  'skill.invoked',
  'speed',
  'step.exec_time',
  'step.gen_time',
  'subagent.spawned',
  'text.matches',
  'thinking.estimated',
  'time.inference_total',
  'time.tool_exec_total',
  'time_to_request',
  'tokens.input',
  'tokens.output',
  'tokens.thinking',
  'tokens.total',
  'tool.absent',
  'tool.called',
  'tool.error_rate',
  'tool.failed',
  'tool.repeated',
  'tool.result',
  'tool.result_bytes',
  'ttft',
  'turns',
  'usage.share',
  'usage.trend',
] as const satisfies readonly KindName[]

/** Spellings accepted on input only; a report prints the canonical name. */
export const KIND_ALIASES: Readonly<Record<string, KindName>> = {
  'skill.available': 'env.skill_available',
}

// A kind declared in the model and missing from the published list fails to compile here.
type AssertNever<T extends never> = T
export type _EveryKindIsPublished = AssertNever<Exclude<KindName, (typeof KIND_NAMES)[number]>>
