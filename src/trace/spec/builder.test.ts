import { describe, expect, it } from 'vitest'
import { TraceSpecError } from '../errors.js'
import { spec } from './builder.js'
import { readSpec } from './read.js'

describe('spec(), the typed builder', () => {
  it('builds the same specification a YAML file of the same content reads to', () => {
    const built = spec({
      id: 'builder/smoke',
      title: 'written in code',
      expectations: [
        { id: 'the-suite-ran', expect: { 'tool.called': { tool: 'Bash', args: { command: { contains: 'npm test' } } } } },
        { id: 'nothing-refused', severity: 'advisory', expect: { 'permission.denied': { count: { at_most: 0 } } } },
      ],
    })
    const read = readSpec(
      [
        'format: trace-spec/1',
        'id: builder/smoke',
        'title: written in code',
        'expectations:',
        '  - id: the-suite-ran',
        '    expect: {tool.called: {tool: Bash, args: {command: {contains: npm test}}}}',
        '  - id: nothing-refused',
        '    severity: advisory',
        '    expect: {permission.denied: {count: {at_most: 0}}}',
      ].join('\n'),
    )
    expect(built).toEqual(read)
  })

  it('refuses what a file would be refused for, with every refusal', () => {
    try {
      spec({ id: 'Bad Id', expectations: [{ id: 'x', expect: { turns: { count: { at_least: 3, at_most: 1 } } } }] })
      expect.unreachable('the builder accepted an invalid specification')
    } catch (error) {
      expect(error).toBeInstanceOf(TraceSpecError)
      expect((error as TraceSpecError).refusals.map((refusal) => refusal.code)).toEqual(['TRACE-SPEC-006', 'TRACE-SPEC-007'])
    }
  })
})
