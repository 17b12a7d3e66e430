import type { ToolOperationTable } from '../shared/operations.js'

/**
 * Gemini CLI's tools by operation, as 0.61 declares them to the model (`functionDeclarations` of
 * its tool registry) and names them in stream-json and session files, plus the names older
 * releases used (`search_file_content`, `delegate_to_agent`…) so their transcripts classify too.
 */
export const GEMINI_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    read_file: 'file.read',
    read_many_files: 'file.read',
    write_file: 'file.write',
    replace: 'file.edit',
    edit: 'file.edit',
    glob: 'dir.list',
    list_directory: 'dir.list',
    grep_search: 'search',
    search_file_content: 'search',
    grep: 'search',
    run_shell_command: 'shell',
    // The output of a process `run_shell_command` started in the background: reading it is part of that shell run.
    read_background_output: 'shell',
    web_fetch: 'web.read',
    google_web_search: 'web.read',
    write_todos: 'task.todo',
    tracker_create_task: 'task.todo',
    tracker_update_task: 'task.todo',
    tracker_get_task: 'task.todo',
    tracker_list_tasks: 'task.todo',
    tracker_add_dependency: 'task.todo',
    tracker_visualize: 'task.todo',
    activate_skill: 'skill.load',
    invoke_agent: 'subagent.spawn',
    delegate_to_agent: 'subagent.spawn',
    codebase_investigator: 'subagent.spawn',
    list_mcp_resources: 'mcp.call',
    read_mcp_resource: 'mcp.call',
  },
  prefixes: [['mcp_', 'mcp.call']],
  inert: {
    update_topic: 'sets the title and summary the CLI shows for the conversation; it touches no file, process or network',
    save_memory: 'appends a fact to the CLI’s own GEMINI.md memory, which it manages itself, not a workspace file the run works on',
    ask_user: 'asks the user a question and waits for the answer',
    enter_plan_mode: 'switches the CLI into plan mode; it performs nothing itself',
    exit_plan_mode: 'leaves plan mode; it performs nothing itself',
    complete_task: 'a subagent reports that its task is done; the spawn is the operation',
    get_internal_docs: 'reads the CLI’s own bundled documentation, not the workspace',
    list_background_processes: 'lists the processes `run_shell_command` already started; it runs nothing',
    take_snapshot: 'records the CLI’s own checkpoint of the conversation',
  },
  pathKeys: ['file_path', 'dir_path', 'absolute_path', 'path'],
  pathListKeys: ['include', 'paths'],
  commandKeys: ['command'],
}
