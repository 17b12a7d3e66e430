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
    ToolSearch: 'search',
    Bash: 'shell',
    // Reading a background shell's output or stopping it is shell work on the same process.
    BashOutput: 'shell',
    KillShell: 'shell',
    KillBash: 'shell',
    PowerShell: 'shell',
    // 2.1's Monitor runs a shell command and reports each line it prints; the harness checks the
    // command as it checks Bash's (on 2.1.328 a Monitor `rm …` was refused as a shell command).
    Monitor: 'shell',
    WebFetch: 'web.read',
    WebSearch: 'web.read',
    // The API's own server tools, as `server_tool_use` blocks name them.
    web_search: 'web.read',
    web_fetch: 'web.read',
    Skill: 'skill.load',
    SlashCommand: 'skill.load',
    Task: 'subagent.spawn',
    Agent: 'subagent.spawn',
    // A script of agent()/parallel()/pipeline() calls: every agent in it is a subagent.
    Workflow: 'subagent.spawn',
    ListMcpResourcesTool: 'mcp.call',
    ReadMcpResourceTool: 'mcp.call',
    TodoWrite: 'task.todo',
    TodoRead: 'task.todo',
    TaskCreate: 'task.todo',
    TaskUpdate: 'task.todo',
    TaskList: 'task.todo',
    TaskGet: 'task.todo',
  },
  prefixes: [['mcp__', 'mcp.call']],
  inert: {
    ExitPlanMode: 'asks the user to approve a plan; touches nothing',
    EnterPlanMode: 'switches the harness into plan mode; touches nothing',
    AskUserQuestion: 'asks the user a question; touches nothing',
    TaskOutput: 'reads what a background task wrote; the task’s own calls are recorded where it ran',
    TaskStop: 'stops a background task the run started',
    EnterWorktree: 'switches the session into a git worktree the harness manages',
    ExitWorktree: 'leaves the harness-managed git worktree',
    ReportFindings: 'hands a review’s findings to the harness to show; touches nothing',
    ListAgents: 'lists the agents the run started',
    SendMessage: 'sends a message to an agent the run started; that agent’s calls are its own',
    CronCreate: 'schedules a prompt for a later turn, whose calls are that turn’s own',
    CronDelete: 'cancels a scheduled prompt',
    CronList: 'lists the scheduled prompts',
    ScheduleWakeup: 'schedules the next /loop turn, whose calls are that turn’s own',
  },
  pathKeys: ['file_path', 'notebook_path', 'path'],
  commandKeys: ['command'],
}
