/**
 * The trace IR: one agent run, normalised and harness-neutral (upstream's `trace-ir/1`). Readers
 * turn a transcript into these events one at a time; the checker and the census consume them as
 * they arrive and never hold the run. Every field a harness might not record is `null` when it did
 * not: absence stays distinguishable from zero all the way to the verdict.
 */

/** Which reader produced the events, and which harness versions it was written against. */
export interface AdapterRef {
  name: string
  written_against: string[]
}

export interface LoadedPlugin {
  name: string
  version: string | null
  source: string | null
  path: string | null
}

export interface McpServer {
  name: string
  status: string | null
}

/** The run's opening record. */
export interface SessionStart {
  model: string | null
  permissionMode: string | null
  /** Who paid: metaharness's `credential_source`, Claude's `apiKeySource`. */
  apiKeySource: string | null
  harnessVersion: string | null
  outputStyle: string | null
  cwd: string | null
  /** The tools offered, by name. */
  tools: string[] | null
  /** What the run could do, in the neutral operation vocabulary. */
  availableOperations: string[] | null
  slashCommands: string[] | null
  skills: string[] | null
  agents: string[] | null
  plugins: LoadedPlugin[] | null
  mcpServers: McpServer[] | null
}

/** One tool call the model made. */
export interface ToolCall {
  /** The harness's id for the call; how a result is correlated to it. */
  callId: string | null
  name: string
  /** What the call was (`file.write`…); empty when the record does not say. */
  operations: string[]
  /** What it touched, scheme-prefixed (`file:src/lib.rs`); empty when the record does not say. */
  subjects: string[]
  /** The arguments as recorded (an input that was not an object reads as `{}`). */
  input: Record<string, unknown>
  /** `argv` joined by spaces, answering `args.command` for a harness that records an argv. */
  joinedArgv: string | null
  /**
   * The adapter said no operation table knows this tool (an `unclassified_tool` warning named it):
   * its empty `operations` mean "nobody could tell", not "none", so a selector by operation cannot
   * rule it out.
   */
  unclassified: boolean
  /**
   * Programs its shell line named only through an expansion (`proc:$TOOL`, see `unnamedPrograms`):
   * a selector by subject cannot rule such a call out. Usually empty.
   */
  unnamedPrograms: string[]
  /**
   * The folder the call's shell was in when it started, where the shell keeps its folder between
   * calls (Claude Code's `Bash`) and an earlier call's `cd` moved it: `x/`, or `''` (where the run
   * started, and for every other call).
   */
  shellStart: string
  /**
   * The files its shell line writes (`filesWritten`), read on first asking and kept here; null
   * until then. A field of the call, set when it is made, so every call has one shape.
   */
  writtenFiles: readonly string[] | null
  /** The folder its session opened in (`sessionFolder`), absolute; null where the session named none. */
  cwd: string | null
  /**
   * The other spellings of its `file:` subjects (`otherSubjects`), read on first asking and kept
   * here; null until then.
   */
  otherSubjects: readonly string[] | null
}

/** One tool result. */
export interface ToolResult {
  callId: string | null
  isError: boolean | null
  /**
   * Bytes of the rendered content (or the wire's own `bytes` where it carried no content); null
   * where the record carried neither (a b10x `tool-completed`, a Codex `web_search_call`): what
   * came back is not known, not empty.
   */
  contentBytes: number | null
  content: string | null
  /** The per-tool fields a `tool.result` matcher names (`interrupted`, `userModified`…). */
  fields: Record<string, unknown>
}

export interface RateLimitState {
  status: string | null
  /** The window, e.g. `five_hour`. */
  limitType: string | null
  utilization: number | null
  isUsingOverage: boolean | null
  resetsAt: number | null
}

export interface ModelUsage {
  inputTokens: number | null
  outputTokens: number | null
  cacheReadInputTokens: number | null
  cacheCreationInputTokens: number | null
  costUsd: number | null
}

export interface RunUsage {
  inputTokens: number | null
  outputTokens: number | null
  cacheReadInputTokens: number | null
  cacheCreationInputTokens: number | null
  /** The billed figure, never the live estimate. */
  thinkingTokens: number | null
  /** A list's length the vendor read off its own record. */
  iterations: number | null
  speed: string | null
  serviceTier: string | null
}

/** The terminal record of one session. */
export interface RunOutcome {
  isError: boolean | null
  subtype: string | null
  stopReason: string | null
  terminalReason: string | null
  apiErrorStatus: string | null
  numTurns: number | null
  durationMs: number | null
  durationApiMs: number | null
  ttftMs: number | null
  timeToRequestMs: number | null
  totalCostUsd: number | null
  /**
   * How many permission requests were denied. On `metaharness.event/1` this joins the vendor's
   * list with the seam's `tool.decided` denials anywhere in the stream, so it is only final once
   * the stream has ended; the checker reads it then.
   */
  readonly permissionDenials: number | null
  subagentsSpawned: number | null
  usage: RunUsage | null
  modelUsage: Record<string, ModelUsage> | null
}

export interface OpaqueEvent {
  /** The `type` (or `vendor_type`) it declared, where it declared one. */
  eventType: string | null
  subtype: string | null
  digest: string
  /** The line of the harness's own transcript it came from, where the wire says (`source_line`); else the event's own line is. */
  vendorLine: number | null
}

/** What an IR event says. */
export type IrEventBody =
  | { family: 'session_start'; start: SessionStart }
  /**
   * `parentCallId`: the call that started the subagent whose words these are (Claude Code's
   * `parent_tool_use_id`), which streams a subagent's messages between the run's own; null for the
   * run's own agent.
   */
  | { family: 'assistant_text'; text: string; requestId: string | null; parentCallId: string | null }
  | { family: 'assistant_thinking'; text: string }
  | { family: 'tool_call'; call: ToolCall }
  | { family: 'tool_result'; result: ToolResult }
  | { family: 'synthetic_injection'; text: string }
  | { family: 'thinking_estimate'; estimatedTokens: number | null; estimatedTokensDelta: number | null }
  | { family: 'rate_limit'; state: RateLimitState }
  | { family: 'run_outcome'; outcome: RunOutcome }
  | { family: 'opaque'; opaque: OpaqueEvent }

export type IrFamily = IrEventBody['family']

/** One IR event: its position in the IR (what verdicts cite), its 1-based source line and time. */
export type IrEvent = IrEventBody & {
  /** 0-based position in the IR. Several events may share one source line. */
  index: number
  /** 1-based line of the transcript, counting blank lines. */
  sourceLine: number
  /** The harness's timestamp, verbatim; `timeOf` reads it as epoch milliseconds for the rows that ask. */
  timestamp: string | null
}

/** One API request's usage record (one per assistant line on stream-json, one per `usage` event). */
export interface AssistantRequest {
  sourceLine: number
  requestId: string | null
  model: string | null
  inputTokens: number | null
  outputTokens: number | null
  cacheReadInputTokens: number | null
  cacheCreationInputTokens: number | null
  /** Model output since the previous request, where the wire writes usage on a line of its own. */
  events: number[]
}

/** Who says the transcript is the whole run. */
export type ClosureWitness = 'closing_event' | 'attestation' | 'terminal_record'

export const STREAM_CLOSED_EVENT = 'stream.closed'
export const STREAM_COMPLETE_ATTESTATION = 'hermetic.stream_complete'
export const TERMINAL_RECORD_MARKER = "the run's terminal record as the transcript's last line"

/** What a `metaharness.event/1` stream can close with, in the order a reader looks. */
export const EVENT_STREAM_CLOSURE_MARKERS: readonly string[] = [STREAM_CLOSED_EVENT, STREAM_COMPLETE_ATTESTATION]
/** What a vendor transcript can close with. */
export const VENDOR_CLOSURE_MARKERS: readonly string[] = [TERMINAL_RECORD_MARKER]

/** The producer's statement that the transcript is the whole run. */
export interface StreamClose {
  witness: ClosureWitness
  events: number | null
  reason: string | null
}

/** The marker a witness is printed as. */
export function witnessMarker(witness: ClosureWitness): string {
  switch (witness) {
    case 'closing_event':
      return STREAM_CLOSED_EVENT
    case 'attestation':
      return STREAM_COMPLETE_ATTESTATION
    case 'terminal_record':
      return TERMINAL_RECORD_MARKER
  }
}

/** What is known once the stream has ended. */
export interface StreamEnd {
  adapter: AdapterRef
  /** The statement that closed it, or `null`: nobody said. */
  closure: StreamClose | null
  /** The statements this wire can carry, for an `unk` that names what would have decided it. */
  closureMarkers: readonly string[]
  /** How many subagents ran whose calls the stream says it does not hold (`subagent_calls_unseen` warnings). */
  subagentsUnseen: number
  /** How many processes could have been sent input the stream says it does not hold (`process_input_unseen` warnings). */
  processesUnseen: number
  /** How many calls ran code whose tool calls the stream says it does not hold (`nested_calls_unseen` warnings). */
  nestedUnseen: number
  /**
   * The first event index that calls the stream does not hold (a subagent's, code's, a process's
   * input) may have come before, or null where none were announced: an order decided at or after
   * it is undecided.
   */
  callsElsewhereFrom: number | null
  /** How many records said their usage sums several model requests (`requests_unmarked` warnings): each request record is then one request or more. */
  requestsUnmarked: number
  /** How many subagents made requests the terminal record's `usage` leaves out (`subagent_usage_apart` warnings): a total read off it is a lower bound. */
  subagentUsageApart: number
  /** How many subagents made requests the stream may not all show (`subagent_requests_unseen` warnings): a count of requests is a lower bound. */
  subagentRequestsUnseen: number
  /** The calls the harness refused (see `RefusedCalls`). */
  refusedCalls: RefusedCalls
  /** How many IR events there were. */
  events: number
}

/**
 * The calls the harness refused, as far as the stream names them: by call id (a seam's
 * `tool.decided` denial, a vendor's `permission_denials` entry, a refusal warning's `call_id`), and
 * how many more it refused without naming which (a refusal warning naming none, an entry with no
 * id, a census count beyond the named). A refused call was asked for and never ran.
 */
export interface RefusedCalls {
  readonly ids: ReadonlySet<string>
  readonly unnamed: number
}

/**
 * What a sink reads of a stream, so a reader may pass over a line nothing here can use after
 * proving it well-formed (see `line-scan.ts`). A sink that says nothing reads everything.
 */
export interface IrReads {
  /** The families whose events the sink reads; any other is numbered and passed over. */
  readonly families: ReadonlySet<IrFamily>
  /** Whether API request records (`usage` lines) are read. */
  readonly requests: boolean
  /** Whether tool decisions are read (the seam's denials a run outcome counts). */
  readonly decisions: boolean
  /** Whether every event's time is read, including the events passed over (`passed`). */
  readonly clock: boolean
}

/** What consumes IR as a reader produces it. */
export interface IrSink {
  event(event: IrEvent): void
  request(request: AssistantRequest): void
  end(end: StreamEnd): void
  /** Whether requests should carry `events` (costs memory on a wire without usage lines). */
  readonly wantsRequestEvents?: boolean
  /** What the sink reads; absent: everything, and nothing is passed over. */
  readonly reads?: IrReads
  /** An event of a family the sink does not read, passed over: its index, line and time. */
  passed?(index: number, sourceLine: number, timestamp: string | null): void
}
