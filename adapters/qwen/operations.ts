import type { ToolOperationTable } from '../shared/operations.js'

/**
 * Qwen Code's tools by operation, as 0.24 names them (`ToolNames` in its core, and the
 * declarations it sends the model), plus the names of the Gemini CLI fork's earlier releases
 * (`list_directory`, `read_many_files`, `task`…) so their transcripts classify too. A deferred
 * tool (`web_fetch` among them in 0.24) is called through `tool_call {name, arguments}`: the call is
 * read as that tool. `exec`, `monitor` and the media tools are left out: what they do depends on
 * their arguments, so a check over operations says unknown for them.
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
  },
  pathKeys: ['file_path', 'absolute_path', 'notebook_path', 'path', 'dir_path'],
  commandKeys: ['command'],
}
