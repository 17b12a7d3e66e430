import type { ToolOperationTable } from '../shared/operations.js'

/** Codex's tools by operation, as its rollout and `exec --json` name them (0.169: `exec_command {"cmd"}`). */
export const CODEX_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    exec_command: 'shell',
    shell: 'shell',
    shell_command: 'shell',
    local_shell: 'shell',
    'container.exec': 'shell',
    command_execution: 'shell',
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
  },
  prefixes: [['mcp__', 'mcp.call']],
  pathKeys: ['path', 'file_path', 'dir_path'],
  commandKeys: ['cmd', 'command'],
}
