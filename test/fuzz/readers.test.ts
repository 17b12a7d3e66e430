import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TranscriptError } from '../../adapters/errors.js'
import { readTranscriptAsEvents, type LinePolicy } from '../../adapters/transcript/read.js'
import type { Emission } from '../../src/events/types.js'

// A few valid lines per line format: the fuzzer mutates them.
const SEEDS: Record<string, string[]> = {
  'claude-code/stream-json': [
    '{"type":"system","subtype":"init","session_id":"s","tools":["Read"],"cwd":"/w"}',
    '{"type":"assistant","session_id":"s","timestamp":"t","message":{"id":"m1","content":[{"type":"tool_use","id":"c","name":"Read","input":{"file_path":"a"}}],"usage":{"input_tokens":1}}}',
    '{"type":"user","session_id":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"x","is_error":false}]}}',
    '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"session_id":"s"}',
  ],
  'claude-session-jsonl': [
    '{"type":"user","sessionId":"s","cwd":"/w","version":"2.1.328","message":{"role":"user","content":"hi"}}',
    '{"type":"assistant","sessionId":"s","message":{"id":"m","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1}}}',
  ],
  'codex/rollout-jsonl': [
    '{"timestamp":"t","type":"session_meta","payload":{"id":"i","cli_version":"0.169.0"}}',
    '{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"cat x\\"}","call_id":"c"}}',
    '{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":2}}}}',
    '{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","duration_ms":3}}',
  ],
  'codex/exec-json': [
    '{"type":"thread.started","thread_id":"t"}',
    '{"type":"item.completed","item":{"id":"i","type":"command_execution","command":"ls","aggregated_output":"","exit_code":0,"status":"completed"}}',
    '{"type":"turn.completed","usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":2}}',
  ],
  'pi-session-jsonl': [
    '{"type":"session","version":3,"id":"S","timestamp":"t","cwd":"/w"}',
    '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"read","arguments":{"path":"x"}}],"usage":{"input":1}}}',
  ],
  'qwen-code/session-jsonl': [
    '{"uuid":"u","parentUuid":null,"sessionId":"s","timestamp":"t","type":"user","cwd":"/w","version":"0.24.4","message":{"role":"user","parts":[{"text":"go"}]}}',
    '{"uuid":"a","parentUuid":"u","sessionId":"s","timestamp":"t","type":"assistant","cwd":"/w","version":"0.24.4","model":"m","message":{"role":"model","parts":[{"functionCall":{"id":"c","name":"run_shell_command","args":{"command":"ls"}}}]},"usageMetadata":{"promptTokenCount":3}}',
    '{"uuid":"r","parentUuid":"a","sessionId":"s","timestamp":"t","type":"tool_result","cwd":"/w","version":"0.24.4","message":{"role":"user","parts":[{"functionResponse":{"id":"c","name":"run_shell_command","response":{"output":"x"}}}]},"toolCallResult":{"callId":"c","status":"success"}}',
  ],
  'deepseek-session-jsonl': [
    '{"type":"session","version":4,"id":"s","createdAt":1,"cwd":"/","delegationDepth":0}',
    '{"type":"assistant/message","seq":1,"time":2,"data":{"message":{"content":[{"type":"tool-call","id":"k","name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}]},"usage":{"inputTokens":1}}}',
    '{"type":"tool/result","seq":2,"time":3,"data":{"message":{"role":"tool","toolCallId":"k","content":[],"isError":false}}}',
  ],
  'native-jsonl': [
    '{"type":"session","seq":0,"time":1,"data":{"model":"m","tools":["bash"]}}',
    '{"type":"assistant/message","seq":1,"time":2,"data":{"content":"x","tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}}]}}',
    '{"type":"turn/end","seq":2,"time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}',
  ],
  'opencode-run-json': [
    '{"type":"tool_use","sessionID":"s","timestamp":1,"part":{"type":"tool","tool":"bash","callID":"c","state":{"status":"completed","input":{"command":"ls"},"output":"x"}}}',
    '{"type":"step_finish","sessionID":"s","timestamp":2,"part":{"type":"step-finish","reason":"stop","tokens":{"input":1},"cost":0.1}}',
  ],
  'b10x/loop-jsonl': ['{"kind":"turn-started","turn":1}', '{"kind":"tool-requested","call_id":"c","name":"file_read","arguments":{"path":"a"}}'],
}

const DOCUMENT_SEEDS: Record<string, string> = {
  'atif-json': JSON.stringify({ schema_version: 'ATIF-v1.4', session_id: 's', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'agent', message: 'x', tool_calls: [{ tool_call_id: 'k', function_name: 'f', arguments: {} }] }] }, null, 1),
  'gemini-cli/session-json': JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: 't', lastUpdated: 't', messages: [{ id: 'u', timestamp: 't', type: 'user', content: 'go' }, { id: 'g', timestamp: 't', type: 'gemini', content: '', toolCalls: [{ id: 'c', name: 'run_shell_command', args: { command: 'ls' }, status: 'success', result: [{ functionResponse: { id: 'c', name: 'run_shell_command', response: { output: 'a' } } }] }] }] }, null, 1),
  'hermes-session-json': JSON.stringify({ session_id: 'h', messages: [{ role: 'assistant', content: 'x', tool_calls: [{ id: 't', function: { name: 'terminal', arguments: '{"command":"ls"}' } }] }] }, null, 1),
  'terminus-atif-json': JSON.stringify({ task: 't', failed: false, steps: [{ step_id: 1, source: 'user', message: 'go' }] }, null, 1),
}

/** One mutation of a line: cut it, splice junk into it, swap it for another JSON value, or break its bytes. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('bytes' as const), at: fc.nat(), byte: fc.integer({ min: 0x80, max: 0xff }) }),
)

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never

function mutate(line: string, change: Mutation): Buffer {
  switch (change.kind) {
    case 'truncate':
      return Buffer.from(line.slice(0, change.at % (line.length + 1)))
    case 'splice': {
      const at = change.at % (line.length + 1)
      return Buffer.from(line.slice(0, at) + change.text.replace(/\n/g, ' ') + line.slice(at))
    }
    case 'replace':
      return Buffer.from(JSON.stringify(change.value))
    case 'bytes': {
      const bytes = Buffer.from(line)
      bytes[change.at % bytes.length] = change.byte
      return bytes
    }
  }
}

async function read(path: string, format: string, lines: LinePolicy): Promise<{ events: Emission[]; error?: TranscriptError }> {
  const events: Emission[] = []
  try {
    for await (const event of readTranscriptAsEvents(path, { from: format, lines, run: 'fuzz' })) events.push(event)
    return { events }
  } catch (error) {
    // Anything but a typed error is a crash.
    if (!(error instanceof TranscriptError)) throw error
    return { events, error }
  }
}

describe.each(Object.entries(SEEDS))('fuzzing %s', (format, seed) => {
  it('mutated lines: never a crash; every failure a typed error with file and line; every unreadable line an error or an opaque event', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-fuzz-'))
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat({ max: seed.length - 1 }), fc.option(mutation, { nil: undefined })), { minLength: 1, maxLength: 8 }), async (plan) => {
        const lines = plan.map(([index, change]) => (change === undefined ? Buffer.from(seed[index] as string) : mutate(seed[index] as string, change)))
        const path = join(dir, 'input.jsonl')
        writeFileSync(path, Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')])))
        const lenient = await read(path, format, 'lenient')
        expect(lenient.error).toBeUndefined()
        lines.forEach((line, index) => {
          const text = line.toString('utf8')
          let readable = false
          try {
            const value: unknown = JSON.parse(text)
            readable = value !== null && typeof value === 'object' && !Array.isArray(value) && Buffer.from(text).equals(line)
          } catch {
            readable = false
          }
          if (!readable && text.trim().length > 0) {
            expect(lenient.events.some((event) => event.event === 'opaque' && event.source_line === index + 1)).toBe(true)
          }
        })
        const reef = await read(path, format, 'reef')
        if (reef.error) {
          expect(reef.error.file).toBe(path)
          expect(reef.error.line).toBeGreaterThanOrEqual(1)
          expect(reef.error.line).toBeLessThanOrEqual(lines.length)
        }
      }),
      { numRuns: 40 },
    )
  })
})

describe.each(Object.entries(DOCUMENT_SEEDS))('fuzzing %s', (format, seed) => {
  it('mutated documents: they convert, or fail with a typed error naming the file and a line in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vh-fuzz-'))
    await fc.assert(
      fc.asyncProperty(mutation, async (change) => {
        const path = join(dir, 'doc.json')
        const bytes = mutate(seed, change)
        writeFileSync(path, bytes)
        const result = await read(path, format, 'reef')
        if (result.error) {
          expect(result.error.file).toBe(path)
          if (result.error.line !== null) expect(result.error.line).toBeLessThanOrEqual(bytes.toString('utf8').split('\n').length)
        } else {
          expect(result.events[0]?.event).toBe('session.started')
        }
      }),
      { numRuns: 60 },
    )
  })
})
