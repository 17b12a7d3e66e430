import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

/** `run --format json` stdout: every tool_use record is one settled call, its part naming the tool. */
function count(path: string): RawCount {
  const shellCallIds: string[] = []
  let calls = 0
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    const line = JSON.parse(text) as { type?: string; part?: { tool?: string; callID?: string } }
    if (line.type !== 'tool_use') continue
    calls += 1
    if (line.part?.tool === 'bash') shellCallIds.push(line.part.callID ?? '')
  }
  return { calls, shellCallIds }
}

describeWildFormat({ folder: 'opencode', format: 'opencode-run-json', count })
