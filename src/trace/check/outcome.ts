import { countNames, describeTypeCounts, firstFew } from './unread.js'

/**
 * What the checker says about one expectation: `ok` or `gap` citing IR event indices and a note,
 * or `undecidable` with a reason naming what a reader can go and look at. The shapes and spellings
 * are upstream's `Outcome` and `UnknownReason`, serialised flat (`{outcome, reason, …fields}`).
 */

export type UnknownReason =
  | { reason: 'no_session_start' }
  | { reason: 'no_run_outcome' }
  /** Several sessions' terminal records, each covering only its own: no one of them is the run's figure. */
  | { reason: 'sessions_concatenated'; events: number[] }
  | { reason: 'no_rate_limit_event' }
  | { reason: 'no_thinking_estimate' }
  | { reason: 'no_final_text' }
  /** The run called tools after its last text, and wrote none after them: it ended working, with no answer to match (ours). */
  | { reason: 'calls_after_last_text'; text_event: number; call_events: number[] }
  | { reason: 'field_absent'; field: string }
  | { reason: 'nothing_in_scope'; selector: string }
  | { reason: 'never_occurred'; selector: string }
  | { reason: 'no_result_correlated'; call_event: number }
  | { reason: 'result_field_absent'; call_event: number; result_event: number; field: string }
  | { reason: 'timestamp_absent'; event: number }
  | { reason: 'opaque_events'; events: number[]; types: string[] }
  /** Calls of tools no operation table knows, which a selector by operation or by subject alone cannot rule in or out (ours; upstream's wire has no such calls). */
  | { reason: 'unclassified_calls'; events: number[]; tools: string[] }
  /** Shell calls whose line named the program it ran only through an expansion (`$TOOL x`). */
  | { reason: 'programs_unnamed'; events: number[]; programs: string[] }
  /** Calls that named words a selector by file subject would match where no reader can tell which files they touched: a program's (`git rm x`), an MCP tool's, a folder worked through (ours). */
  | { reason: 'operands_unread'; events: number[]; words: string[] }
  /** Shell calls that read or wrote files a selector by a file operation would match, their harness naming their operation `shell` alone (ours). */
  | { reason: 'shell_files'; events: number[]; files: string[] }
  /** MCP calls given a command line naming programs a selector would match, had their harness named them shell calls (ours). */
  | { reason: 'mcp_commands'; events: number[]; programs: string[] }
  /** Calls named absolute paths a selector written relative may name, in a session that named no folder it opened in (ours). */
  | { reason: 'session_folder_unknown'; events: number[]; paths: string[] }
  /** Calls of a file operation that named no file, which a selector by file subject cannot rule out (ours). */
  | { reason: 'files_unnamed'; events: number[]; tools: string[] }
  | { reason: 'stream_not_closed'; markers: string[] }
  /** Subagents ran whose calls the stream says it does not hold (ours: `subagent_calls_unseen` warnings). */
  | { reason: 'subagent_calls_unseen'; subagents: number }
  /** Subagents made requests the terminal record's usage leaves out (ours: `subagent_usage_apart` warnings). */
  | { reason: 'subagent_usage_apart'; subagents: number }
  /** Subagents whose last request the stream may not show (ours: `subagent_requests_unseen` warnings). */
  | { reason: 'subagent_requests_unseen'; subagents: number }
  /** Processes could have been sent input the stream says it does not hold (ours: `process_input_unseen` warnings). */
  | { reason: 'process_input_unseen'; processes: number }
  /** Calls ran code whose tool calls the stream says it does not hold (ours: `nested_calls_unseen` warnings). */
  | { reason: 'nested_calls_unseen'; calls: number }
  /** The harness refused calls without naming which, and the calls that decide may be among them: a refused call never ran (ours). */
  | { reason: 'calls_refused'; refusals: number; events: number[] }
  | { reason: 'model_not_used'; model: string }
  | { reason: 'run_cut_by_rate_limit'; outcome_event: number; limit_event: number; window: string | null }
  | { reason: 'series_did_not_move'; field: string; requests: number }
  | { reason: 'no_requests' }
  /** The record sums usage over several model requests, so each of its `records` is one request or more (ours: `requests_unmarked` warnings). */
  | { reason: 'requests_unmarked'; records: number }
  | { reason: 'ratio_undefined'; denominator: string }

export type UnknownReasonName = UnknownReason['reason']

/** A verdict that cites what produced it. */
export interface Citation {
  /** IR event indices, in order; empty only for a fact about the whole transcript. */
  events: number[]
  note: string
}

export type Outcome = ({ outcome: 'ok' } & Citation) | ({ outcome: 'gap' } & Citation) | ({ outcome: 'undecidable' } & UnknownReason)

export function ok(events: number[], note: string): Outcome {
  return { outcome: 'ok', events, note }
}

export function gap(events: number[], note: string): Outcome {
  return { outcome: 'gap', events, note }
}

export function undecidable(reason: UnknownReason): Outcome {
  return { outcome: 'undecidable', ...reason }
}

export function fieldAbsent(field: string): Outcome {
  return undecidable({ reason: 'field_absent', field })
}

/** The sentence upstream prints for a reason. */
export function describeReason(reason: UnknownReason): string {
  switch (reason.reason) {
    case 'no_session_start':
      return 'this transcript records no session start'
    case 'no_run_outcome':
      return 'this transcript records no terminal result'
    case 'sessions_concatenated':
      return `this transcript holds ${reason.events.length} sessions' terminal records (events ${firstFew(reason.events)}), each covering only its own session: no one of them is the run's figure`
    case 'no_rate_limit_event':
      return 'this transcript records no rate-limit state'
    case 'no_thinking_estimate':
      return 'this transcript records no thinking estimate'
    case 'no_final_text':
      return 'this run produced no final assistant text'
    case 'calls_after_last_text':
      return `this run called tools after its last text (event ${reason.text_event}): ${reason.call_events.length === 1 ? 'the call at event' : `${reason.call_events.length} calls, at events`} ${firstFew(reason.call_events)}, and wrote no text after ${reason.call_events.length === 1 ? 'it' : 'them'}, so it ended working, not answering — that text is not a final answer`
    case 'no_requests':
      return 'this transcript records no API request'
    case 'requests_unmarked':
      return `this transcript's format sums usage over several model requests (requests_unmarked): ${reason.records === 1 ? 'its one usage record stands for one request or more' : `its ${reason.records} usage records stand for ${reason.records} requests or more`}, and none marks where a request ends — the harness's session file may`
    case 'series_did_not_move':
      return `\`${reason.field}\` never moved across ${reason.requests} requests, so a direction over it is consistent with both and evidence for neither`
    case 'field_absent':
      return `this transcript records no \`${reason.field}\``
    case 'nothing_in_scope':
      return `no tool call matches ${reason.selector}`
    case 'never_occurred':
      return `${reason.selector} never occurred, so the ordering is undecidable`
    case 'no_result_correlated':
      return `the call at event ${reason.call_event} has no correlated result — a truncated transcript, not a bad result`
    case 'result_field_absent':
      return `the result at event ${reason.result_event} for the call at event ${reason.call_event} records no \`${reason.field}\``
    case 'timestamp_absent':
      return `no duration can be derived around event ${reason.event}: a timestamp was not recorded`
    case 'stream_not_closed':
      return `nothing states that this transcript is the whole run, so an absence, a ceiling that holds, a claim about every call or the final answer cannot be told from a hole — the run's producer closes the stream and says so with ${reason.markers.join(' or ')}`
    case 'subagent_calls_unseen':
      return `${reason.subagents === 1 ? 'a subagent' : `${reason.subagents} subagents`} ran apart from this transcript (subagent_calls_unseen): the harness wrote ${reason.subagents === 1 ? 'its calls' : 'their calls'} to ${reason.subagents === 1 ? 'its' : 'their'} own file, so an absence or a claim about the whole run cannot be decided here — check that file too`
    case 'subagent_usage_apart':
      return `${reason.subagents === 1 ? 'a subagent' : `${reason.subagents} subagents`} made model requests that the terminal record's usage leaves out (subagent_usage_apart; Claude Code's \`result\` sums the main conversation's alone), so a total read off it is a lower bound — name the model (\`model:\`) to read model_usage, which counts every agent's`
    case 'subagent_requests_unseen':
      return `${reason.subagents === 1 ? 'a subagent' : `${reason.subagents} subagents`} made model requests this transcript may not all show (subagent_requests_unseen; Claude Code and Qwen Code stream a foreground agent's requests but not its last, whose answer reaches the run as the agent call's result), so a count of requests is a lower bound and a request's usage may be missing from the series a trend or a share is read over`
    case 'process_input_unseen':
      return `${reason.processes === 1 ? 'a process' : `${reason.processes} processes`} the run started could have been sent input this transcript does not show (process_input_unseen): what the run wrote to ${reason.processes === 1 ? 'it' : 'them'} is elsewhere, so an absence or a claim about the whole run cannot be decided here — check the harness's session record too`
    case 'nested_calls_unseen':
      return `${reason.calls === 1 ? 'a call' : `${reason.calls} calls`} ran code that called tools apart from this transcript (nested_calls_unseen): the harness recorded those calls elsewhere, so an absence or a claim about the whole run cannot be decided here — check its session file too`
    case 'calls_refused':
      return `the harness refused ${reason.refusals === 1 ? 'a call' : `${reason.refusals} calls`} without naming which (calls_refused: a refusal warning naming no call, a census count), and the ${reason.events.length === 1 ? 'call' : 'calls'} that would decide this (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) may be among them: a refused call never ran`
    case 'opaque_events': {
      // Counted, never listed: the JSON report keeps every index.
      const untyped = reason.events.length - reason.types.length
      const kinds = describeTypeCounts([...countNames(reason.types), ...(untyped > 0 ? [{ type: '(untyped)', count: untyped }] : [])])
      return `the adapter could not read ${reason.events.length} event(s): ${kinds} (events ${firstFew(reason.events)}) — one of them could have changed this answer`
    }
    case 'unclassified_calls':
      return `${reason.events.length} call(s) of ${reason.tools.join(', ')} (events ${firstFew(reason.events)}): no operation table knows ${reason.tools.length === 1 ? 'that tool' : 'those tools'}, so a selector by operation or by subject alone cannot see them — one of them could have changed this answer`
    case 'programs_unnamed':
      return `${reason.events.length === 1 ? 'a shell call' : `${reason.events.length} shell calls`} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) ran a program the line names only as ${reason.programs.map((program) => `\`${program}\``).join(', ')}: an expansion decides which, so a selector by subject cannot rule ${reason.events.length === 1 ? 'it' : 'them'} out — one of them could have changed this answer`
    case 'operands_unread':
      return `${reason.events.length === 1 ? 'a call' : `${reason.events.length} calls`} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) named ${reason.words.map((word) => `\`${word}\``).join(', ')} where no reader can tell which files it touched (a word a program or MCP tool was given, a folder it may work through, a path glob that chose its files), so a selector by file subject cannot rule ${reason.events.length === 1 ? 'it' : 'them'} out — match the command to decide`
    case 'shell_files':
      return `${reason.events.length === 1 ? 'a shell call' : `${reason.events.length} shell calls`} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) read or wrote ${reason.files.map((file) => `\`${file}\``).join(', ')} through its line (\`cat\`, a redirection, \`sed -i\`, \`cp\`, \`rm\`…), and its harness named its operation \`shell\` alone, so a selector by \`file.read\`, \`file.write\` or \`file.edit\` cannot rule ${reason.events.length === 1 ? 'it' : 'them'} out — match the command to decide`
    case 'mcp_commands':
      return `${reason.events.length === 1 ? 'an MCP call' : `${reason.events.length} MCP calls`} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) ${reason.events.length === 1 ? 'was' : 'were'} given a command line naming ${reason.programs.map((program) => `\`${program}\``).join(', ')} (\`start_process {command}\`, \`run_command {command}\`…), which ${reason.events.length === 1 ? 'its tool' : 'their tools'} may have run as a shell would, and the harness named ${reason.events.length === 1 ? 'its operation' : 'their operation'} \`mcp.call\` alone, so a selector by \`shell\` or by a program cannot rule ${reason.events.length === 1 ? 'it' : 'them'} out — match the command to decide`
    case 'session_folder_unknown':
      return `${reason.events.length === 1 ? 'a call' : `${reason.events.length} calls`} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) named ${reason.paths.map((path) => `\`${path}\``).join(', ')}, which a selector written relative may name, and the session named no folder it opened in to read ${reason.paths.length === 1 ? 'it' : 'them'} against — name the file by a pattern that matches the absolute path (\`file:*/src/*\`) to decide`
    case 'files_unnamed':
      return `${reason.events.length === 1 ? 'a call' : `${reason.events.length} calls`} of ${reason.tools.map((tool) => `\`${tool}\``).join(', ')} (${reason.events.length === 1 ? 'event' : 'events'} ${firstFew(reason.events)}) read or wrote a file ${reason.events.length === 1 ? 'it' : 'they'} did not name, so a selector by file subject cannot rule ${reason.events.length === 1 ? 'it' : 'them'} out — ${reason.events.length === 1 ? 'it' : 'one of them'} could have changed this answer`
    case 'model_not_used':
      return `this run never used \`${reason.model}\``
    case 'run_cut_by_rate_limit': {
      const named = reason.window === null ? "the account's rate limit" : `the \`${reason.window}\` window`
      return `the session ending at event ${reason.outcome_event} was cut by ${named}, rejected at event ${reason.limit_event} — nobody found out how it would have ended`
    }
    case 'ratio_undefined':
      return `the ratio has no denominator here: ${reason.denominator} is zero`
  }
}

/** `note at event 3` / `note at events 5, 10` / `note`: a citation as one line. */
export function describeCitation(citation: Citation): string {
  if (citation.events.length === 0) return citation.note
  return `${citation.note} at ${citation.events.length === 1 ? 'event' : 'events'} ${citation.events.join(', ')}`
}

/** The one-line explanation printed beside a verdict. */
export function describeOutcome(outcome: Outcome): string {
  return outcome.outcome === 'undecidable' ? describeReason(outcome) : describeCitation(outcome)
}
