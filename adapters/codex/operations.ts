import type { ToolOperationTable } from '../shared/operations.js'
import { interceptedApplyPatch } from './apply-patch-invocation.js'

/**
 * Codex's tools by operation, as its rollout and `exec --json` name them: the model-facing tools
 * of `codex-rs/core/src/tools` (0.169: `exec_command {"cmd"}`), the built-in Responses items the
 * rollout reader names (`local_shell`, `web_search`, `tool_search`, `image_generation`), and the
 * `exec --json` item types (`command_execution`, `file_change`, `todo_list`…).
 */
export const CODEX_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    exec_command: 'shell',
    shell: 'shell',
    shell_command: 'shell',
    local_shell: 'shell',
    'container.exec': 'shell',
    command_execution: 'shell',
    // Bytes for the stdin of a process `exec_command` left running (most often an interactive
    // shell): they run commands as surely as `exec_command` does, so "no shell" must see them.
    write_stdin: 'shell',
    apply_patch: 'file.edit',
    file_change: 'file.edit',
    read_file: 'file.read',
    view_image: 'file.read',
    list_dir: 'dir.list',
    grep_files: 'search',
    web_search: 'web.read',
    update_plan: 'task.todo',
    todo_list: 'task.todo',
    spawn_agent: 'subagent.spawn',
    list_mcp_resources: 'mcp.call',
    list_mcp_resource_templates: 'mcp.call',
    read_mcp_resource: 'mcp.call',
  },
  prefixes: [['mcp__', 'mcp.call']],
  inert: {
    request_user_input: 'asks the user a question and waits for the answer; it touches no file, process or network',
    tool_search: 'looks up tool definitions in the session’s own deferred-tool registry, not files or the web',
    image_generation: 'the model provider draws an image from a prompt; nothing on the machine is read, run or written by the call',
    send_input: 'sends a message to an agent `spawn_agent` already started; the spawn is the operation',
    resume_agent: 'wakes an agent `spawn_agent` already started; the spawn is the operation',
    wait: 'waits for agents already spawned to finish; it performs nothing itself',
    wait_agent: 'waits for agents already spawned to finish; it performs nothing itself',
    close_agent: 'closes an agent already spawned; it performs nothing on the machine',
    // 0.169's thread goal (the `goals` feature): Codex's own state, nothing on the machine.
    get_goal: 'reads the thread’s own goal',
    create_goal: 'sets the thread’s goal; it performs nothing itself',
    update_goal: 'records the goal’s progress; it performs nothing itself',
  },
  intercept: interceptedApplyPatch,
  pathKeys: ['path', 'file_path', 'dir_path'],
  commandKeys: ['cmd', 'command'],
}
