import { readFileSync } from 'node:fs'
import { describeWildFormat, type RawCount } from '../../helpers/wild.js'

// dsh's tools that run a command line (bash, PowerShell, a persistent terminal).
const SHELL_TOOLS = new Set(['bash', 'pwsh', 'shell', 'run_shell', 'terminal_open', 'terminal_send'])

interface Line {
  type?: string
  data?: {
    outcome?: string
    decision?: string
    callId?: string
    subCallId?: string
    name?: string
    message?: { content?: { type?: string; id?: string; name?: string; toolCallId?: string; content?: { text?: string }[] }[] }
  }
}

// What dsh's bash tool ends a nonzero exit's output with (it writes `isError: false` beside it).
const EXIT_LINE = /^\[exit code: (-?\d+)\]$/

/**
 * Every distinct call: the tool-call blocks of assistant messages, their tool/call echoes (same
 * id), and the sub-calls a run_code program made (code/ptc dispatches, by subCallId). A call is
 * refused by an approval decided `rejected`/`denied` or a hook's `block`; a shell call failed when
 * its result's last line is `[exit code: N]`, N not 0.
 */
function count(path: string): RawCount {
  const names = new Map<string, string>()
  const failedShellCallIds: string[] = []
  let refusedCalls = 0
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    const line = JSON.parse(text) as Line
    const data = line.data ?? {}
    if (line.type === 'assistant/message') {
      for (const block of data.message?.content ?? []) if (block.type === 'tool-call') names.set(block.id ?? '', block.name ?? '')
    } else if (line.type === 'tool/call') names.set(data.callId ?? '', data.name ?? '')
    else if (/^tool\/(code|ptc)-dispatch(-start)?$/.test(line.type ?? '')) names.set(data.subCallId ?? '', data.name ?? '')
    else if ((line.type === 'approval/decided' && /denied|rejected/.test(data.outcome ?? '')) || (line.type === 'hook/result' && data.decision === 'block')) refusedCalls += 1
    else if (line.type === 'tool/result') {
      for (const block of data.message?.content ?? []) {
        if (block.type !== 'tool-result' || !SHELL_TOOLS.has(names.get(block.toolCallId ?? '') ?? '')) continue
        const last = (block.content ?? []).map((part) => part.text ?? '').join('\n').trimEnd().split('\n').at(-1) ?? ''
        const code = EXIT_LINE.exec(last)?.[1]
        if (code !== undefined && code !== '0') failedShellCallIds.push(block.toolCallId ?? '')
      }
    }
  }
  const shellCallIds = [...names].filter(([, name]) => SHELL_TOOLS.has(name)).map(([id]) => id)
  return { calls: names.size, shellCallIds, failedShellCallIds, refusedCalls }
}

describeWildFormat({ folder: 'dsh', format: 'deepseek-session-jsonl', count })
