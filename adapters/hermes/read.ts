import { nestedCallsUnseenWarning } from '../../src/events/nested-calls-unseen.js'
import type { CloseReason, Emission } from '../../src/events/types.js'
import { TranscriptError } from '../errors.js'
import type { DocumentFormat, DocumentReader, ParsedDocument } from '../formats.js'
import { asArray, asObject, asString, isObject } from '../shared/fields.js'
import type { ToolOperationTable } from '../shared/operations.js'
import { opaqueValue } from '../shared/opaque.js'
import { CallClassifier, sessionStart, textContent, toolResult } from '../shared/session.js'
import { TypedSessions } from '../shared/typed-sessions.js'
import { argumentsObject } from '../shared/arguments.js'
import { DriftWatch } from '../shared/vocabulary.js'
import type { SeamOptions } from '../types.js'
import { HERMES_VOCABULARY } from './hermes-vocabulary.js'
import { hermesAnswer, hermesOutcome } from './outcome.js'
import { HERMES_TYPING } from './process-sessions.js'

export const HERMES_ADAPTER_ID = 'hermes'

/** hermes-agent's tools by operation. */
export const HERMES_TOOL_OPERATIONS: ToolOperationTable = {
  tools: {
    terminal: 'shell',
    execute_code: 'shell',
    read_file: 'file.read',
    write_file: 'file.write',
    patch: 'file.edit',
    search_files: 'search',
    web_search: 'web.read',
    web_extract: 'web.read',
    browser_navigate: 'web.read',
    browser_snapshot: 'web.read',
    browser_click: 'web.read',
    browser_type: 'web.read',
    browser_scroll: 'web.read',
    browser_back: 'web.read',
    browser_press: 'web.read',
    browser_get_images: 'web.read',
    browser_vision: 'web.read',
    browser_console: 'web.read',
    todo: 'task.todo',
    delegate_task: 'subagent.spawn',
    skill_view: 'skill.load',
    // Creates, rewrites, patches or deletes a skill's SKILL.md and its files in the skills directory.
    skill_manage: 'file.write',
    // Polls, waits on, stops or types into (`write`, `submit`) a process a `terminal` call left
    // running in the background, often a shell: what it types runs as surely as `terminal` does.
    process: 'shell',
  },
  prefixes: [['mcp_', 'mcp.call']],
  inert: {
    clarify: 'asks the user a question',
    memory: 'reads or writes the agent’s own memory notes',
    skills_list: 'lists the skills the agent can load',
    session_search: 'searches the agent’s own past sessions',
    vision_analyze: 'asks a vision model about an image',
    image_generate: 'asks an image model for a picture',
    text_to_speech: 'asks a speech model for audio',
    mixture_of_agents: 'asks other models for an answer',
    send_message: 'sends a chat message on a messaging platform',
  },
  pathKeys: ['path', 'file_path'],
  commandKeys: ['command'],
}

/**
 * Where an `execute_code` script's own tool calls are: its `hermes_tools` functions (`terminal`,
 * `write_file`, `read_file`…) are answered over RPC while the script runs, and the session keeps
 * only the script's output ("intermediate tool results never enter the context window").
 */
const SCRIPT_CALLS_WHERE = 'the script’s run alone: hermes-agent answers them over RPC and writes none to the session'

/** Whether a call ran code that may call hermes's tools: an `execute_code` script that names `hermes_tools`. */
function callsToolsUnseen(name: string, input: unknown): boolean {
  if (name !== 'execute_code' || !isObject(input)) return false
  const code = input['code']
  return typeof code === 'string' && code.includes('hermes_tools')
}

function toolNames(value: unknown): string[] | null {
  const tools = asArray(value)
  if (!tools) return null
  return tools
    .map((tool) => (typeof tool === 'string' ? tool : isObject(tool) ? (asString(tool['name']) ?? asString(asObject(tool['function'])?.['name']) ?? '') : ''))
    .filter((name) => name.length > 0)
}

/**
 * hermes-agent session snapshots (`HERMES_HOME/sessions/session_<id>.json`, rewritten at every
 * persistence point): session facts and an OpenAI-chat `messages` list. A snapshot proves no
 * closure — the next persistence point may add to it.
 */
class HermesReader implements DocumentReader {
  private readonly calls = new CallClassifier(HERMES_TOOL_OPERATIONS, HERMES_ADAPTER_ID)
  private readonly sessions = new TypedSessions(HERMES_TOOL_OPERATIONS, HERMES_TYPING)
  private readonly drift = new DriftWatch(HERMES_VOCABULARY)

  constructor(private readonly seam: SeamOptions) {}

  pushDocument(document: ParsedDocument): Emission[] {
    const root = document.value
    const messages = asArray(root['messages'])
    if (!messages) throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, 1, 'the document is not a hermes session snapshot: it has no messages list')
    const events: Emission[] = [
      sessionStart(HERMES_ADAPTER_ID, this.seam, {
        session_id: asString(root['session_id']) ?? asString(root['id']) ?? null,
        model: asString(root['model']) ?? this.seam.model ?? null,
        cwd: asString(root['cwd']) ?? this.seam.cwd ?? null,
        offered_tools: toolNames(root['tools']),
      }),
    ]
    messages.forEach((message, index) => {
      const line = document.lineOf('messages', index)
      if (!isObject(message)) {
        throw new TranscriptError('VH_TRANSCRIPT_BAD_SHAPE', document.file, line, `message ${index + 1} is not an object`)
      }
      const role = asString(message['role']) ?? ''
      switch (role) {
        case 'system':
        case 'user':
          events.push({ event: 'injection', text: textContent(message['content']) ?? '', origin: role })
          break
        case 'assistant': {
          const reasoning = asString(message['reasoning']) ?? asString(message['reasoning_content'])
          if (reasoning !== undefined && reasoning.length > 0) events.push({ event: 'thinking', text: reasoning, request_id: null })
          const text = textContent(message['content'])
          if (text !== undefined && text.length > 0) events.push({ event: 'text', text, request_id: null })
          for (const call of asArray(message['tool_calls']) ?? []) {
            const object = asObject(call) ?? {}
            const fn = asObject(object['function']) ?? {}
            const name = asString(fn['name']) ?? ''
            const input = argumentsObject(fn['arguments'], 'arguments')
            const id = asString(object['id']) ?? ''
            events.push(...this.sessions.called(id, name, input, this.calls.call(id, name, input)))
            if (callsToolsUnseen(name, input)) events.push(nestedCallsUnseenWarning(id, name, SCRIPT_CALLS_WHERE))
          }
          // hermes writes no usage; the message is still one request, so request counts see it.
          events.push({ event: 'usage', request_id: null, model: asString(message['model']) ?? asString(root['model']) ?? null, usage: {} })
          break
        }
        case 'tool': {
          // hermes records no error flag on a tool row; the tool's own answer, read once, may say (`hermesOutcome`) and name a background session.
          const answer = hermesAnswer(message['content'])
          const outcome = hermesOutcome(answer)
          const callId = asString(message['tool_call_id']) ?? ''
          this.sessions.answered(callId, answer)
          events.push(toolResult(callId, outcome.isError, message['content'] ?? null, outcome.exitCode))
          break
        }
        default:
          this.drift.sawUnknown('message', role)
          events.push(opaqueValue(message, 'message', role, line))
      }
    })
    return events
  }

  finish(): Emission[] {
    return this.drift.finish()
  }

  closure(): CloseReason | null {
    return null
  }
}

/** hermes-agent's JSON session snapshot. */
export const hermesFormat: DocumentFormat = {
  kind: 'documents',
  name: 'hermes-session-json',
  aliases: [],
  adapter: HERMES_ADAPTER_ID,
  summary: 'hermes-agent session snapshot (sessions/session_<id>.json)',
  extension: '.json',
  vocabulary: HERMES_VOCABULARY,
  createReader: (seam) => new HermesReader(seam),
  // A `messages` list alone is any OpenAI-chat log (a Gemini CLI session document, another tool's
  // dump): hermes writes it beside its session facts, `session_id` and `session_start`. An
  // `opencode export` document holds `messages` beside an `info` object, as `{info, parts}`.
  sniff: (document) =>
    Array.isArray(document['messages']) &&
    (typeof document['session_id'] === 'string' || typeof document['session_start'] === 'string') &&
    !Array.isArray(document['steps']) &&
    !isObject(document['info']),
}
