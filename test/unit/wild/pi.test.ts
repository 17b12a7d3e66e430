import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// pi's own tool whose call runs a command line.
const SHELL_TOOLS = new Set(['bash'])

/** The records of one line: one object, or several written back to back where pi lost a newline. */
function recordsOf(line: string): unknown[] {
  try {
    return [JSON.parse(line)]
  } catch {
    return line.split(/(?<=\})(?=\{"type":)/).flatMap((piece) => {
      try {
        return [JSON.parse(piece)]
      } catch {
        return []
      }
    })
  }
}

/** Every toolCall block of every assistant message, by plain JSON reading. */
function count(path: string): RawCount {
  const ids: string[] = []
  const shellCallIds: string[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    for (const record of recordsOf(line) as { type?: string; message?: { role?: string; content?: unknown } }[]) {
      if (record.type !== 'message' || record.message?.role !== 'assistant' || !Array.isArray(record.message.content)) continue
      for (const block of record.message.content as { type?: string; id?: string; name?: string }[]) {
        if (block.type !== 'toolCall') continue
        ids.push(block.id ?? '')
        if (SHELL_TOOLS.has(block.name ?? '')) shellCallIds.push(block.id ?? '')
      }
    }
  }
  return { calls: ids.length, shellCallIds }
}

describeWildFormat({ folder: 'pi', format: 'pi-session-jsonl', count })
