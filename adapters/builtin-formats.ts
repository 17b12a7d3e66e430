import { atifFormat, terminusFormat } from './atif/read.js'
import { b10xLoopFormat } from './b10x/format.js'
import { claudeJsonArrayFormat, claudeSessionFormat, claudeStreamJsonFormat, claudeWrappedStreamJsonFormat } from './claude/formats.js'
import { codexExecJsonFormat, codexRolloutFormat } from './codex/formats.js'
import { dshSessionFormat } from './dsh/read.js'
import { geminiJsonOutputFormat, geminiSessionDocumentFormat, geminiSessionFormat, geminiStreamJsonFormat } from './gemini/formats.js'
import { registerFormat } from './formats.js'
import { hermesFormat } from './hermes/read.js'
import { nativeFormat } from './native/read.js'
import { opencodeExportFormat } from './opencode/export.js'
import { opencodeRunFormat } from './opencode/run-json.js'
import { opencodeStorageFormat } from './opencode/storage.js'
import { piSessionFormat } from './pi/read.js'
import { qwenJsonArrayFormat, qwenSessionFormat, qwenStreamJsonFormat } from './qwen/formats.js'
import { eventStreamFormat } from './transcript/event-stream.js'

// Registration order is the order `detect` tries them: the most specific first.
for (const format of [
  eventStreamFormat,
  codexRolloutFormat,
  codexExecJsonFormat,
  claudeStreamJsonFormat,
  claudeSessionFormat,
  claudeWrappedStreamJsonFormat,
  geminiSessionFormat,
  geminiStreamJsonFormat,
  qwenSessionFormat,
  qwenStreamJsonFormat,
  b10xLoopFormat,
  dshSessionFormat,
  nativeFormat,
  piSessionFormat,
  opencodeRunFormat,
  claudeJsonArrayFormat,
  qwenJsonArrayFormat,
  atifFormat,
  terminusFormat,
  opencodeExportFormat,
  geminiJsonOutputFormat,
  geminiSessionDocumentFormat,
  hermesFormat,
  opencodeStorageFormat,
]) {
  registerFormat(format)
}
