import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, asF64, asI64, asObject, asString, asU64, isObject, type JsonObject } from '../shared/fields.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { opaqueValue } from '../shared/opaque.js'
import { CallClassifier, sessionEnded, sessionStart, textContent, timed, toolResult } from '../shared/session.js'
import { TypedSessions } from '../shared/typed-sessions.js'
import { subagentCallsUnseenWarning } from '../../src/events/subagent-calls-unseen.js'
import { argumentsObject } from '../shared/arguments.js'
import { DriftWatch, type RecordVocabulary } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { ATIF_VOCABULARY, TERMINUS_RECORD_VOCABULARY } from './atif-vocabulary.js'
import { messageActionId, messageActionsOf } from './message-actions.js'
import { OPENCLAW_TYPING } from './openclaw-sessions.js'
import { OPENCLAW_TOOL_OPERATIONS, toolTableOfAgent } from './operations.js'
import { externalSubagentRefs } from './subagent-refs.js'

export { ATIF_TOOL_OPERATIONS } from './operations.js'

export const ATIF_ADAPTER_ID = 'atif'
export const TERMINUS_ADAPTER_ID = 'terminus'

/**
 * The ATIF versions read: any `ATIF-v1.<minor>`. The vocabulary was written against v1.0–v1.7
 * (the RFC's history); a later minor is read as v1.7 is, with the drift warning naming it. A
 * new major is refused: the RFC promises nothing across one.
 */
const ACCEPTED_VERSION = /^ATIF-v1\.\d+$/

type Usage = Extract<Emission, { event: 'usage' }>['usage']

/**
 * ATIF's token figures as `metaharness.event/1` counts them: the RFC's `prompt_tokens` includes the
 * cached part, `input_tokens` does not. `cacheApart`: the producer left the cached part out of
 * `prompt_tokens` (see `promptLeavesCacheOut`), which is then the uncached input as it stands.
 */
function atifUsage(prompt: unknown, completion: unknown, cached: unknown, cost: unknown, cacheApart: boolean, extra?: JsonObject): Usage {
  const promptTokens = asU64(prompt)
  const cachedTokens = asU64(cached)
  return {
    input_tokens: promptTokens === undefined ? null : cacheApart ? promptTokens : promptTokens - Math.min(promptTokens, cachedTokens ?? 0),
    output_tokens: asU64(completion) ?? null,
    cache_read_input_tokens: cachedTokens ?? null,
    cache_creation_input_tokens: null,
    service_tier: null,
    thinking_tokens: extra ? (asU64(extra['reasoning_tokens']) ?? null) : null,
    iterations: null,
    speed: null,
    cost_usd: asF64(cost) ?? null,
  }
}

/**
 * Agents whose converter writes `prompt_tokens` without the cached part, against the RFC: Harbor's
 * OpenClaw converter puts OpenClaw's (pi's) `usage.input`, which leaves the cache reads out, there,
 * and `cacheRead` in `cached_tokens`. Read by the RFC, a run's input was the prompt less the cache
 * reads, 0 on every OpenClaw run in the corpus, and "input tokens at most N" held over any spend.
 */
const PROMPT_LEAVES_CACHE_OUT: ReadonlySet<string> = new Set(['openclaw'])

/**
 * Whether a trajectory's `prompt_tokens` leave the cached part out: its agent's converter is known
 * to (`PROMPT_LEAVES_CACHE_OUT`), or one of its figures counts more cached tokens than prompt
 * tokens, which a count that includes them never does.
 */
function promptLeavesCacheOut(agent: string | undefined, steps: readonly unknown[], totals: JsonObject | undefined): boolean {
  if (agent !== undefined && PROMPT_LEAVES_CACHE_OUT.has(agent)) return true
  const smaller = (prompt: unknown, cached: unknown) => {
    const promptTokens = asU64(prompt)
    const cachedTokens = asU64(cached)
    return promptTokens !== undefined && cachedTokens !== undefined && cachedTokens > promptTokens
  }
  if (totals && smaller(totals['total_prompt_tokens'], totals['total_cached_tokens'])) return true
  return steps.some((step) => {
    const metrics = asObject(asObject(step)?.['metrics'])
    return metrics !== undefined && smaller(metrics['prompt_tokens'], metrics['cached_tokens'])
  })
}

/** The agent a list of steps belongs to: its model, and the table its tool names are classified by. */
interface AgentContext {
  readonly model: string | null
  readonly classifier: CallClassifier
  /** The agent's name, which says whether its actions may be written in the message (see message-actions.ts). */
  readonly agent: string | undefined
  /** Where the steps sit in the document (`steps`, or an embedded subagent's), for line numbers. */
  readonly stepsKey: string
  /** The call ids this trajectory's steps have made so far. */
  readonly called: Set<string>
  /** OpenClaw's: the sessions its `exec` calls left running, so a `process` call can be read for what it typed. */
  readonly sessions: TypedSessions | undefined
  /** Whether its `prompt_tokens` leave the cached part out (`promptLeavesCacheOut`). */
  readonly cacheApart: boolean
}

/**
 * The call an agent step with no calls of its own answers, when its `extra.tool_call_id` names one
 * an earlier step made: Harbor's OpenClaw converter writes each tool result as such a step (the
 * output in `message` and in an `observation` result without `source_call_id`).
 */
function answeredCall(step: JsonObject, context: AgentContext): string | undefined {
  const named = asString(asObject(step['extra'])?.['tool_call_id'])
  return named !== undefined && context.called.has(named) ? named : undefined
}

// OpenClaw's exec statuses that say the command did not succeed (`running` says nothing yet).
const EXEC_FAILED: ReadonlySet<string> = new Set(['failed', 'error'])

/**
 * What a result step says of its call's outcome. OpenClaw's converter writes `isError: false` for
 * an `exec` whose command exited nonzero (`pytest` 1, `gws: not found` 127) and puts the exit code
 * and status in the step's `extra` (`exec_exit_code`, `exec_status`). A nonzero exit is a failed
 * shell call, as on every other harness (Claude Code's `is_error`, Codex's `exit_code`), so a row
 * about failures reads the exit code where the flag says nothing of it.
 */
function answerOutcome(result: JsonObject, step: JsonObject): { isError: boolean | null; exitCode: number | null } {
  const extra = asObject(step['extra'])
  const flag = asObject(result['extra'])?.['isError'] ?? extra?.['isError']
  const exitCode = asI64(extra?.['exec_exit_code']) ?? null
  const status = asString(extra?.['exec_status'])
  const failed = flag === true || (exitCode !== null && exitCode !== 0) || (status !== undefined && EXEC_FAILED.has(status))
  return { isError: failed ? true : typeof flag === 'boolean' ? flag : null, exitCode }
}

/** An observation result's text, as the context it put before the agent. */
function observationInjection(result: JsonObject): Emission[] {
  const text = textContent(result['content'])
  return text !== undefined && text.length > 0 ? [{ event: 'injection', text, origin: 'observation' }] : []
}

/**
 * ATIF trajectories (Harbor RFC 0001, v1.0–v1.7) and Reef's terminus trial records (the same
 * steps under a verifier's outcome). Each step becomes its events; the trajectory's `agent.name`
 * chooses the tool table its calls are classified by (see operations.ts); Harbor's validator
 * rules that fail become warnings (the conversion carries on, saying so).
 */
class AtifReader implements DocumentReader {
  private closed: CloseReason | null = null
  private readonly drift: DriftWatch
  /** One classifier per table, so an unknown tool is reported once per conversion. */
  private readonly classifiers = new Map<ToolOperationTable, CallClassifier>()

  constructor(
    private readonly seam: SeamOptions,
    private readonly expected: 'atif' | 'terminus',
    vocabulary: RecordVocabulary,
  ) {
    this.drift = new DriftWatch(vocabulary)
  }

  pushDocument(document: ParsedDocument): Emission[] {
    const root = document.value
    const steps = asArray(root['steps'])
    if (!steps) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not an ATIF trajectory: it has no steps list')
    const version = asString(root['schema_version'])
    const terminus = version === undefined
    if (terminus && this.expected === 'atif') {
      throw new TranscriptError('VH_TRANSCRIPT_UNSUPPORTED_VERSION', document.file, 1, 'the document has no schema_version; an ATIF trajectory names one (ATIF-v1.0 to ATIF-v1.7)')
    }
    if (!terminus && !ACCEPTED_VERSION.test(version)) {
      throw new TranscriptError('VH_TRANSCRIPT_UNSUPPORTED_VERSION', document.file, 1, `schema_version ${JSON.stringify(version)} is not one this reader accepts (ATIF-v1.x; written against v1.0 to v1.7)`)
    }
    this.drift.sawVersion(version)
    const agent = asObject(root['agent']) ?? {}
    const definitions = asArray(agent['tool_definitions'])
    const context = this.contextOf(agent, 'steps', steps, asObject(root['final_metrics']))
    const events: Emission[] = [
      sessionStart(terminus ? TERMINUS_ADAPTER_ID : ATIF_ADAPTER_ID, this.seam, {
        harness_version: asString(agent['version']) ?? this.seam.harnessVersion ?? null,
        session_id: asString(root['session_id']) ?? null,
        model: asString(agent['model_name']) ?? this.seam.model ?? null,
        offered_tools: definitions
          ? definitions.map((definition) => {
              const object = asObject(definition) ?? {}
              return asString(object['name']) ?? asString(asObject(object['function'])?.['name']) ?? ''
            })
          : null,
      }),
    ]
    steps.forEach((step, index) => events.push(...this.step(step, index, document, context)))
    // v1.7: subagents embedded in the file are whole trajectories; their calls are this run's calls.
    asArray(root['subagent_trajectories'])?.forEach((subagent, index) => {
      const object = asObject(subagent)
      if (!object) {
        events.push(opaqueValue(subagent, 'subagent_trajectories', null, document.lineOf('subagent_trajectories', index)))
        this.drift.sawUnknown('subagent_trajectories', null)
        return
      }
      const subContext = this.contextOf(asObject(object['agent']) ?? {}, 'subagent_trajectories', asArray(object['steps']) ?? [], asObject(object['final_metrics']))
      asArray(object['steps'])?.forEach((step, stepIndex) => events.push(...this.step(step, stepIndex, document, subContext, index)))
    })
    // A subagent whose trajectory is another file ran calls this document does not hold.
    const external = externalSubagentRefs(root)
    for (const ref of external) events.push(subagentCallsUnseenWarning(ref.callId, `its own trajectory, ${ref.name}, which this document only points to`))
    if (terminus) {
      const failed = root['failed'] === true
      events.push(sessionEnded({ is_error: failed, subtype: asString(root['error']) ?? null, terminal_reason: failed ? 'failed' : 'completed' }))
      this.closed = external.length > 0 ? null : failed ? 'error' : 'completed'
    } else {
      const metrics = asObject(root['final_metrics'])
      // A trajectory that continues in another file has not ended the run: its metrics are one
      // segment's (Harbor's first segment counts its own steps; the last one counts the run's).
      const continued = asString(root['continued_trajectory_ref'])
      const continues = continued !== undefined && continued.length > 0
      if (metrics && !continues) {
        events.push(
          sessionEnded({
            total_cost_usd: asF64(metrics['total_cost_usd']) ?? null,
            usage: atifUsage(metrics['total_prompt_tokens'], metrics['total_completion_tokens'], metrics['total_cached_tokens'], undefined, context.cacheApart),
          }),
        )
      }
      this.closed = metrics && !continues && external.length === 0 ? 'completed' : null
    }
    return events
  }

  finish(): Emission[] {
    return this.drift.finish()
  }

  closure(): CloseReason | null {
    return this.closed
  }

  private contextOf(agent: JsonObject, stepsKey: string, steps: readonly unknown[], totals: JsonObject | undefined): AgentContext {
    // Reef's trial record keeps only the steps, and only terminus writes it.
    const name = asString(agent['name']) ?? (this.expected === 'terminus' ? 'terminus-2' : undefined)
    const table = toolTableOfAgent(name)
    let classifier = this.classifiers.get(table)
    if (!classifier) {
      classifier = new CallClassifier(table, ATIF_ADAPTER_ID)
      this.classifiers.set(table, classifier)
    }
    const sessions = table === OPENCLAW_TOOL_OPERATIONS ? new TypedSessions(table, OPENCLAW_TYPING) : undefined
    return { model: asString(agent['model_name']) ?? null, classifier, agent: name, stepsKey, called: new Set<string>(), sessions, cacheApart: promptLeavesCacheOut(name, steps, totals) }
  }

  /** A call's events; what an OpenClaw `process` call typed into a shell names its subjects, as an `exec` line would. */
  private call(context: AgentContext, callId: string, name: string, input: unknown): Emission[] {
    const events = context.classifier.call(callId, name, input)
    return context.sessions === undefined ? events : context.sessions.called(callId, name, input, events)
  }

  private step(step: unknown, index: number, document: ParsedDocument, context: AgentContext, subagent?: number): Emission[] {
    // An embedded subagent's steps have no line lookup of their own: they are placed at their trajectory's line.
    const line = subagent === undefined ? document.lineOf(context.stepsKey, index) : document.lineOf(context.stepsKey, subagent)
    if (!isObject(step)) {
      this.drift.sawUnknown('step', null)
      return [opaqueValue(step, 'step', null, line)]
    }
    const events: Emission[] = []
    const id = asU64(step['step_id'])
    if (id !== index + 1) events.push({ event: 'warning', code: 'atif-step-id', message: `step ${index + 1} has step_id ${JSON.stringify(step['step_id'] ?? null)}; ATIF step ids run from 1 in order` })
    // RFC: a copied step "is not a new interaction"; the segment it was copied from holds its calls and usage.
    if (step['is_copied_context'] === true) return events
    const source = asString(step['source']) ?? ''
    const message = textContent(step['message'])
    const results = (asArray(asObject(step['observation'])?.['results']) ?? []).map((result) => asObject(result) ?? {})
    if (source === 'user' || source === 'system') {
      events.push({ event: 'injection', text: message ?? '', origin: source })
      // v1.2: a system step's observation holds what a system-initiated operation returned (a summary, a handoff).
      for (const result of results) events.push(...observationInjection(result))
      if (step['tool_calls'] !== undefined || step['metrics'] !== undefined) events.push({ event: 'warning', code: 'atif-agent-field', message: `step ${index + 1} is a ${source} step carrying agent-only fields` })
      return timed(events, asString(step['timestamp']))
    }
    if (source !== 'agent') {
      this.drift.sawUnknown('step', source)
      return [...events, opaqueValue(step, 'step', source, line)]
    }
    const reasoning = asString(step['reasoning_content'])
    if (reasoning !== undefined && reasoning.length > 0) events.push({ event: 'thinking', text: reasoning, request_id: null })
    const calls = asArray(step['tool_calls'])
    let answers = calls === undefined || calls.length === 0 ? answeredCall(step, context) : undefined
    // A result step's message is the tool's output, not the agent's words: it is counted once, as the result.
    const echoesResult = answers !== undefined && results.some((result) => textContent(result['content']) === message)
    if (message !== undefined && message.length > 0 && !echoesResult) events.push({ event: 'text', text: message, request_id: null })
    const callIds: string[] = []
    for (const [callIndex, call] of (calls ?? []).entries()) {
      const object = asObject(call) ?? {}
      const written = asString(object['tool_call_id'])
      // The RFC requires the id; a call without one still happened, so it gets a stable one of its own, said aloud.
      const callId = written !== undefined && written.length > 0 ? written : `step-${id ?? index + 1}-call-${callIndex + 1}`
      if (callId !== written) events.push({ event: 'warning', code: 'atif-call-id', message: `step ${index + 1} has a tool call without tool_call_id; it is read as ${callId}` })
      callIds.push(callId)
      context.called.add(callId)
      const name = asString(object['function_name']) ?? ''
      events.push(...this.call(context, callId, name, argumentsObject(object['arguments'], 'arguments')))
    }
    if (calls === undefined || calls.length === 0) {
      messageActionsOf(context.agent, step['message']).forEach((action, actionIndex) => {
        events.push(...context.classifier.call(messageActionId(id ?? index + 1, actionIndex + 1), action.name, action.input))
      })
    }
    for (const result of results) {
      const named = asString(result['source_call_id'])
      // RFC: a result with no source_call_id "comes from an action that doesn't use the standard
      // tool calling format" — it answers no call (not even a step's only one): it is context the agent was shown.
      if (named === undefined || named.length === 0) {
        if (answers !== undefined) {
          const outcome = answerOutcome(result, step)
          context.sessions?.answered(answers, result['content'])
          events.push(toolResult(answers, outcome.isError, result['content'] ?? null, outcome.exitCode))
          answers = undefined
        } else {
          events.push(...observationInjection(result))
        }
        continue
      }
      if (!callIds.includes(named)) {
        events.push({ event: 'warning', code: 'atif-unmatched-result', message: `step ${index + 1} has a result for ${named}, which no call of that step made` })
      }
      events.push(toolResult(named, null, result['content'] ?? null))
    }
    const metrics = asObject(step['metrics'])
    if (metrics) {
      events.push({
        event: 'usage',
        request_id: null,
        model: asString(step['model_name']) ?? context.model,
        usage: atifUsage(metrics['prompt_tokens'], metrics['completion_tokens'], metrics['cached_tokens'], metrics['cost_usd'], context.cacheApart, asObject(metrics['extra'])),
      })
    }
    return timed(events, asString(step['timestamp']))
  }
}

/** A plain ATIF trajectory (`trajectory.json`). */
export const atifFormat: DocumentFormat = {
  kind: 'documents',
  name: 'atif-json',
  aliases: ['atif'],
  adapter: ATIF_ADAPTER_ID,
  summary: 'ATIF trajectory (Harbor RFC 0001), v1.x (written against v1.0–v1.7)',
  extension: '.json',
  createReader: (seam) => new AtifReader(seam, 'atif', ATIF_VOCABULARY),
  vocabulary: ATIF_VOCABULARY,
  sniff: (document) => typeof document['schema_version'] === 'string' && (document['schema_version'] as string).startsWith('ATIF-') && Array.isArray(document['steps']),
}

/** Reef's terminus trial record: the verifier's outcome and every ATIF step of the trial. */
export const terminusFormat: DocumentFormat = {
  kind: 'documents',
  name: 'terminus-atif-json',
  aliases: [],
  adapter: TERMINUS_ADAPTER_ID,
  summary: "Reef's terminus trial record (<task>.json: rewards, failed, error, steps)",
  extension: '.json',
  createReader: (seam) => new AtifReader(seam, 'terminus', TERMINUS_RECORD_VOCABULARY),
  vocabulary: TERMINUS_RECORD_VOCABULARY,
  sniff: (document) => document['schema_version'] === undefined && Array.isArray(document['steps']) && ('rewards' in document || 'failed' in document || 'task' in document),
}
