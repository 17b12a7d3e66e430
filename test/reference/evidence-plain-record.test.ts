import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { readPlainRecord } from '../../src/evidence/intake-plain-record.js'
import { readIntakeText } from '../../src/evidence/intake-read.js'
import { splitEvidenceRecords } from '../../src/evidence/intake-split.js'
import { REFERENCE } from './paths.js'

// The fast reader of the evidence intake on upstream's own evidence corpus: each record it takes
// is built exactly as the `yaml`-based reader builds it (values and positions), and it takes the
// records AEP writes. The file's commentary holds `**` (which keeps the splitter from splitting it at
// all: an asterisk may be an alias), so its whole-line comments are dropped first; blank lines stay.
describe('the plain-record reader on upstream evidence', () => {
  it('writers-day.yaml: every record read fast, each equal to the yaml reading', () => {
    const text = readFileSync(join(REFERENCE, 'aep', 'evidence', 'writers-day.yaml'), 'utf8')
    const split = splitEvidenceRecords(text.replace(/^#.*\n/gm, ''))
    if (split?.kind !== 'records') throw new Error('writers-day.yaml is not split into records')
    expect(split.records.length).toBe(5)
    for (const record of split.records) {
      const plain = readPlainRecord(record.text, record.line - 1)
      expect(plain, `record at line ${record.line}`).toBeDefined()
      expect(isDeepStrictEqual(plain, readIntakeText(record.text, record.line - 1).value), `record at line ${record.line}`).toBe(true)
    }
  })
})
