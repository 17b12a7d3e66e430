import fc from 'fast-check'
import { describe, it } from 'vitest'
import '../../adapters/builtin-formats.js'
import { transcriptFormats } from '../../adapters/formats.js'
import { convertTextSync } from '../../adapters/transcript/read.js'
import { parseCassette } from '../../recorders/provider/cassette.js'
import { readScenarioText } from '../../recorders/provider/scenario.js'
import { validateEvidenceText } from '../../src/evidence/intake.js'
import { readStepMap } from '../../src/stepmap/map.js'
import { readWorkflow } from '../../src/stepmap/workflow.js'
import { readSpec } from '../../src/trace/spec/read.js'

/**
 * Every registered transcript format's reader and every document reader, over arbitrary JSON built
 * from the field names readers look up, prototype-named keys (`constructor`, `__proto__`,
 * `hasOwnProperty`), type changes, 1e999 (Infinity as text), -0, lone surrogates and deep nesting:
 * each returns or throws one of the project's coded errors, never anything else (issue 17).
 * Fixed seed; `VH_FUZZ_RUNS` raises the count (≥10,000 per reader in CI).
 */
const RUNS = Number(process.env['VH_FUZZ_RUNS'] ?? 60)
const SETTINGS = { seed: 1717, numRuns: RUNS }
// A YAML reader takes ~15 ms an input on a loaded machine: the larger runs need the time.
const TIMEOUT = 20_000 + RUNS * 40

const FIELD_NAMES = ['type', 'subtype', 'role', 'content', 'message', 'payload', 'name', 'input', 'arguments', 'id', 'call_id', 'tool_use_id', 'text', 'timestamp', 'usage', 'item', 'items', 'session_id', 'sessionId', 'events', 'steps', 'format', 'kind', 'states', 'workflow', 'expectations', 'observed_at', 'producer', 'scenario', 'turns', 'version', 'parts', 'info', 'model', 'cwd', 'status', 'output']
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf', 'prototype']
const TYPE_VALUES = ['assistant', 'user', 'system', 'result', 'tool_use', 'tool_result', 'text', 'message', 'function_call', 'function_call_output', 'response_item', 'event_msg', 'session_meta', 'item.completed', 'thread.started', 'turn.completed', 'step-start', 'tool', 'test_result', 'trace-spec/1', 'aep.driver-steps/1']

const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }, { weight: 1, arbitrary: fc.string() })
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(-0, 0, 1, 2 ** 53 + 1, 1e308, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...TYPE_VALUES, ...PROTOTYPE_KEYS),
  fc.string(),
  fc.constantFrom('\uD800', '\uDFFF', 'a\uDC00b', ''),
)
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('json'), { maxLength: 4 }), fc.dictionary(key, tie('json'), { maxKeys: 6 })),
}))
const record = fc.dictionary(key, json, { minKeys: 1, maxKeys: 8 })

/** JSON text with the hostile spellings JSON.stringify cannot write: 1e999, -0, a lone surrogate escape, deep nesting. */
function hostileText(value: unknown, twist: number): string {
  const text = JSON.stringify(value) ?? 'null'
  switch (twist % 5) {
    case 0:
      return text.replace(/(:)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=[,}\]])/, '$11e999')
    case 1:
      return text.replace(/(:)(\d+)(?=[,}\]])/, '$1-0')
    case 2:
      return text.replace(/"([^"\\]*)"/, '"\\ud800$1"')
    case 3:
      return deepened(text)
    default:
      return text
  }
}

/** The same document with 3,000 levels of arrays beside what it held. */
function deepened(text: string): string {
  const deep = `${'['.repeat(3000)}1${']'.repeat(3000)}`
  if (text === '{}') return `{"deep":${deep}}`
  if (text.startsWith('{')) return `{"deep":${deep},${text.slice(1)}`
  return `[${deep},${text}]`
}

/** What a reader may throw: one of the project's coded errors. */
function isCoded(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof Error && typeof code === 'string' && /^(VH_|TRACE-)/.test(code)
}

function expectTotal(read: () => unknown): void {
  try {
    read()
  } catch (error) {
    if (!isCoded(error)) throw error
  }
}

describe('readers over arbitrary JSON', () => {
  for (const format of transcriptFormats()) {
    it(`${format.name}: any records, any shapes`, { timeout: TIMEOUT }, () => {
      fc.assert(
        fc.property(fc.array(record, { minLength: 1, maxLength: 5 }), fc.nat(), (records, twist) => {
          const text = format.kind === 'lines' ? `${records.map((item, index) => hostileText(item, twist + index)).join('\n')}\n` : hostileText(records.length === 1 ? records[0] : records, twist)
          expectTotal(() => convertTextSync(text, format.name, { lines: 'lenient' }))
        }),
        SETTINGS,
      )
    })
  }

  const documents: Array<[string, (text: string) => unknown]> = [
    ['trace specification', (text) => readSpec(text, 'spec.yaml')],
    ['step map', (text) => readStepMap(text, { source: 'map.yaml' })],
    ['workflow', (text) => readWorkflow(text, { source: 'workflow.yaml' })],
    ['evidence document', (text) => validateEvidenceText(text, { now: 0 })],
    // Through the scenario loader's own text reader: a twisted text that is no longer JSON is its refusal to make.
    ['scenario', (text) => readScenarioText(text, 'scenario.json')],
    ['cassette', (text) => parseCassette(`{"cassette":"vitest-harness.cassette/2","provenance":"synthetic","tool":"fuzz"}\n${text}\n`, 'cassette.jsonl')],
  ]
  for (const [name, read] of documents) {
    it(`${name}: any document, any shapes`, { timeout: TIMEOUT }, () => {
      fc.assert(
        fc.property(fc.oneof(record, fc.array(record, { maxLength: 4 }), json), fc.nat(), (value, twist) => {
          const text = hostileText(value, twist)
          expectTotal(() => read(text))
        }),
        SETTINGS,
      )
    })
  }
})
