import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// opencode's own tool whose call runs a command line.
const SHELL_TOOLS = new Set(['bash'])

interface ToolPart {
  type?: string
  tool?: string
  callID?: string
}

/** `run --format json` stdout: every tool_use record is one settled call, its part naming the tool. */
function countRunJson(text: string): RawCount {
  const shellCallIds: string[] = []
  let calls = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const record = JSON.parse(line) as { type?: string; part?: ToolPart }
    if (record.type !== 'tool_use') continue
    calls += 1
    if (SHELL_TOOLS.has(record.part?.tool ?? '')) shellCallIds.push(record.part?.callID ?? '')
  }
  return { calls, shellCallIds }
}

/** An export document (`{info, messages: [{info, parts}]}`): every part of type `tool` is one call. */
function countExport(text: string): RawCount {
  const document = JSON.parse(text) as { messages?: { parts?: ToolPart[] }[] }
  const shellCallIds: string[] = []
  let calls = 0
  for (const message of document.messages ?? []) {
    for (const part of message.parts ?? []) {
      if (part.type !== 'tool') continue
      calls += 1
      if (SHELL_TOOLS.has(part.tool ?? '')) shellCallIds.push(part.callID ?? '')
    }
  }
  return { calls, shellCallIds }
}

function count(path: string): RawCount {
  const text = readFileSync(path, 'utf8')
  return path.endsWith('.json') ? countExport(text) : countRunJson(text)
}

describeWildFormat({
  folder: 'opencode',
  format: 'opencode-run-json',
  count,
  formatOf: {
    'agentlogs-export-all-tools.json': 'opencode-export-json',
    'agentlogs-events-crud.json': 'opencode-export-json',
  },
})
