import type { LineFormat } from '../formats.js'
import { asString } from '../shared/fields.js'
import { GEMINI_ADAPTER_ID } from './declaration.js'
export { geminiJsonOutputFormat } from './json-output.js'
export { geminiSessionDocumentFormat } from './session-document.js'
import { GeminiSessionProjector } from './session.js'
import { GeminiStreamJsonProjector } from './stream-json.js'
import { GEMINI_SESSION_VOCABULARY, GEMINI_STREAM_JSON_VOCABULARY } from './vocabulary.js'

/** `gemini -p … --output-format stream-json` stdout. */
export const geminiStreamJsonFormat: LineFormat = {
  kind: 'lines',
  name: 'gemini-cli/stream-json',
  aliases: ['gemini-stream-json'],
  adapter: GEMINI_ADAPTER_ID,
  summary: 'Gemini CLI stdout under --output-format stream-json',
  extension: '.jsonl',
  createProjector: (seam) => new GeminiStreamJsonProjector(seam),
  numbers: 'value',
  // `init` with a session id and a model is the stream's first line; a bare `tool_use` with
  // top-level `tool_name`/`tool_id` is this stream's too (Claude's calls are content blocks).
  sniff: (record) => {
    const type = asString(record['type'])
    if (type === 'init') return typeof record['session_id'] === 'string' && typeof record['model'] === 'string' && typeof record['timestamp'] === 'string'
    if (type === 'tool_use') return typeof record['tool_name'] === 'string' && typeof record['tool_id'] === 'string'
    return false
  },
  vocabulary: GEMINI_STREAM_JSON_VOCABULARY,
}

/** The session file, `$GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/session-*.jsonl`. */
export const geminiSessionFormat: LineFormat = {
  kind: 'lines',
  name: 'gemini-cli/session-jsonl',
  aliases: ['gemini-session-jsonl'],
  adapter: GEMINI_ADAPTER_ID,
  summary: 'Gemini CLI session file (~/.gemini/tmp/<project>/chats/session-*.jsonl)',
  extension: '.jsonl',
  createProjector: (seam) => new GeminiSessionProjector(seam),
  numbers: 'value',
  // The metadata line; a record that also holds `messages` is the older whole-document form.
  sniff: (record) => typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string' && typeof record['startTime'] === 'string' && !Array.isArray(record['messages']),
  vocabulary: GEMINI_SESSION_VOCABULARY,
}
