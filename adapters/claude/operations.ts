import type { ToolOperationTable } from '../shared/operations.js'

/** Claude Code's tools by operation (the names its stream-json, session file and hook use alike). */
export const CLAUDE_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    Read: 'file.read',
    NotebookRead: 'file.read',
    Write: 'file.write',
    Edit: 'file.edit',
    MultiEdit: 'file.edit',
    NotebookEdit: 'file.edit',
    Glob: 'dir.list',
    LS: 'dir.list',
    Grep: 'search',
    Bash: 'shell',
    WebFetch: 'web.read',
    WebSearch: 'web.read',
    Skill: 'skill.load',
    Task: 'subagent.spawn',
    Agent: 'subagent.spawn',
    TodoWrite: 'task.todo',
  },
  prefixes: [['mcp__', 'mcp.call']],
  pathKeys: ['file_path', 'notebook_path', 'path'],
  commandKeys: ['command'],
}
