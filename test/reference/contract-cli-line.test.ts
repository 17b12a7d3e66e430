import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { referenceFile } from './paths.js'

// `vitest-harness contract b10x --contract`, with nothing else named, against the line upstream's
// `metaharness conformance b10x --contract` printed: the same seven vectors, the same bytes.
const reference = readFileSync(referenceFile('metaharness', 'contract', 'contract-result-b10x.json'), 'utf8')

describe("contract b10x --contract prints upstream's line", () => {
  it('byte for byte, exit 0, nothing on stderr', async () => {
    const run = await runCli(['contract', 'b10x', '--contract'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(Buffer.from(run.stdout).equals(Buffer.from(reference))).toBe(true)
  })

  it("keeps the project's own vectors out of it: they change the line only when asked for", async () => {
    const run = await runCli(['contract', 'b10x', '--contract', '--with-project-vectors'])
    expect(run.code).toBe(0)
    const ours = JSON.parse(run.stdout) as Record<string, unknown>
    const theirs = JSON.parse(reference) as Record<string, unknown>
    expect(ours['checked']).toBeGreaterThan(theirs['checked'] as number)
    expect({ ...ours, checked: theirs['checked'] }).toEqual(theirs)
  })
})
