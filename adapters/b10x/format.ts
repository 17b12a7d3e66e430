import type { LineFormat } from '../formats.js'
import { asString } from '../shared/fields.js'
import type { RecordProjector } from '../types.js'
import { B10X_ADAPTER_ID } from './declaration.js'
import { B10X_LOOP_VOCABULARY } from './loop-vocabulary.js'
import { B10xProjector } from './read.js'

/** The b10x loop record as a transcript format, its projection unchanged. */
export const b10xLoopFormat: LineFormat = {
  kind: 'lines',
  name: 'b10x/loop-jsonl',
  aliases: ['b10x-harness/json'],
  adapter: B10X_ADAPTER_ID,
  summary: 'b10x-harness --json loop record',
  extension: '.jsonl',
  vocabulary: B10X_LOOP_VOCABULARY,
  createProjector(seam): RecordProjector {
    const projector = new B10xProjector(seam)
    return {
      pushRecord: (_record, raw, lineNumber) => projector.pushLine(raw, lineNumber),
      pushUnreadable: (raw, lineNumber) => (typeof raw === 'string' ? projector.pushLine(raw, lineNumber) : projector.pushUndecodable(raw, lineNumber)),
      finish: () => projector.finish(),
      closure: () => null,
    }
  },
  sniff: (record) => typeof asString(record['kind']) === 'string' && Object.keys(record)[0] === 'kind',
}
