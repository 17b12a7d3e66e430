import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CassetteAppender, NODE_CASSETTE_FILES, type CassetteFiles } from '../../../recorders/provider/cassette-writer.js'
import { parseScenario, readCassette, serializeCassette, startProvider, writeCassette, type Interaction } from '../../../recorders/index.js'
import { scratchDir } from '../../helpers/provider.js'

// Record mode appends each interaction (the bytes already written stay as they are) instead of
// rewriting the whole cassette after each one, and cleans the temp files a killed write left.
const SCENARIO = parseScenario({ scenario: 'append', turns: [{ text: 'ok' }] })
const body = (index: number) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `question ${index}` }] })

function interaction(index: number): Interaction {
  return {
    wire: 'openai-chat',
    request: { method: 'POST', path: '/v1/chat/completions', headers: {}, body: { model: 'm', messages: [{ role: 'user', content: `question ${index}` }] } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { answer: index } },
  }
}

/** node's file operations, counting every byte handed to a write. */
function countingFiles(): CassetteFiles & { written: number; whole: number } {
  const files = {
    written: 0,
    whole: 0,
    writeFileAtomic(path: string, data: Buffer) {
      files.written += data.length
      files.whole += 1
      NODE_CASSETTE_FILES.writeFileAtomic(path, data)
    },
    writeAt(path: string, data: Buffer, position: number) {
      files.written += data.length
      NODE_CASSETTE_FILES.writeAt(path, data, position)
    },
    readFile: (path: string) => NODE_CASSETTE_FILES.readFile(path),
  }
  return files
}

describe('record mode appends', () => {
  it('never rewrites what is on disk: the same file (inode), its earlier bytes unchanged but for the complete line', async () => {
    const cassette = join(scratchDir(), 'append.cassette.jsonl')
    writeFileSync(cassette, 'an older recording\n')
    const provider = await startProvider({ mode: 'record', scenario: SCENARIO, cassette, env: {} })
    let previous: { inode: number; body: Buffer } | undefined
    for (let index = 0; index < 8; index++) {
      await (await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: body(index) })).text()
      // Written as each interaction is recorded, not at close.
      const now = { inode: statSync(cassette).ino, body: readFileSync(cassette) }
      expect(readCassette(cassette).interactions).toHaveLength(index + 1)
      if (previous) {
        expect(now.inode).toBe(previous.inode)
        const kept = previous.body.subarray(0, previous.body.length - `{"complete":${index}}\n`.length)
        expect(now.body.subarray(0, kept.length).equals(kept)).toBe(true)
      }
      previous = now
    }
    await provider.close()
    expect(readFileSync(cassette, 'utf8')).not.toContain('an older recording')
  })

  it('writes O(n) bytes for n interactions: each one once, plus its complete line', () => {
    const cassette = join(scratchDir(), 'counted.cassette.jsonl')
    const files = countingFiles()
    const header = { provenance: 'synthetic' as const, tool: 'vitest-harness test' }
    const appender = new CassetteAppender(cassette, header, { files })
    const all = Array.from({ length: 50 }, (_, index) => interaction(index))
    for (const item of all) appender.append(item)
    const final = readFileSync(cassette)
    expect(final.toString('utf8')).toBe(serializeCassette({ ...header, interactions: all }))
    // Every byte of the file written once; beyond that only the superseded complete lines.
    const superseded = all.slice(0, -1).reduce((sum, _, index) => sum + `{"complete":${index + 1}}\n`.length, 0)
    expect(files.written).toBe(final.length + superseded)
    expect(files.whole).toBe(1)
  })

  it('auto mode appends after the cassette already on disk, its bytes untouched', async () => {
    const cassette = join(scratchDir(), 'auto.cassette.jsonl')
    writeCassette(cassette, { provenance: 'synthetic', tool: 'vitest-harness test', interactions: [interaction(0)] })
    const before = readFileSync(cassette)
    const inode = statSync(cassette).ino
    const provider = await startProvider({ mode: 'auto', scenario: SCENARIO, cassette, env: {} })
    await (await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: body(1) })).text()
    await provider.close()
    const after = readFileSync(cassette)
    expect(statSync(cassette).ino).toBe(inode)
    const kept = before.subarray(0, before.length - '{"complete":1}\n'.length)
    expect(after.subarray(0, kept.length).equals(kept)).toBe(true)
    expect(readCassette(cassette).interactions.map((item) => (item.request.body as { messages: { content: string }[] }).messages[0]?.content)).toEqual(['question 0', 'question 1'])
  })

  it('removes the .tmp files a killed write of the cassette left, on the next write; others are kept', async () => {
    const dir = scratchDir()
    const cassette = join(dir, 'tidy.cassette.jsonl')
    const dead = 2 ** 22 + 12_345 // above Linux's pid_max default: no such process
    const leftovers = [`.tidy.cassette.jsonl.${dead}.1700000000000.tmp`, `.tidy.cassette.jsonl.${process.pid}.1700000000001.tmp`]
    const kept = [`.other.cassette.jsonl.${dead}.1700000000000.tmp`, `.tidy.cassette.jsonl.${process.ppid}.1700000000002.tmp`, 'notes.tmp']
    for (const name of [...leftovers, ...kept]) writeFileSync(join(dir, name), 'partial')
    const provider = await startProvider({ mode: 'record', scenario: SCENARIO, cassette, env: {} })
    // Nothing recorded yet, nothing written: the leftovers wait for the next write.
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(leftovers))
    await (await fetch(`${provider.baseUrl}/chat/completions`, { method: 'POST', body: body(0) })).text()
    await provider.close()
    const now = readdirSync(dir)
    for (const name of leftovers) expect(now, name).not.toContain(name)
    // The other cassette's belongs to its own next write; a live process's may be in flight.
    for (const name of kept) expect(now, name).toContain(name)
    expect(existsSync(cassette)).toBe(true)
    expect(now.filter((name) => name.startsWith('.tidy.cassette.jsonl.') && name.endsWith('.tmp'))).toEqual([`.tidy.cassette.jsonl.${process.ppid}.1700000000002.tmp`])
  })
})
