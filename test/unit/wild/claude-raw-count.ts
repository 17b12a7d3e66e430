import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { RawCount } from '../../helpers/wild.js'

/**
 * An independent count of a Claude Code transcript's tool calls, by plain `JSON.parse` over the
 * raw bytes: every `tool_use` (and API `server_tool_use`) block of an assistant record, once per
 * id (a session file can repeat one message across lines). Shell calls are `Bash`'s. Reads a
 * JSONL file (stream-json, a session file, `{timestamp, raw}`-wrapped lines), a JSON array, or a
 * directory of them.
 */
export function countClaudeCalls(path: string): RawCount {
  const ids = new Set<string>()
  const shell = new Set<string>()
  let anonymous = 0
  const record = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return
    const object = value as Record<string, unknown>
    if (typeof object['raw'] === 'string' && 'timestamp' in object) return record(JSON.parse(object['raw']))
    if (object['type'] !== 'assistant') return
    const message = object['message'] as { content?: unknown } | undefined
    if (!message || !Array.isArray(message.content)) return
    for (const block of message.content as { type?: string; id?: string; name?: string }[]) {
      if (block.type !== 'tool_use' && block.type !== 'server_tool_use') continue
      if (typeof block.id !== 'string') {
        anonymous += 1
        continue
      }
      ids.add(block.id)
      if (block.name === 'Bash') shell.add(block.id)
    }
  }
  const file = (name: string): void => {
    const text = readFileSync(name, 'utf8')
    if (text.trimStart().startsWith('[')) {
      for (const value of JSON.parse(text) as unknown[]) record(value)
      return
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        continue
      }
      record(value)
    }
  }
  const walk = (name: string): void => {
    if (!statSync(name).isDirectory()) return file(name)
    for (const entry of readdirSync(name)) {
      const child = join(name, entry)
      if (statSync(child).isDirectory() || entry.endsWith('.jsonl') || entry.endsWith('.json')) walk(child)
    }
  }
  walk(path)
  return { calls: ids.size + anonymous, shellCallIds: [...shell] }
}
