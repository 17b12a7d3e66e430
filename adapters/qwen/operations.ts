import type { ToolOperationTable } from '../shared/operations.js'

/**
 * Qwen Code's tools by operation, as 0.24 names them (`ToolNames` in its core, and the
 * declarations it sends the model), plus the names of the Gemini CLI fork's earlier releases
 * (`list_directory`, `read_many_files`, `task`…) so their transcripts classify too. A deferred
 * tool (`web_fetch` among them in 0.24) is called through `tool_call {name, arguments}`: the call is
 * read as that tool. `exec` (code mode: JavaScript that calls tools) and the media tools
 * (`zoom_image`, `record_artifact`) are left out, so a check over operations says unknown for them.
 */
export const QWEN_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    read_file: 'file.read',
    read_many_files: 'file.read',
    write_file: 'file.write',
    edit: 'file.edit',
    replace: 'file.edit',
    notebook_edit: 'file.edit',
    glob: 'dir.list',
    list_directory: 'dir.list',
    grep_search: 'search',
    search_file_content: 'search',
    run_shell_command: 'shell',
    // A shell command whose every output line becomes an event (its `command` is a shell line).
    monitor: 'shell',
    web_fetch: 'web.read',
    web_search: 'web.read',
    todo_write: 'task.todo',
    task_create: 'task.todo',
    task_update: 'task.todo',
    task_list: 'task.todo',
    skill: 'skill.load',
    agent: 'subagent.spawn',
    task: 'subagent.spawn',
    create_sub_session: 'subagent.spawn',
    read_mcp_resource: 'mcp.call',
  },
  prefixes: [['mcp__', 'mcp.call']],
  dispatchers: { tool_call: { nameKey: 'name', inputKey: 'arguments' } },
  inert: {
    save_memory: 'appends a fact to the CLI’s own QWEN.md memory, which it manages itself, not a workspace file the run works on',
    ask_user_question: 'asks the user a question and waits for the answer',
    enter_plan_mode: 'switches the CLI into plan mode; it performs nothing itself',
    exit_plan_mode: 'leaves plan mode; it performs nothing itself',
    get_goal: 'reads the CLI’s own Goal state',
    update_goal: 'proposes that the Goal is complete or blocked; a verifier decides, and nothing is performed',
    list_agents: 'lists the subagents already running; it starts nothing',
    tool_search: 'reviews the declarations of deferred tools; it calls none',
    task_stop: 'stops a background task the run started',
    send_message: 'sends a message to a subagent the run started; that agent’s calls are its own',
    report_findings: 'hands a review’s findings to the CLI to show; touches nothing',
    enter_worktree: 'switches the session into a git worktree the CLI manages',
    exit_worktree: 'leaves the CLI-managed git worktree',
  },
  pathKeys: ['file_path', 'absolute_path', 'notebook_path', 'path', 'dir_path'],
  pathListKeys: ['include', 'paths'],
  commandKeys: ['command'],
}
