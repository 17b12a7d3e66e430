import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli.js'
import { convertPath, names } from '../../test/helpers/project.js'
import { tree } from '../../test/helpers/tree.js'
import { commandsOfShellLine } from '../shared/shell.js'
import { detectFormatName } from './detect.js'
import { comparePythonPaths } from './path-order.js'

const pi = (text: string) => JSON.stringify({ type: 'message', id: 'x', parentId: null, timestamp: 't', message: { role: 'user', content: text } })
const header = JSON.stringify({ type: 'session', version: 3, id: 'S', timestamp: 't', cwd: '/w' })

describe("Reef's directory rules", () => {
  it('a torn last line is tolerated (and kept as opaque); a corrupt line mid-file is an error naming file and line', async () => {
    const torn = tree({ 's/a.jsonl': `${header}\n${pi('hi')}\n{"type":"mess` })
    expect(names(await convertPath(torn, { from: 'pi-session-jsonl' }))).toEqual(['session.started', 'injection', 'opaque'])
    const corrupt = tree({ 's/a.jsonl': `${header}\n{"type":"mess\n${pi('hi')}\n` })
    await expect(convertPath(corrupt, { from: 'pi-session-jsonl' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_CORRUPT_LINE', file: join(corrupt, 's/a.jsonl'), line: 2 })
    // A blank line after the bad one makes it not the last line, as Python's splitlines sees it.
    const blankAfter = tree({ 'a.jsonl': `${header}\n{"type":"mess\n\n` })
    await expect(convertPath(blankAfter, { from: 'pi-session-jsonl' })).rejects.toMatchObject({ line: 2 })
  })

  it('a line that is JSON but not an object, or not UTF-8, is an error; a single file reads leniently', async () => {
    const notObject = tree({ 'a.jsonl': `${header}\n[1,2]\n` })
    await expect(convertPath(notObject, { from: 'pi-session-jsonl' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_NOT_AN_OBJECT', line: 2 })
    expect(names(await convertPath(join(notObject, 'a.jsonl'), { from: 'pi-session-jsonl' }))).toEqual(['session.started', 'opaque'])
    const binary = tree({ 'a.jsonl': '' })
    const { writeFileSync } = await import('node:fs')
    writeFileSync(join(binary, 'a.jsonl'), Buffer.concat([Buffer.from(`${header}\n`), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`${pi('x')}\n`)]))
    await expect(convertPath(binary, { from: 'pi-session-jsonl' })).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_NOT_UTF8', line: 2 })
  })

  it('files are read recursively in Python Path order; a missing directory with a named format is empty', async () => {
    expect(['sid.jsonl', 'sid/subagents/a.jsonl', 'a.jsonl'].sort(comparePythonPaths)).toEqual(['a.jsonl', 'sid/subagents/a.jsonl', 'sid.jsonl'])
    const root = tree({ 'sid.jsonl': `${header}\n${pi('root')}\n`, 'sid/subagents/agent-1.jsonl': `${header}\n${pi('sub')}\n` })
    const events = await convertPath(root)
    expect(events.filter((event) => event.event === 'injection').map((event) => event.event === 'injection' && event.text)).toEqual(['sub', 'root'])
    expect(await convertPath(join(root, 'nothing-here'), { from: 'pi-session-jsonl' })).toEqual([])
    await expect(convertPath(join(root, 'nothing-here'))).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_MISSING' })
  })

  it('an unknown format name and an undetectable input are typed errors', async () => {
    const root = tree({ 'x.jsonl': '{"hello":"world"}\n' })
    await expect(convertPath(root, { from: 'nope' })).rejects.toMatchObject({ code: 'VH_UNKNOWN_FORMAT' })
    await expect(convertPath(join(root, 'x.jsonl'))).rejects.toMatchObject({ code: 'VH_TRANSCRIPT_UNDETECTED' })
  })

  it('an unknown format name is answered with the formats it is a part of, or the closest spelling', async () => {
    const root = tree({ 'x.jsonl': '{"hello":"world"}\n' })
    const sentence = async (from: string) => ((await convertPath(root, { from }).catch((error: unknown) => error)) as Error).message
    expect(await sentence('b10x')).toContain('named "b10x": did you mean b10x/loop-jsonl? Known: atif,')
    expect(await sentence('codex')).toContain(': did you mean codex/exec-json or codex/rollout-jsonl? Known:')
    expect(await sentence('claude')).toContain(': did you mean claude-code/json-array, claude-code/stream-json, claude-code/stream-json-wrapped or claude-session-jsonl?')
    expect(await sentence('pi-sesion-jsonl')).toContain(': did you mean pi-session-jsonl?')
    // Nothing near, or too much (every format is JSON): only the list.
    expect(await sentence('nope')).toMatch(/named "nope"; known: atif, /)
    expect(await sentence('json')).toMatch(/named "json"; known: atif, /)
  })
})

describe('detect', () => {
  it.each([
    ['{"type":"thread.started","thread_id":"x"}', 'codex/exec-json'],
    ['{"timestamp":"t","type":"session_meta","payload":{}}', 'codex/rollout-jsonl'],
    ['{"type":"system","subtype":"init","session_id":"s"}', 'claude-code/stream-json'],
    ['{"type":"queue-operation","sessionId":"s"}', 'claude-session-jsonl'],
    ['{"type":"session","version":3,"id":"i","timestamp":"t","cwd":"/"}', 'pi-session-jsonl'],
    ['{"type":"session","version":0,"id":"s","createdAt":1,"cwd":"/","delegationDepth":0}', 'deepseek-session-jsonl'],
    ['{"type":"session","seq":0,"time":1,"data":{"version":1}}', 'native-jsonl'],
    ['{"type":"step_start","sessionID":"s","timestamp":1,"part":{}}', 'opencode-run-json'],
    ['{"kind":"started","model":"m"}', 'b10x/loop-jsonl'],
    ['{"format":"metaharness.event/1","seq":1,"run":"r","event":"text","text":"x","request_id":null}', 'metaharness.event/1'],
  ])('%s → %s', (line, format) => {
    expect(detectFormatName(['', line])).toBe(format)
  })

  it('detects JSON documents spread over lines', () => {
    expect(detectFormatName(['{', '  "schema_version": "ATIF-v1.4",', '  "steps": []', '}'])).toBe('atif-json')
    expect(detectFormatName(['{"session_id":"h","messages":[]}'])).toBe('hermes-session-json')
    expect(detectFormatName(['{"id":"prt_1","sessionID":"s","messageID":"m","type":"text"}'])).toBe('opencode-storage-json')
    expect(detectFormatName(['not json at all'])).toBeUndefined()
  })
})

describe('shell subjects', () => {
  it('unwraps bash -lc, splits pipelines and sequences, skips assignments', () => {
    expect(commandsOfShellLine("/usr/bin/bash -lc 'cd src && FOO=1 grep -n \"a b\" x.ts | head -n 5'").map((command) => command.program)).toEqual(['cd', 'grep', 'head'])
    expect(commandsOfShellLine(['bash', '-lc', 'cat a.txt']).map((command) => [command.program, command.args])).toEqual([['cat', ['a.txt']]])
  })
})

describe('vitest-harness convert', () => {
  it('writes the event stream of a file, a directory and stdin; a refused transcript exits 2 with file and line', async () => {
    const root = tree({ 'a.jsonl': `${header}\n${pi('hi')}\n`, 'bad/a.jsonl': `${header}\n{oops\n${pi('x')}\n` })
    const file = await runCli(['convert', join(root, 'a.jsonl'), '--run', 'r1'])
    expect(file.code).toBe(0)
    expect(file.stdout.split('\n')[0]).toMatch(/^\{"format":"metaharness.event\/1","seq":1,"run":"r1","at":"t","event":"session.started"/)
    const stdin = await runCli(['convert', '--from', 'pi-session-jsonl', '-'], { stdin: `${header}\n${pi('hi')}\n` })
    expect(stdin.stdout.replaceAll('"run":"convert"', '"run":"r1"')).toBe(file.stdout)
    const refused = await runCli(['convert', '--from', 'pi-session-jsonl', join(root, 'bad')])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`VH_TRANSCRIPT_CORRUPT_LINE at ${join(root, 'bad/a.jsonl')}:2`)
    // Detected from its head, as a file is: the same stream without --from.
    expect((await runCli(['convert', '--run', 'r1', '-'], { stdin: `${header}\n${pi('hi')}\n` })).stdout).toBe(file.stdout)
    const empty = await runCli(['convert', '-'])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('VH_TRANSCRIPT_UNDETECTED at stdin: no known format fits the first lines; name one with --from')
  })
})
