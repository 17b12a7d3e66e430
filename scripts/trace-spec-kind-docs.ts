// The trace-spec kind pages of the docs site (docs/reference/trace-spec-kinds/): one page per kind,
// its parameters read from the shipped JSON Schema (itself generated from the zod schema the reader
// parses with), its example read back through the spec reader, and what makes it ok / gap /
// unknown from the table below. `npm run generate:kind-docs` writes them; a unit test regenerates
// and compares.
import { stringify } from 'yaml'
import type { UnknownReasonName } from '../src/trace/check/outcome.js'
import { KIND_ALIASES, KIND_NAMES } from '../src/trace/spec/kinds.js'
import { traceSpecJsonSchemaText } from '../src/trace/spec/json-schema.js'
import { parseSpecValue } from '../src/trace/spec/read.js'

type KindName = (typeof KIND_NAMES)[number]

/** How a family of kinds decides: what it reads, and its three verdicts. */
interface Family {
  readonly reads: string
  readonly ok: string
  readonly gap: string
}

const FAMILIES = {
  env: {
    reads: 'the run’s session starts (`session.started`; Claude Code’s `system/init`): one per session, where a driven run concatenates several, and the claim must hold in each',
    ok: 'every session start shows what the expectation claims',
    gap: 'a session start shows something else (the first such is cited); a session whose start does not say leaves the row unknown',
  },
  count: {
    reads: 'the tool calls the selector puts in scope (tools ∪ operations, then `subject`, then every `args` matcher)',
    ok: 'the number of calls in scope is within the bound — for a ceiling (`at_most`, `exactly`), on a stream proven closed, as for `tool.absent`',
    gap: 'it is outside the bound — a ceiling or `exactly` exceeded is a gap even when records went unread',
  },
  absent: {
    reads: 'the tool calls the selector puts in scope, and whether the stream proves it is the whole run',
    ok: 'no call is in scope **and** the stream is closed (`stream.closed` last, `hermetic.stream_complete: true`, or Claude Code’s `result` record last)',
    gap: 'any call is in scope; the verdict cites each',
  },
  order: {
    reads: 'the first call in scope of `first` that ran — a call the harness refused (listed in its `permission_denials`, denied by the seam, named by a refusal warning) was asked for and never made — and the first call in scope of `before`',
    ok: 'the first `first` call that ran comes before the first `before` call, and neither an event nobody could read nor a call the stream says it does not hold (a subagent’s, that began at a call before it) comes before it — either could have been a `before` call',
    gap: 'it comes after (or every `first` call before it was refused), with no unread event and no call held elsewhere before the first `before` call',
  },
  results: {
    reads: 'the tool calls in scope and the results correlated to them by call id',
    ok: 'the results hold what the expectation claims; a claim about every result, a rate, or a ceiling (`at_most`, `exactly`) holds only on a stream proven closed, as for `tool.absent`, while a floor that is met holds on any stream',
    gap: 'a result (or the count or rate over them) does not; a result that breaks the claim, or a ceiling exceeded, is a gap on any stream, while a rate is one only on a stream proven closed',
  },
  outcome: {
    reads: 'the run’s terminal record (`session.ended`; Claude Code’s `result`) — the last one',
    ok: 'the recorded value is within the bound or equal to the expected value',
    gap: 'it is not',
  },
  total: {
    reads: 'the run’s terminal record (`session.ended`; Claude Code’s `result`) — the last one — and whether subagents ran apart from the transcript (`subagent_calls_unseen`), whose spend the record may not count (Harbor’s terminus-2 counts its summarizing subagents in one file and not in the first segment of a split one): the recorded total is then a lower bound on the run’s',
    ok: 'the recorded value is within the bound or equal to the expected value — where subagents ran apart, only a floor it reaches',
    gap: 'it is not — where subagents ran apart, only a ceiling it already passes',
  },
  text: {
    reads: 'the run’s final assistant text: its last text event, joined with the pieces of one answer written just before it (a harness that streams its answer, as the b10x loop does, writes one text event per delta; pieces are text events one line after another on one request, nothing between them), and the calls made after it',
    ok: 'the matcher holds on it, and it is the final answer: a terminal record follows it, or the stream is proven closed, and the run called no tool after it (but one that ends the run: OpenHands’ `finish`, terminus-2’s `mark_task_complete`)',
    gap: 'it does not, with the same proof that it is the final answer; over a stream cut short after it, the run may have answered again, and the row is unknown',
  },
  rateLimit: {
    reads: 'the last rate-limit state the transcript records, which is the run’s last only where the run ended after it (a terminal record follows it, or the stream is proven closed); else the row is unknown',
    ok: 'that state shows what the expectation claims',
    gap: 'it shows something else',
  },
  requests: {
    reads: 'the API requests the transcript records (distinct request ids across assistant records; an unlabelled record is its own request) and their usage; where the format sums usage over several requests, each usage record is one request or more',
    ok: 'the count or the per-request series holds; a ceiling (`at_most`, `exactly`), a trend or a share holds only on a stream proven closed, while a floor that is met holds on any stream',
    gap: 'it does not; a wrong-way pair or a ceiling exceeded is a gap on any stream, while a share is one only on a stream proven closed',
  },
  estimate: {
    reads: 'the last thinking-token estimate the transcript records',
    ok: 'the estimate is within the bound; the estimate only grows, so a ceiling (`at_most`, `exactly`) holds only where the run ended after it (a terminal record follows it, or the stream is proven closed)',
    gap: 'it is not',
  },
  steps: {
    reads: 'intervals derived from recorded timestamps, never measured (generation: from the previous timestamped line to the call; execution: from the call to its result)',
    ok: 'every duration (or their total) is within the bound, on a stream proven closed; a total’s floor that is met holds on any stream',
    gap: 'one is not (on any stream), or the total is outside the bound',
  },
} as const satisfies Record<string, Family>

interface KindDoc {
  readonly family: keyof typeof FAMILIES
  readonly summary: string
  /** The `expect:` parameters of the example. */
  readonly example: unknown
  /** The unknown reasons this kind can give, beyond `on_unknown`. */
  readonly unknown: readonly UnknownReasonName[]
}

const SELECTED = ['opaque_events', 'unclassified_calls', 'programs_unnamed', 'operands_unread', 'shell_files', 'mcp_commands', 'session_folder_unknown', 'files_unnamed'] as const satisfies readonly UnknownReasonName[]
const CLOSURE = ['stream_not_closed', 'subagent_calls_unseen', 'process_input_unseen', 'nested_calls_unseen'] as const satisfies readonly UnknownReasonName[]
const RESULTS = ['nothing_in_scope', 'no_result_correlated', 'result_field_absent', ...CLOSURE, ...SELECTED] as const satisfies readonly UnknownReasonName[]
const ENV = ['no_session_start', 'field_absent'] as const satisfies readonly UnknownReasonName[]
const OUTCOME = ['no_run_outcome', 'sessions_concatenated', 'field_absent'] as const satisfies readonly UnknownReasonName[]
const MODEL = ['no_run_outcome', 'sessions_concatenated', 'field_absent', 'model_not_used'] as const satisfies readonly UnknownReasonName[]
const TOTAL = [...OUTCOME, 'subagent_calls_unseen'] as const satisfies readonly UnknownReasonName[]
const MODEL_TOTAL = [...MODEL, 'subagent_calls_unseen'] as const satisfies readonly UnknownReasonName[]
// A total read off the record's usage, which may leave subagents' requests out (model_usage counts them).
const USAGE_TOTAL = [...TOTAL, 'subagent_usage_apart'] as const satisfies readonly UnknownReasonName[]
const USAGE_MODEL_TOTAL = [...MODEL_TOTAL, 'subagent_usage_apart'] as const satisfies readonly UnknownReasonName[]
const STEPS = ['nothing_in_scope', 'timestamp_absent', ...CLOSURE] as const satisfies readonly UnknownReasonName[]

const KIND_DOCS: Record<KindName, KindDoc> = {
  api_requests: { family: 'requests', summary: 'How many API requests the run made.', example: { count: { at_most: 20 } }, unknown: ['requests_unmarked', 'subagent_requests_unseen', ...CLOSURE] },
  'cache.created_tokens': { family: 'total', summary: 'Cache-creation input tokens of the run (or of one model).', example: { count: { at_most: 50000 } }, unknown: USAGE_MODEL_TOTAL },
  'cache.hit_ratio': { family: 'total', summary: 'Cache reads over cache reads plus input tokens.', example: { at_least: 0.5 }, unknown: [...USAGE_TOTAL, 'ratio_undefined'] },
  'cache.read_tokens': { family: 'total', summary: 'Cache-read input tokens of the run (or of one model).', example: { count: { at_least: 1 }, model: 'claude-sonnet-4-5' }, unknown: USAGE_MODEL_TOTAL },
  'cache.used': { family: 'total', summary: 'Whether the run read from the prompt cache at all.', example: { equals: true }, unknown: USAGE_TOTAL },
  'cost.total': { family: 'total', summary: 'What the run cost in US dollars (`total_cost_usd`, or one model’s `costUSD`).', example: { at_most_usd: 1.5 }, unknown: MODEL_TOTAL },
  'duration.api': { family: 'total', summary: 'Time spent in API calls (`duration_api_ms`).', example: { ms: { at_most: 120000 } }, unknown: TOTAL },
  'duration.total': { family: 'outcome', summary: 'Wall time of the run (`duration_ms`).', example: { ms: { at_most: 600000 } }, unknown: OUTCOME },
  'env.agent_available': { family: 'env', summary: 'A sub-agent the session offered.', example: { agent: 'Explore' }, unknown: ENV },
  'env.api_key_source': { family: 'env', summary: 'Where the harness took its credential from (`apiKeySource`, `credential_source`).', example: { equals: 'ANTHROPIC_API_KEY' }, unknown: ENV },
  'env.exclusive': { family: 'env', summary: 'The plugins loaded are exactly these, no others.', example: { plugins: ['planning'] }, unknown: ENV },
  'env.mcp_servers': { family: 'env', summary: 'How many MCP servers the session had.', example: { count: { exactly: 0 } }, unknown: ENV },
  'env.model': { family: 'env', summary: 'The model the session started with.', example: { equals: 'claude-sonnet-4-5' }, unknown: ENV },
  'env.output_style': { family: 'env', summary: 'The output style the session started with.', example: { equals: 'default' }, unknown: ENV },
  'env.permission_mode': { family: 'env', summary: 'The permission mode the session started with.', example: { equals: 'default' }, unknown: ENV },
  'env.plugin_loaded': { family: 'env', summary: 'A plugin the session loaded (optionally its version and source).', example: { plugin: 'planning', version: '1.2.0' }, unknown: ENV },
  'env.skill_available': { family: 'env', summary: 'A skill the session offered (alias: `skill.available`).', example: { skill: 'code-review' }, unknown: ENV },
  'env.tool_available': {
    family: 'env',
    summary: 'A tool offered (`tool`), not offered (`tool` + `available: false`), any of several offered (`tools`/`operations`), or exactly these offered (`only`).',
    example: { tools: ['Read'], operations: ['file.read'] },
    unknown: ENV,
  },
  'events.assistant': { family: 'requests', summary: 'How many assistant records the transcript holds.', example: { count: { at_least: 1 } }, unknown: ['requests_unmarked', ...CLOSURE] },
  iterations: { family: 'total', summary: 'The usage record’s `iterations` count.', example: { count: { at_most: 10 } }, unknown: USAGE_TOTAL },
  order: {
    family: 'order',
    summary: 'One kind of call happened before another (tests before code, a read before a write).',
    example: { first: { operations: ['file.write', 'file.edit'], subject: { glob: 'file:*/tests/*' } }, before: { operations: ['file.write', 'file.edit'], subject: { glob: 'file:*/src/*' } } },
    // An earlier call either selector could not see may overturn it: an unclassified tool's, a program nobody named, an event
    // nobody could read, or a call held elsewhere (a subagent's, code's, a process's input) that began before the deciding one.
    unknown: ['never_occurred', 'calls_refused', 'unclassified_calls', 'programs_unnamed', 'operands_unread', 'shell_files', 'mcp_commands', 'session_folder_unknown', 'files_unnamed', 'opaque_events', 'subagent_calls_unseen', 'nested_calls_unseen', 'process_input_unseen'],
  },
  'permission.denied': { family: 'total', summary: 'How many tool calls were denied: the vendor’s list (Claude Code’s and Qwen Code’s `permission_denials`), the seam’s `tool.decided` denials and census, and the refusals a harness record names as warnings (`approval-denied`, `hook-refused`, `program-refused`: b10x, dsh, opencode, Gemini CLI). A census of zeros from no seam that could decide (`decisions: observe`) counts nothing, so a record with neither list nor seam — Codex’s — is unknown (`field_absent`), never zero.', example: { count: { exactly: 0 } }, unknown: TOTAL },
  'rate_limit.overage': { family: 'rateLimit', summary: 'Whether the account was using overage.', example: { equals: false }, unknown: ['no_rate_limit_event', 'field_absent', ...CLOSURE] },
  'rate_limit.status': { family: 'rateLimit', summary: 'The rate-limit status is one of these.', example: { allowed: ['allowed', 'allowed_warning'] }, unknown: ['no_rate_limit_event', 'field_absent', ...CLOSURE] },
  'rate_limit.utilization': { family: 'rateLimit', summary: 'The rate-limit window’s utilisation, as a fraction.', example: { at_most: 0.8 }, unknown: ['no_rate_limit_event', 'field_absent', ...CLOSURE] },
  result: {
    family: 'outcome',
    summary: 'How the run ended — `is_error`, `subtype`, `stop_reason`, `terminal_reason`, `api_error_status` — checked on **every** terminal record (a driven run concatenates sessions). A session that opened after the last terminal record has none of its own, so the row is unknown (`no_run_outcome`) unless an earlier record gapped.',
    example: { is_error: false, subtype: 'success' },
    unknown: ['no_run_outcome', 'field_absent', 'run_cut_by_rate_limit'],
  },
  service_tier: { family: 'outcome', summary: 'The service tier the usage record names.', example: { equals: 'standard' }, unknown: OUTCOME },
  'skill.completed': { family: 'results', summary: 'A load of the skill (as `skill.invoked` counts them) completed: Claude Code’s `Skill` result names the skill and says `success: true`; any other load’s result is no error (count defaults to at least 1).', example: { skill: 'code-review' }, unknown: RESULTS },
  'skill.invoked': { family: 'count', summary: 'Calls that load this skill (count defaults to at least 1): a skill tool naming it — Claude Code’s `Skill` and Qwen Code’s `skill` by `skill`, opencode’s `skill`, Gemini CLI’s `activate_skill` and Hermes’s `skill_view` by `name` — or a read of its `…/<skill>/SKILL.md` (a file read, or `cat`/`sed`/`head`… given it on a shell line), which is how pi and Codex load one. A line that writes the file (`cat > …/SKILL.md <<EOF`, `sed -i`) or removes it loads nothing; one that may have printed it without naming it to a printer (`grep -A 50 … SKILL.md`, `find skills -name SKILL.md -exec cat {} ;`) leaves the count a lower bound (`operands_unread`). A floor (`at_least`, `exactly`) is met only by calls that ran: one the harness refused (listed in its `permission_denials`, denied by the seam, named by a refusal warning) was asked for and never made, while a ceiling counts every call asked for; refusals the record does not tie to a call (a refusal warning without a `call_id`, a census count) leave a floor they may account for unknown (`calls_refused`).', example: { skill: 'code-review', count: { at_least: 1 } }, unknown: [...CLOSURE, ...SELECTED, 'calls_refused'] },
  speed: { family: 'outcome', summary: 'The speed the usage record names.', example: { equals: 'standard' }, unknown: OUTCOME },
  'step.exec_time': { family: 'steps', summary: 'How long each call in scope took to execute.', example: { tool: 'Bash', ms: { at_most: 60000 } }, unknown: STEPS },
  'step.gen_time': { family: 'steps', summary: 'How long the model took to generate each call in scope.', example: { tool: 'Edit', ms: { at_most: 30000 } }, unknown: STEPS },
  'subagent.spawned': { family: 'outcome', summary: 'How many sub-agents the run spawned.', example: { count: { at_most: 2 } }, unknown: OUTCOME },
  'text.matches': { family: 'text', summary: 'The final assistant text matches (the matcher is the parameters themselves; one that holds for every text is refused).', example: { contains: 'all tests pass' }, unknown: ['no_final_text', 'calls_after_last_text', ...CLOSURE] },
  'thinking.estimated': { family: 'estimate', summary: 'The last thinking-token estimate the transcript records.', example: { count: { at_most: 20000 } }, unknown: ['no_thinking_estimate', ...CLOSURE] },
  'time.inference_total': { family: 'steps', summary: 'Generation time summed over every tool call.', example: { ms: { at_most: 300000 } }, unknown: [...STEPS, 'opaque_events'] },
  'time.tool_exec_total': { family: 'steps', summary: 'Execution time summed over every tool call.', example: { ms: { at_most: 300000 } }, unknown: [...STEPS, 'opaque_events'] },
  time_to_request: { family: 'outcome', summary: 'Time until the first API request (`time_to_request_ms`).', example: { ms: { at_most: 5000 } }, unknown: OUTCOME },
  'tokens.input': { family: 'total', summary: 'Input tokens of the run (or of one model).', example: { count: { at_most: 200000 } }, unknown: USAGE_MODEL_TOTAL },
  'tokens.output': { family: 'total', summary: 'Output tokens of the run (or of one model).', example: { count: { at_most: 20000 } }, unknown: USAGE_MODEL_TOTAL },
  'tokens.thinking': { family: 'total', summary: 'Thinking tokens the usage record reports.', example: { count: { at_most: 10000 } }, unknown: USAGE_TOTAL },
  'tokens.total': { family: 'total', summary: 'Input plus output tokens of the run (or of one model).', example: { count: { at_most: 250000 }, model: 'claude-sonnet-4-5' }, unknown: USAGE_MODEL_TOTAL },
  'tool.absent': { family: 'absent', summary: 'No call in scope happened (an unscoped `tool.absent` is refused).', example: { operations: ['file.write'], subject: { glob: 'file:*.engineering/*' } }, unknown: [...CLOSURE, ...SELECTED] },
  'tool.called': { family: 'count', summary: 'Calls in scope happened, as many times as the bound says (count defaults to at least 1). A floor (`at_least`, `exactly`) is met only by calls that ran: one the harness refused (listed in its `permission_denials`, denied by the seam, named by a refusal warning) was asked for and never made, while a ceiling counts every call asked for; refusals the record does not tie to a call (a refusal warning without a `call_id`, a census count) leave a floor they may account for unknown (`calls_refused`).', example: { tool: 'Bash', args: { command: { contains: 'npm test' } }, count: { at_least: 1 } }, unknown: [...CLOSURE, ...SELECTED, 'calls_refused'] },
  'tool.error_rate': { family: 'results', summary: 'The share of calls in scope whose result is an error.', example: { tool: 'Bash', rate: { at_most: 0.2 } }, unknown: RESULTS },
  'tool.failed': { family: 'results', summary: 'How many calls in scope came back as errors.', example: { operations: ['shell'], count: { exactly: 0 } }, unknown: RESULTS },
  'tool.repeated': { family: 'count', summary: 'How many distinct calls in scope (same name, same arguments) were made more than once — the count is of such groups.', example: { tool: 'Read', count: { at_most: 2 } }, unknown: [...CLOSURE, ...SELECTED] },
  'tool.result': { family: 'results', summary: 'Every result of the calls in scope has fields that match (the vendor’s per-tool result fields).', example: { tool: 'Bash', result: { interrupted: { equals: false } } }, unknown: RESULTS },
  'tool.result_bytes': { family: 'results', summary: 'The size of the results of the calls in scope, in total or each.', example: { tools: ['Read'], operations: ['file.read'], bytes: { at_least: 1 }, per: 'each' }, unknown: RESULTS },
  ttft: { family: 'outcome', summary: 'Time to the first token (`ttft_ms`).', example: { ms: { at_most: 3000 } }, unknown: OUTCOME },
  turns: { family: 'outcome', summary: 'How many model turns the run took (`num_turns`): each request the agent loop made to the model, as Claude Code and b10x count them and `--max-turns` limits them. dsh and Reef’s native log count their steps; Codex and Gemini CLI count turns by the user’s prompts and record no count of these, so the row is unknown over their records (`api_requests` counts the requests a rollout records).', example: { count: { at_most: 30 } }, unknown: OUTCOME },
  'usage.share': { family: 'requests', summary: 'One usage field’s share of the run, summed across requests.', example: { field: 'cache_read_input_tokens', at_least: 0.3 }, unknown: ['no_requests', 'field_absent', 'ratio_undefined', 'requests_unmarked', 'subagent_requests_unseen', ...CLOSURE] },
  'usage.trend': { family: 'requests', summary: 'One usage field never goes down (or never up) from request to request.', example: { field: 'input_tokens', trend: 'non_decreasing' }, unknown: ['no_requests', 'field_absent', 'series_did_not_move', 'requests_unmarked', 'subagent_requests_unseen', ...CLOSURE] },
}

/** What each unknown reason means, in a sentence. */
const REASONS: Record<UnknownReasonName, string> = {
  no_session_start: 'the transcript records no session start',
  no_run_outcome: 'the transcript records no terminal result',
  sessions_concatenated: 'the transcript concatenates sessions, each with its own terminal record, and each record’s figures are its own session’s: none is the run’s',
  no_rate_limit_event: 'the transcript records no rate-limit state',
  no_thinking_estimate: 'the transcript records no thinking estimate',
  no_final_text: 'the run produced no final assistant text',
  subagent_usage_apart: 'subagents made model requests the terminal record’s usage leaves out (Claude Code’s `result` sums the main conversation’s alone; its `modelUsage` and cost count every agent’s): a total read off usage is a lower bound, and a model’s (`model:`) is whole',
  subagent_requests_unseen: 'subagents made model requests the transcript may not all show (Claude Code and Qwen Code stream a foreground agent’s requests but not its last, whose answer reaches the run as the agent call’s result): a count of requests is a lower bound, and a request’s usage may be missing from a trend or a share',
  calls_after_last_text: 'the run called tools after its last text and wrote none after them: it ended working (a turn cut short at a call, a command timed out), and that text is not a final answer',
  field_absent: 'the record is there but does not carry the field (`null` is absence, never a no)',
  nothing_in_scope: 'no tool call matches the selector',
  never_occurred: 'one side of the ordering never happened',
  calls_refused: 'the harness refused calls without naming which (a refusal warning without a `call_id`, a census count), and the calls that decide the row may be among them: a refused call never ran',
  no_result_correlated: 'a call in scope has no correlated result — a truncated transcript, not a bad result',
  result_field_absent: 'a correlated result does not carry the field the expectation reads (for a size, `content`: the result recorded neither its content nor a byte count, as a b10x `tool-completed` does)',
  timestamp_absent: 'a timestamp the duration needs was not recorded',
  opaque_events: 'records the adapter could not read could have changed the answer (a count under them is a lower bound)',
  unclassified_calls: 'calls of tools no operation table knows could have changed the answer of a selector by operation, or by subject alone',
  programs_unnamed: 'a shell line named the program it ran only through an expansion (`$TOOL x`), so a selector by subject cannot rule its call out',
  operands_unread: 'a call named a word a selector by file subject would match where no reader can tell which files it touched — given to a program or MCP tool nobody reads (`git rm x`, `python3 s.py x`, an MCP `move_file`; the file a program was run from: `./scripts/x.sh`; for a selector by a file operation, any MCP tool not known only to read: `mcp__filesystem__write_file {path}`), a folder it may work in (`cd d`, a path inside the folder a `cd`, a kept shell, `git -C` or `env -C` moved to) or everything under one it goes down through (`rm -rf d`, `grep -r x d`, `find d -delete`: `d/**`; `grep -r x` given no path, `rg --hidden x`, `ack x`, `trufflehog filesystem .`, `repomix`, `tar czf a.tgz .`, `rsync -a . host:x`: `./**`; `rg x`, which skips what is hidden: `./**/!.*`), a word the shell expands to paths nobody knows (`rm $F`, `xargs rm`, `src/{a,b}`, `~/x`), a path glob that chose its files (`Grep {glob}`, `rg -g`, `read_many_files {include}`; a search’s or a listing’s that names no folder at any depth: `Glob {pattern: "out.ts"}` is `**/out.ts`), a search given no path (`Grep {pattern}`: `./**`; for a selector by `file.read`, any search, which reads what lies under its path: `Grep {path: ".env"}`), or a file its line writes that no word names (`npm install x` writes `package.json`; `git checkout -- .`, everything here) — so the selector cannot rule the call out',
  shell_files: 'a shell call read or wrote a file a selector by a file operation would match while its harness named its operation `shell` alone — for `file.write` or `file.edit`, a file its line wrote, created or removed (a redirection, `tee`, `sed -i`, `cp`, `mv`, `touch`, `rm`, or a program known to write what it is given: `git rm`, `git checkout -- f`, `perl -pi`, `sort -o`, `curl -o`, `tar -x`, awk’s `print > "f"`, sed’s `w f`, a formatter’s `--write` or `--fix`, a package manager’s manifest and lock, what a scaffolder makes: `npx create-next-app my-app`, `rails new blog`: `my-app/**`, what a build tool keeps or locks: `cargo test`: `target/**`, `Cargo.lock`; `uv run`: `uv.lock`, `.venv/**`, what a program creates or compiles into: `mkdir d`, `gcc -o a`, `--outfile=x`, a path quoted in code that writes: `python3 -c "open(…, \'w\')"`), or anything under the folder a program rewrites whole (`git pull`, `git stash`, `git reset --hard`, `cargo fmt`, `patch < fix.diff`: `./**`); for `file.read`, a file its line names (`cat .env`, `git show HEAD:.env`), anything here where git printed changes no path limits (`git diff`, `git log -p`, `git grep KEY`: `./**`), or a word it gave a program nobody reads — so the selector cannot rule the call out',
  mcp_commands: 'an MCP call was given a command line (`start_process {command}`, `run_command {command}`) naming a program the selector matches, or the selector is by `shell`: its tool may have run the line as a shell would, though the harness named its operation `mcp.call` alone, so the selector cannot rule the call out',
  session_folder_unknown: 'a call named an absolute path (`/x/src/a.ts`) that a selector written relative (`file:src/*`) may name, and the session named no folder it opened in to read the path against (Codex `exec --json`, opencode’s `run --format json`, Gemini CLI’s stream-json and session files, ATIF), so the selector cannot rule the call out; where the session names its folder, its absolute paths are read relative to it',
  files_unnamed: 'a call of a file operation (`file.read`, `file.write`, `file.edit`) named no file — hermes’ `skill_manage {name}`, an `apply_patch` whose body nobody could read, a stream that resolved no subject — so a selector by file subject cannot rule it out',
  stream_not_closed: 'nothing states that the transcript is the whole run, so an absence, a ceiling that holds, a claim about every call or the final answer cannot be told from a hole',
  subagent_calls_unseen: 'a subagent ran whose calls the harness wrote to its own file, not to this transcript',
  process_input_unseen: 'a process the run started could have been sent input this transcript does not show (still running at its end, or a shell or interpreter reading its input)',
  nested_calls_unseen: 'a call ran code that called tools, and the harness recorded those calls elsewhere, not in this transcript',
  model_not_used: 'the run never used the model the expectation names',
  run_cut_by_rate_limit: 'a session ended after a rejected rate-limit state: nobody found out how it would have ended',
  series_did_not_move: 'the field never moved across the requests, so a direction is evidence for neither',
  no_requests: 'the transcript records no API request',
  requests_unmarked: 'the record sums usage over several model requests (Codex `exec --json`, Gemini CLI’s stream-json and json output), so a count of requests is only a lower bound and no per-request series exists',
  ratio_undefined: 'the ratio’s denominator is zero',
}

interface JsonSchema {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  description?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  anyOf?: JsonSchema[]
  items?: JsonSchema
  additionalProperties?: JsonSchema | boolean
}

/** Text from the schema, safe inside a Markdown table on a VitePress (Vue) page. */
function prose(text: string | undefined): string {
  return (text ?? '').replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

interface SchemaDocument {
  properties: { expectations: { items: { properties: { expect: { anyOf: JsonSchema[] } } } } }
  $defs: Record<string, JsonSchema>
}

function typeOf(schema: JsonSchema): string {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() as string
    return `[${name}](./index.md#${name.toLowerCase()})`
  }
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(' \\| ')
  if (schema.anyOf) return schema.anyOf.map(typeOf).filter((type) => type !== '').join(' \\| ')
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']).filter((type) => type !== 'null')
  if (types.length === 0) return ''
  if (types[0] === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') return `map of name → ${typeOf(schema.additionalProperties)}`
  if (types[0] === 'array') return `list of ${schema.items ? typeOf(schema.items) : 'any'}`
  if (types[0] === 'object' && schema.properties) return `{ ${Object.keys(schema.properties).join(', ')} }`
  return types.join(' \\| ')
}

function parameterRows(params: JsonSchema, defs: Record<string, JsonSchema>): string[] {
  let shape = params
  const lead: string[] = []
  if (params.$ref) {
    const name = params.$ref.split('/').pop() as string
    lead.push(`The parameters are a [${name}](./index.md#${name.toLowerCase()}) themselves.`, '')
    shape = defs[name] as JsonSchema
  }
  if (shape.anyOf) return [...lead, 'Exactly one of:', '', ...shape.anyOf.map((branch) => `- \`${Object.keys(branch.properties ?? {})[0]}\` — ${prose(branch.description)}`.trimEnd())]
  const properties = Object.entries(shape.properties ?? {})
  if (properties.length === 0) return [...lead, 'No parameters.']
  const required = new Set(shape.required ?? [])
  return [
    ...lead,
    '| parameter | type | required | what |',
    '|---|---|---|---|',
    ...properties.map(([name, schema]) => `| \`${name}\` | ${typeOf(schema)} | ${required.has(name) ? 'yes' : 'no'} | ${prose(schema.description)} |`),
  ]
}

/** The example as a whole `trace-spec/1` document, refused here if the reader would refuse it. */
function exampleDocument(kind: KindName, example: unknown): string {
  const document = { format: 'trace-spec/1', id: `example/${kind.replaceAll(/[._]/g, '-')}`, expectations: [{ id: 'the-expectation', expect: { [kind]: example } }] }
  const read = parseSpecValue(document)
  if (!read.ok) throw new Error(`the ${kind} example does not read as trace-spec/1: ${read.refusals.map((refusal) => `${refusal.code} ${refusal.message}`).join('; ')}`)
  return stringify(document)
}

const GENERATED = '<!-- generated by `npm run generate:kind-docs` from src/trace/spec (schema, kinds) and scripts/trace-spec-kind-docs.ts; edit those, not this page -->'

function kindPage(kind: KindName, schema: SchemaDocument): string {
  const doc = KIND_DOCS[kind]
  const family: Family = FAMILIES[doc.family]
  const variant = schema.properties.expectations.items.properties.expect.anyOf.find((branch) => branch.properties?.[kind] !== undefined)
  if (!variant) throw new Error(`the schema has no expect variant for ${kind}`)
  const aliases = Object.entries(KIND_ALIASES).filter(([, target]) => target === kind).map(([alias]) => `\`${alias}\``)
  return [
    GENERATED,
    '',
    `# \`${kind}\``,
    '',
    doc.summary,
    ...(aliases.length > 0 ? ['', `Also spelled ${aliases.join(', ')} on input; reports print \`${kind}\`.`] : []),
    '',
    '## Parameters',
    '',
    ...parameterRows(variant.properties?.[kind] as JsonSchema, schema.$defs),
    '',
    '## Example',
    '',
    '```yaml',
    exampleDocument(kind, doc.example).trimEnd(),
    '```',
    '',
    '## Verdicts',
    '',
    `Reads ${family.reads}.`,
    '',
    `- **ok** — ${family.ok}.`,
    `- **gap** — ${family.gap}.`,
    `- **unknown** — ${doc.unknown.length === 0 ? 'never from the transcript itself; only a refusal stops it' : doc.unknown.map((reason) => `\`${reason}\`: ${REASONS[reason]}`).join('; ')}.`,
    '',
    'Every verdict cites the events that decided it. `on_unknown: gap` turns this row’s unknown into a gap; `severity: advisory` reports it without gating.',
    '',
  ].join('\n')
}

function indexPage(schema: SchemaDocument): string {
  const definition = (name: string): string[] => {
    const def = schema.$defs[name] as JsonSchema
    const rows = def.anyOf
      ? def.anyOf.map((branch) => `- \`${Object.keys(branch.properties ?? {})[0]}\` — ${prose(branch.description)}`.trimEnd())
      : Object.entries(def.properties ?? {}).map(([key, property]) => `- \`${key}\`${property.description ? ` — ${prose(property.description)}` : ''}`)
    return [`### ${name}`, '', prose(def.description), '', ...rows, '']
  }
  return [
    GENERATED,
    '',
    '# Trace-spec kinds',
    '',
    `\`trace-spec/1\` has ${KIND_NAMES.length} expectation kinds, upstream’s (\`ExpectationKind::NAMES\`). A kind is the single key of \`expect:\`, holding its parameters. Each page gives the parameters (from the JSON Schema the package ships as \`vitest-harness/trace-spec.schema.json\`), an example the reader accepts, and what makes the kind **ok**, **gap** or **unknown**. How to write and check a spec: [Trace specifications](../../guide/trace-specs.md).`,
    '',
    '| kind | what it checks |',
    '|---|---|',
    ...KIND_NAMES.map((kind) => `| [\`${kind}\`](./${kind}.md) | ${KIND_DOCS[kind].summary.replaceAll('|', '\\|')} |`),
    '',
    '## Shared shapes',
    '',
    ...definition('CountBound'),
    ...definition('RangeBound'),
    ...definition('CallSelector'),
    ...definition('FieldMatcher'),
    '## Unknown reasons',
    '',
    'An **unknown** names what the transcript lacked; the report prints it with its details (which field, which events).',
    '',
    '| reason | means |',
    '|---|---|',
    ...Object.entries(REASONS).map(([reason, sentence]) => `| \`${reason}\` | ${sentence} |`),
    '',
  ].join('\n')
}

/** Every kind's documented example, as the `expect:` of one expectation (tests check against them all). */
export function kindExamples(): Array<{ kind: KindName; expect: Record<string, unknown> }> {
  return KIND_NAMES.map((kind) => ({ kind, expect: { [kind]: KIND_DOCS[kind].example } }))
}

/** Every generated page, by its path under docs/reference/trace-spec-kinds/. */
export function traceSpecKindPages(): Map<string, string> {
  const schema = JSON.parse(traceSpecJsonSchemaText()) as SchemaDocument
  const pages = new Map<string, string>([['index.md', indexPage(schema)]])
  for (const kind of KIND_NAMES) pages.set(`${kind}.md`, kindPage(kind, schema))
  return pages
}
