import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { parseScenario, type Scenario } from '../../recorders/index.js'

/**
 * A fresh scratch folder for the files a test writes, under the run's scratch root (which the
 * global setup scans for secrets at the end of the run).
 */
export function scratchDir(prefix = 'vh-rec-'): string {
  const root = (inject as (key: string) => string | undefined)('vitestHarnessScratchRoot') ?? tmpdir()
  return mkdtempSync(join(root, prefix))
}

/** Text with multi-byte characters, so byte offsets land inside code points too. */
export const TEXT = 'Reading the readme — ünïcode ✓ 🚀 done.'

/** One turn with text and a tool call, then a plain answer: the shape every wire test streams. */
export const TWO_TURNS: Scenario = parseScenario({
  scenario: 'read-then-answer',
  turns: [
    { text: TEXT, tool_calls: [{ name: 'read_file', arguments: { path: 'README.md', limit: 20 } }], usage: { input_tokens: 42, output_tokens: 9, cached_tokens: 7 } },
    { text: 'The file says: hello harness', usage: { input_tokens: 60, output_tokens: 5 } },
  ],
})

export const READ_FILE_TOOL = {
  name: 'read_file',
  description: 'Read one text file.',
  parameters: { type: 'object' as const, properties: { path: { type: 'string' }, limit: { type: 'number' } }, required: ['path'], additionalProperties: false },
}
