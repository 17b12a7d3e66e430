import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// Counted from the raw bytes with JSON.parse, never through the adapter: a call is an item of a
// call type, however many item.started/updated/completed records it has (its id, once).
const CALL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'collab_tool_call', 'web_search', 'todo_list'])

/** Calls and shell call ids of one `codex exec --json` stdout, read line by line. */
export function countExecJson(path: string): RawCount {
  const calls = new Set<string>()
  const shellCallIds = new Set<string>()
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    let record: { type?: unknown; item?: { id?: unknown; type?: unknown } }
    try {
      record = JSON.parse(line) as typeof record
    } catch {
      continue
    }
    const item = record.item
    if (typeof record.type !== 'string' || !record.type.startsWith('item.') || !item || typeof item.id !== 'string') continue
    if (typeof item.type !== 'string' || !CALL_ITEMS.has(item.type)) continue
    calls.add(item.id)
    if (item.type === 'command_execution') shellCallIds.add(item.id)
  }
  return { calls: calls.size, shellCallIds: [...shellCallIds] }
}

describeWildFormat({ folder: 'codex-exec-json', format: 'codex/exec-json', count: countExecJson })
