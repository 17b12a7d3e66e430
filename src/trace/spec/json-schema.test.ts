import { readFileSync } from 'node:fs'
import Ajv from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../util/package-info.js'
import { TRACE_SPEC_SCHEMA_FILE, traceSpecJsonSchema, traceSpecJsonSchemaText } from './json-schema.js'

describe('the shipped trace-spec/1 JSON Schema', () => {
  it('is the file generated from the reader’s zod schema (run `npm run generate:schema` when this fails)', () => {
    const committed = readFileSync(`${packageRoot()}/${TRACE_SPEC_SCHEMA_FILE}`, 'utf8')
    expect(committed).toBe(traceSpecJsonSchemaText())
  })

  it('accepts what the reader accepts and refuses an unknown key, so an editor flags it', () => {
    const validate = new Ajv.default({ strict: false }).compile(traceSpecJsonSchema())
    const good = {
      format: 'trace-spec/1',
      id: 'eval/x',
      expectations: [
        { id: 'a', expect: { 'tool.called': { tools: ['Bash'], args: { command: { contains: 'test' } }, count: { at_least: 1 } } } },
        { id: 'b', severity: 'advisory', expect: { 'cost.total': { at_most_usd: 1.5 } } },
        { id: 'c', expect: { 'text.matches': { regex: '^done' } } },
      ],
    }
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...good, expectations: [{ id: 'a', expect: { 'tool.called': { toool: 'Bash' } } }] })).toBe(false)
    expect(validate({ ...good, expectations: [{ id: 'a', expect: { 'tool.kalled': {} } }] })).toBe(false)
    expect(validate({ ...good, expectations: [{ id: 'a', expect: { 'text.matches': { contains: 'x', glob: 'y' } } }] })).toBe(false)
  })
})
