import { describe, expect, it } from 'vitest'
import { concatenatedObjects } from './concatenated.js'

describe('concatenatedObjects', () => {
  it('splits objects written back to back, braces inside strings included', () => {
    const line = '{"type":"message","text":"a } { \\" b"}{"type":"compaction","n":{"x":1}}'
    expect(concatenatedObjects(line)?.map((piece) => piece.value)).toEqual([
      { type: 'message', text: 'a } { " b' },
      { type: 'compaction', n: { x: 1 } },
    ])
  })

  it('answers null for one object, a torn object, or text between objects', () => {
    expect(concatenatedObjects('{"a":1}')).toBeNull()
    expect(concatenatedObjects('{"a":1}{"b":')).toBeNull()
    expect(concatenatedObjects('{"a":1} x {"b":2}')).toBeNull()
    expect(concatenatedObjects('[1]{"b":2}')).toBeNull()
  })
})
