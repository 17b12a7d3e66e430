import { CLAUDE_TOOL_OPERATIONS } from '../claude/operations.js'
import { CODEX_TOOL_OPERATIONS } from '../codex/operations.js'
import { EDITOR_COMMANDS, type ToolOperationTable } from '../shared/operations.js'

/**
 * An ATIF trajectory keeps the tool names of the agent that made it: Harbor's converter for a
 * Claude Code run writes `Bash`, `Edit`, `Write`; terminus-2 writes `bash_command`. So the table
 * that classifies a call is chosen by the trajectory's `agent.name`, never one table for all.
 */

/** Terminus-2 (Harbor's own agent): keystrokes sent to a tmux shell, and its completion marker. */
export const TERMINUS_TOOL_OPERATIONS: ToolOperationTable = {
  tools: { bash_command: 'shell' },
  inert: { mark_task_complete: 'asks the harness to end the task; sends no keystrokes' },
  pathKeys: [],
  commandKeys: ['keystrokes'],
}

/** mini-swe-agent: one `bash` tool (Harbor's converter names a call without a name `bash` too). */
export const MINI_SWE_AGENT_TOOL_OPERATIONS: ToolOperationTable = {
  tools: { bash: 'shell' },
  pathKeys: [],
  commandKeys: ['command'],
}

/**
 * OpenHands: the CodeAct tools (`execute_bash`, `str_replace_editor`…) and the agent SDK's
 * (`terminal`, `file_editor`). An IPython cell runs arbitrary code in the sandbox, so it counts
 * as a shell: "no shell" must not pass a run that shelled out through `!cmd`.
 */
export const OPENHANDS_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    execute_bash: 'shell',
    execute_powershell: 'shell',
    execute_ipython_cell: 'shell',
    terminal: 'shell',
    str_replace_editor: 'file.edit',
    file_editor: 'file.edit',
    edit_file: 'file.edit',
    browser: 'web.read',
    fetch: 'web.read',
    task_tracker: 'task.todo',
  },
  operationByArgument: { str_replace_editor: EDITOR_COMMANDS, file_editor: EDITOR_COMMANDS },
  inert: {
    think: 'records a thought; touches nothing',
    finish: 'ends the run with a message; touches nothing',
  },
  pathKeys: ['path'],
  commandKeys: ['command'],
}

/** Gemini CLI's built-in tools, as Harbor's converter names them. */
export const GEMINI_CLI_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    run_shell_command: 'shell',
    read_file: 'file.read',
    read_many_files: 'file.read',
    write_file: 'file.write',
    replace: 'file.edit',
    list_directory: 'dir.list',
    glob: 'dir.list',
    search_file_content: 'search',
    web_fetch: 'web.read',
    google_web_search: 'web.read',
    write_todos: 'task.todo',
  },
  inert: { save_memory: "writes the user's memory note, not the workspace" },
  prefixes: [['mcp__', 'mcp.call']],
  pathKeys: ['file_path', 'absolute_path', 'path', 'dir_path'],
  pathListKeys: ['include', 'paths'],
  commandKeys: ['command'],
}

/**
 * OpenClaw's tools, as Harbor's converter keeps their names: `exec` runs a command line, and
 * `process` types into (or polls, or stops) the background session an `exec` started; `image` and `pdf` hand a
 * local file (or a URL) to a model, so they read it.
 */
export const OPENCLAW_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    exec: 'shell',
    read: 'file.read',
    write: 'file.write',
    edit: 'file.edit',
    apply_patch: 'file.edit',
    image: 'file.read',
    pdf: 'file.read',
    web_search: 'web.read',
    web_fetch: 'web.read',
    browser: 'web.read',
    sessions_spawn: 'subagent.spawn',
    // Polls, stops or types into (`write`, `paste`, `send-keys`) a session an `exec` left running,
    // most often a shell: what it types runs as surely as `exec` does (Codex's `write_stdin`).
    process: 'shell',
  },
  inert: {
    memory_search: 'searches the agent’s own memory notes',
    memory_get: 'reads one of the agent’s own memory notes',
    sessions_yield: 'ends the turn to wait for a spawned session',
    sessions_history: 'reads the transcript of one of the agent’s own sessions',
    sessions_list: 'lists the agent’s own sessions',
    sessions_send: 'sends a message to another of the agent’s sessions',
    session_status: 'reports the current session’s status',
  },
  pathKeys: ['path', 'file_path', 'image', 'pdf'],
  commandKeys: ['command'],
}

/** The table for an agent nobody named here: the usual function names an ATIF trajectory carries. */
export const ATIF_TOOL_OPERATIONS: ToolOperationTable = {
  tools: { bash_command: 'shell', bash: 'shell', shell: 'shell', read_file: 'file.read', write_file: 'file.write', edit_file: 'file.edit', list_dir: 'dir.list', web_fetch: 'web.read' },
  pathKeys: ['path', 'file_path'],
  commandKeys: ['keystrokes', 'command', 'cmd'],
}

/** `agent.name` → its tool table, as Harbor's converters (and Reef's terminus runs) name the agents. */
export const ATIF_TABLES_BY_AGENT: Readonly<Record<string, ToolOperationTable>> = {
  'claude-code': CLAUDE_TOOL_OPERATIONS,
  codex: CODEX_TOOL_OPERATIONS,
  terminus: TERMINUS_TOOL_OPERATIONS,
  'terminus-1': TERMINUS_TOOL_OPERATIONS,
  'terminus-2': TERMINUS_TOOL_OPERATIONS,
  'mini-swe-agent': MINI_SWE_AGENT_TOOL_OPERATIONS,
  openhands: OPENHANDS_TOOL_OPERATIONS,
  'openhands-sdk': OPENHANDS_TOOL_OPERATIONS,
  'gemini-cli': GEMINI_CLI_TOOL_OPERATIONS,
  openclaw: OPENCLAW_TOOL_OPERATIONS,
}

/** Terminus-2's summarization subagents write their own trajectories (`terminus-2-summarization-answers`…) with its tools. */
const TERMINUS_SUBAGENT_PREFIX = 'terminus-2-'

/** The table that classifies the calls of a trajectory whose agent is `agentName`. */
export function toolTableOfAgent(agentName: string | undefined): ToolOperationTable {
  if (agentName === undefined) return ATIF_TOOL_OPERATIONS
  if (Object.hasOwn(ATIF_TABLES_BY_AGENT, agentName)) return ATIF_TABLES_BY_AGENT[agentName] as ToolOperationTable
  if (agentName.startsWith(TERMINUS_SUBAGENT_PREFIX)) return TERMINUS_TOOL_OPERATIONS
  return ATIF_TOOL_OPERATIONS
}
