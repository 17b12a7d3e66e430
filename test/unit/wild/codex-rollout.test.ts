import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// Counted from the raw bytes with JSON.parse, never through the adapter: every call a rollout
// records is one `response_item` of a call type, the model's functions and the Responses API's
// built-in calls alike.
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call'])
// Codex's tools that run a command line or an argv (or feed a running one, `write_stdin`).
const SHELL_TOOLS = new Set(['exec_command', 'shell', 'shell_command', 'local_shell', 'container.exec', 'write_stdin'])

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

// A shell call that is only an `apply_patch` here-document (after an optional `cd <dir> &&`), or the
// argv `["apply_patch", patch]`, is applied by Codex itself, in no shell.
const PATCH_SCRIPT = /^(?:cd [^\s&;|]+ && )?(?:apply_patch|applypatch) <<-?\s*['"]?[A-Za-z_]+['"]?\n/

function runsAsPatch(argumentsText: string | undefined): boolean {
  let parsed: { cmd?: unknown; command?: unknown }
  try {
    parsed = JSON.parse(argumentsText ?? '') as typeof parsed
  } catch {
    return false
  }
  const command = Array.isArray(parsed.command) ? parsed.command : []
  const script = text(parsed.cmd) ?? text(parsed.command) ?? (command.length === 3 ? text(command[2]) : undefined)
  return (command.length === 2 && /^(apply_patch|applypatch)$/.test(String(command[0]))) || (script !== undefined && PATCH_SCRIPT.test(script))
}

/**
 * The exit code a shell call's output names, read plainly: `Process exited with code N` in the
 * text 0.5x and later print, or `metadata.exit_code` in the JSON older releases wrote.
 */
function exitCodeOf(output: unknown): number | undefined {
  const value = typeof output === 'string' ? output : typeof output === 'object' && output !== null ? text((output as { content?: unknown }).content) : undefined
  if (value === undefined) return undefined
  try {
    const parsed = JSON.parse(value) as { metadata?: { exit_code?: unknown } }
    if (typeof parsed.metadata?.exit_code === 'number') return parsed.metadata.exit_code
  } catch {
    // Plain text.
  }
  const match = /Process exited with code (-?\d+)/.exec(value)
  return match ? Number(match[1]) : undefined
}

/** Calls and shell call ids of one rollout, read line by line. */
export function countRollout(path: string): RawCount {
  let calls = 0
  const shellCallIds: string[] = []
  const failedShellCallIds: string[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    let record: { type?: unknown; payload?: Record<string, unknown> }
    try {
      record = JSON.parse(line) as typeof record
    } catch {
      continue
    }
    const payload = record.payload
    if (record.type === 'response_item' && payload && payload['type'] === 'function_call_output') {
      const id = text(payload['call_id'])
      const code = exitCodeOf(payload['output'])
      if (id !== undefined && shellCallIds.includes(id) && code !== undefined && code !== 0) failedShellCallIds.push(id)
      continue
    }
    if (record.type !== 'response_item' || !payload || !CALL_ITEMS.has(text(payload['type']) ?? '')) continue
    calls += 1
    const type = payload['type']
    const id = text(payload['call_id']) ?? text(payload['id'])
    if (id === undefined) continue
    const shellTool = (type === 'function_call' || type === 'custom_tool_call') && SHELL_TOOLS.has(text(payload['name']) ?? '')
    if (type === 'local_shell_call' || (shellTool && !runsAsPatch(text(payload['arguments'])))) shellCallIds.push(id)
  }
  return { calls, shellCallIds, failedShellCallIds }
}

describeWildFormat({ folder: 'codex-rollout', format: 'codex/rollout-jsonl', count: countRollout })
