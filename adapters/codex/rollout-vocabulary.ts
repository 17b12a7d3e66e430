import type { RecordMeaning, RecordVocabulary } from '../shared/vocabulary.js'

// Why an `event_msg` carries nothing a check could count, by family. The rollout persists each
// model output item as a `response_item` (codex-rs/protocol `ResponseItem`) and, beside it, the
// UI events (`EventMsg`) announcing the same thing; the reader counts the item once.
const ECHO = 'a UI echo of a response_item the rollout also records (text, reasoning, an item); the item is read, the echo would count it twice'
const CALL_STAGE =
  'a stage of a call the rollout records as its response_item (function_call, custom_tool_call, local_shell_call, web_search_call…): begin/end/progress/approval of that one call, or a command the user ran with `!`, which is no call of the agent'
const APPROVAL = 'a request for, or an assessment of, an approval or a user answer around a call the response_item already records'
const BOOKKEEPING = 'session bookkeeping (settings, names, goals, MCP start-up, review mode, undo, compaction notice, hooks): no call, no text, no usage'

const becomes = (...events: string[]): RecordMeaning => ({ becomes: events })
const silent = (reason: string): RecordMeaning => ({ carriesNoToolCall: reason })

function family(types: readonly string[], meaning: RecordMeaning): Record<string, RecordMeaning> {
  return Object.fromEntries(types.map((type) => [`event_msg/${type}`, meaning]))
}

/**
 * Every record the Codex session rollout writes (`RolloutItem`: `session_meta`, `response_item`,
 * `compacted`, `turn_context`, `event_msg`, and the 0.16x additions), every `ResponseItem` type and
 * every `EventMsg` subtype of codex-rs/protocol, and what the enriched reader makes of each. Written
 * against the rollouts of the wild corpus (CLI 0.47, 0.58, 0.63, 0.89, 0.93, Codex Desktop 0.116, 0.128,
 * Codex Desktop 0.133, 0.135, 0.169),
 * the reference rollout (0.145) and a 0.146 fixture listing the newer records (jazzyalex/agent-sessions).
 */
export const CODEX_ROLLOUT_VOCABULARY: RecordVocabulary = {
  format: 'codex/rollout-jsonl',
  harness: 'codex-cli',
  writtenAgainst: ['0.47.*', '0.58.*', '0.63.*', '0.89.*', '0.93.*', '0.104.*', '0.116.*', '0.128.*', '0.133.*', '0.135.*', '0.145.*', '0.146.*', '0.169.*'],
  records: {
    session_meta: becomes('session.started'),
    turn_context: silent('per-turn settings (cwd, model, approval and sandbox policy); the model it names is folded into session.started and usage'),
    compacted: silent('the summary (and replacement history) that stands in for earlier items after a compaction; the calls it summarises were read when they happened'),
    world_state: silent('a snapshot of what the model is shown about its environment (AGENTS.md, environments, permissions, skills)'),
    inter_agent_communication_metadata: silent('routing flags of a message between agents (whether it triggers a turn); the message itself is a response_item'),
    token_usage_record: silent('one response’s token usage; the token_count after it reports the same tokens cumulatively, and usage is read once, from there'),

    'response_item/message': becomes('text'),
    'response_item/reasoning': becomes('thinking'),
    'response_item/function_call': becomes('tool.requested'),
    // Code mode's `exec` (a script that calls tools) is said to call tools this reader may not see.
    'response_item/custom_tool_call': becomes('tool.requested', 'warning'),
    'response_item/local_shell_call': becomes('tool.requested'),
    'response_item/web_search_call': becomes('tool.requested', 'tool.result'),
    'response_item/tool_search_call': becomes('tool.requested'),
    'response_item/image_generation_call': becomes('tool.requested', 'tool.result'),
    'response_item/function_call_output': becomes('tool.result'),
    'response_item/custom_tool_call_output': becomes('tool.result'),
    'response_item/tool_search_output': becomes('tool.result'),
    'response_item/agent_message': becomes('injection'),
    'response_item/ghost_snapshot': silent('the git snapshot Codex takes so /undo can restore the tree; Codex made it, the model called nothing'),
    'response_item/compaction': silent('the encrypted summary a remote compaction returns; the calls it summarises were read when they happened'),
    'response_item/compaction_summary': silent('the encrypted summary a remote compaction returns; the calls it summarises were read when they happened'),

    'event_msg/task_started': becomes('turn.started'),
    'event_msg/turn_started': becomes('turn.started'),
    'event_msg/task_complete': becomes('turn.ended', 'session.ended'),
    'event_msg/turn_complete': becomes('turn.ended', 'session.ended'),
    'event_msg/turn_aborted': becomes('turn.ended'),
    'event_msg/token_count': becomes('usage', 'rate_limit'),
    'event_msg/user_message': becomes('injection'),
    // The user's turn; and, while a code-mode script runs, each command it ran (no response_item holds those).
    'event_msg/item_completed': becomes('injection', 'tool.requested', 'tool.result'),
    'event_msg/error': becomes('warning'),
    'event_msg/stream_error': becomes('warning'),
    'event_msg/warning': becomes('warning'),
    ...family(
      [
        'agent_message',
        'agent_message_delta',
        'agent_message_content_delta',
        'agent_reasoning',
        'agent_reasoning_delta',
        'agent_reasoning_raw_content',
        'agent_reasoning_raw_content_delta',
        'agent_reasoning_section_break',
        'reasoning_content_delta',
        'reasoning_raw_content_delta',
        'plan_delta',
        'item_started',
        'raw_response_item',
      ],
      silent(ECHO),
    ),
    ...family(
      [
        'exec_command_begin',
        'exec_command_output_delta',
        'exec_command_end',
        'terminal_interaction',
        'patch_apply_begin',
        'patch_apply_end',
        'turn_diff',
        'mcp_tool_call_begin',
        'mcp_tool_call_end',
        'web_search_begin',
        'web_search_end',
        'image_generation_begin',
        'image_generation_end',
        'view_image_tool_call',
        'dynamic_tool_call_request',
        'dynamic_tool_call_response',
        'plan_update',
        'collab_agent_spawn_begin',
        'collab_agent_spawn_end',
        'collab_agent_interaction_begin',
        'collab_agent_interaction_end',
        'collab_waiting_begin',
        'collab_waiting_end',
        'collab_close_begin',
        'collab_close_end',
        'collab_resume_begin',
        'collab_resume_end',
        'sub_agent_activity',
      ],
      silent(CALL_STAGE),
    ),
    ...family(['exec_approval_request', 'apply_patch_approval_request', 'request_user_input', 'request_permissions', 'elicitation_request', 'guardian_assessment'], silent(APPROVAL)),
    ...family(
      [
        'session_configured',
        'thread_settings_applied',
        'thread_name_updated',
        'thread_goal_updated',
        'thread_rolled_back',
        'context_compacted',
        'model_reroute',
        'mcp_startup_update',
        'mcp_startup_complete',
        'mcp_list_tools_response',
        'list_custom_prompts_response',
        'list_skills_response',
        'list_remote_skills_response',
        'remote_skill_downloaded',
        'skills_update_available',
        'get_history_entry_response',
        'background_event',
        'deprecation_notice',
        'undo_started',
        'undo_completed',
        'entered_review_mode',
        'exited_review_mode',
        'shutdown_complete',
        'conversation_path',
        'hook_started',
        'hook_completed',
        'realtime_conversation_started',
        'realtime_conversation_realtime',
        'realtime_conversation_closed',
      ],
      silent(BOOKKEEPING),
    ),
  },
}
