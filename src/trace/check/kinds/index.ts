import type { ExpectationKind } from '../../spec/model.js'
import type { Accumulator } from '../accumulator.js'
import { order, skillInvoked, toolAbsent, toolCalled, toolRepeated } from './calls.js'
import { envAccumulator } from './env.js'
import { apiRequests, eventsAssistant, usageShare, usageTrend } from './requests.js'
import { skillCompleted, toolErrorRate, toolFailed, toolResult, toolResultBytes } from './results.js'
import {
  cacheHitRatio,
  cacheUsed,
  costTotal,
  outcomeCount,
  outcomeTotal,
  rateLimit,
  runResult,
  textMatches,
  thinkingEstimated,
  tokens,
  usageCount,
  usageText,
} from './run.js'
import { stepTime, stepTotal } from './time.js'

/** The one exhaustive dispatch: a kind added to the model and not decided here fails to compile. */
export function accumulatorFor(kind: ExpectationKind): Accumulator {
  switch (kind.expect) {
    case 'env.plugin_loaded':
    case 'env.exclusive':
    case 'env.output_style':
    case 'env.skill_available':
    case 'env.agent_available':
    case 'env.tool_available':
    case 'env.mcp_servers':
    case 'env.model':
    case 'env.permission_mode':
    case 'env.api_key_source':
      return envAccumulator(kind)
    case 'skill.invoked':
      return skillInvoked(kind.skill, kind.count)
    case 'skill.completed':
      return skillCompleted(kind.skill, kind.count)
    case 'tool.called':
      return toolCalled(kind.selector, kind.count)
    case 'tool.absent':
      return toolAbsent(kind.selector)
    case 'tool.result':
      return toolResult(kind.selector, kind.result.fields)
    case 'tool.result_bytes':
      return toolResultBytes(kind.selector, kind.bytes, kind.per)
    case 'tool.failed':
      return toolFailed(kind.selector, kind.count)
    case 'tool.error_rate':
      return toolErrorRate(kind.selector, kind.rate)
    case 'tool.repeated':
      return toolRepeated(kind.selector, kind.count)
    case 'order':
      return order(kind.first, kind.before)
    case 'result':
      return runResult(kind)
    case 'permission.denied':
      return outcomeTotal('permission_denials', kind.count, (run) => run.permissionDenials)
    case 'subagent.spawned':
      return outcomeCount('subagents_spawned', kind.count, (run) => run.subagentsSpawned)
    case 'text.matches':
      return textMatches(kind.matcher)
    case 'rate_limit.status':
    case 'rate_limit.overage':
    case 'rate_limit.utilization':
      return rateLimit(kind)
    case 'turns':
      return outcomeCount('num_turns', kind.count, (run) => run.numTurns)
    case 'api_requests':
      return apiRequests(kind.count)
    case 'events.assistant':
      return eventsAssistant(kind.count)
    case 'iterations':
      return usageCount('usage.iterations', kind.count, (usage) => usage.iterations)
    case 'tokens.input':
      return tokens('input_tokens', kind.count, kind.model, 'input')
    case 'tokens.output':
      return tokens('output_tokens', kind.count, kind.model, 'output')
    case 'tokens.total':
      return tokens('input_tokens + output_tokens', kind.count, kind.model, 'total')
    case 'tokens.thinking':
      return usageCount('usage.thinking_tokens', kind.count, (usage) => usage.thinkingTokens)
    case 'thinking.estimated':
      return thinkingEstimated(kind.count)
    case 'cost.total':
      return costTotal(kind.usd, kind.model)
    case 'cache.used':
      return cacheUsed(kind.equals)
    case 'cache.read_tokens':
      return tokens('cache_read_input_tokens', kind.count, kind.model, 'cache_read')
    case 'cache.created_tokens':
      return tokens('cache_creation_input_tokens', kind.count, kind.model, 'cache_created')
    case 'cache.hit_ratio':
      return cacheHitRatio(kind.ratio)
    case 'usage.trend':
      return usageTrend(kind.field, kind.trend)
    case 'usage.share':
      return usageShare(kind.field, kind.share)
    case 'duration.total':
      return outcomeCount('duration_ms', kind.ms, (run) => run.durationMs)
    case 'duration.api':
      return outcomeTotal('duration_api_ms', kind.ms, (run) => run.durationApiMs)
    case 'ttft':
      return outcomeCount('ttft_ms', kind.ms, (run) => run.ttftMs)
    case 'time_to_request':
      return outcomeCount('time_to_request_ms', kind.ms, (run) => run.timeToRequestMs)
    case 'step.gen_time':
      return stepTime(kind.selector, kind.ms, 'gen')
    case 'step.exec_time':
      return stepTime(kind.selector, kind.ms, 'exec')
    case 'time.inference_total':
      return stepTotal(kind.ms, 'gen')
    case 'time.tool_exec_total':
      return stepTotal(kind.ms, 'exec')
    case 'speed':
      return usageText('usage.speed', kind.equals, (usage) => usage.speed)
    case 'service_tier':
      return usageText('usage.service_tier', kind.equals, (usage) => usage.serviceTier)
  }
}
