import { describe, expect, it } from 'vitest'
import { readYaml } from './yaml.js'

const codes = (text: string) => {
  const result = readYaml(text)
  return result.ok ? [] : result.problems.map((problem) => `${problem.code}@${problem.line}:${problem.col}`)
}

describe('readYaml', () => {
  it('reads a document into plain values, aliases included', () => {
    expect(readYaml('a: &x [1, 2]\nb: *x\n')).toMatchObject({ ok: true, value: { a: [1, 2], b: [1, 2] } })
  })

  it('refuses a key written twice, at the second one, however deep', () => {
    expect(codes('a: 1\nb:\n  c: 1\n  c: 2\n')).toEqual(['DUPLICATE_KEY@4:3'])
    expect(readYaml('a: 1\na: 2\n', { uniqueKeys: false })).toMatchObject({ ok: true, value: { a: 2 } })
  })

  it('finds duplicates among 40,000 keys in one pass (the quadratic check took a minute)', () => {
    const keys = Array.from({ length: 40_000 }, (_, index) => `k${index}: ${index}`)
    expect(codes(keys.join('\n') + '\n')).toEqual([])
    expect(codes([...keys, 'k39999: again'].join('\n') + '\n')).toEqual(['DUPLICATE_KEY@40001:1'])
  })

  it('refuses an alias bomb by yaml’s own alias limit', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, level) => `${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(9).fill(`*${String.fromCharCode(97 + level)}`).join(', ')}]`)].join('\n')
    expect(codes(bomb)).toEqual(['ALIAS_LIMIT@1:1'])
  })

  it('refuses an alias to an anchor never set', () => {
    expect(codes('a: *nowhere\n')[0]).toMatch(/^(YAML_SYNTAX|UNRESOLVED_ALIAS)@/)
  })

  it('refuses nesting thousands deep with a code, not a stack overflow', () => {
    expect(codes('['.repeat(8000) + ']'.repeat(8000))[0]).toMatch(/^NESTING_TOO_DEEP@/)
    expect(codes('a:\n' + Array.from({ length: 300 }, (_, depth) => `${'  '.repeat(depth + 1)}k${depth}:`).join('\n') + ' 1\n')[0]).toMatch(/^NESTING_TOO_DEEP@/)
  })
})

describe('readYaml positions', () => {
  it('finds where a path was written: its value, or the key naming its last step, one-based', () => {
    const read = readYaml('top:\n  list:\n    - x: 1\n    - {y: 2}\n')
    if (!read.ok) throw new Error('expected the document to read')
    expect(read.positionOf(['top', 'list', 1, 'y'])).toEqual({ line: 4, col: 11 })
    expect(read.positionOf(['top', 'list', 1, 'y'], { key: true })).toEqual({ line: 4, col: 8 })
    expect(read.positionOf(['top', 'list', 0, 'x'], { key: true })).toEqual({ line: 3, col: 7 })
    expect(read.positionOf(['top', 'nothing'])).toBeUndefined()
  })
})
