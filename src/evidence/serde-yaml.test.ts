import { describe, expect, it } from 'vitest'
import { writeSerdeYaml } from './serde-yaml.js'

describe('writeSerdeYaml (serde_yaml 0.9 output)', () => {
  it('writes the evidence record of the AEP guide byte for byte', () => {
    // The verbatim default-YAML record from upstream's "check a transcript" guide (notes/aep.md §2.1).
    const record = {
      kind: 'trace_conformance',
      specification: 'planning-plugin/eval',
      spec_digest: '8eca7c40a57e3f45d311c9499102980cb8846c3045ca407e6a3148abc3b8f74f',
      transcript_digest: '53cdb852be82b35c6e401b32c027c1f430f4f3e98098e5a769dc778055166404',
      status: 'passed',
      expectations_total: 41,
      expectations_gapped: 0,
      expectations_unknown: 0,
      adapter: 'claude-code/stream-json (written against 2.1.238)',
      observed_at: 1787270400000,
      producer: { producer: 'verifier', verifier: 'trace-checker' },
      provenance: {
        command: 'aep trace evidence --spec conformance/trace/expectations.trace.yaml --transcript crates/trace-spec/tests/fixtures/plugin-eval-7hTYjT.jsonl',
        inputs: ['conformance/trace/expectations.trace.yaml', 'crates/trace-spec/tests/fixtures/plugin-eval-7hTYjT.jsonl'],
      },
    }
    expect(writeSerdeYaml([record])).toBe(
      [
        '- kind: trace_conformance',
        '  specification: planning-plugin/eval',
        '  spec_digest: 8eca7c40a57e3f45d311c9499102980cb8846c3045ca407e6a3148abc3b8f74f',
        '  transcript_digest: 53cdb852be82b35c6e401b32c027c1f430f4f3e98098e5a769dc778055166404',
        '  status: passed',
        '  expectations_total: 41',
        '  expectations_gapped: 0',
        '  expectations_unknown: 0',
        '  adapter: claude-code/stream-json (written against 2.1.238)',
        '  observed_at: 1787270400000',
        '  producer:',
        '    producer: verifier',
        '    verifier: trace-checker',
        '  provenance:',
        '    command: aep trace evidence --spec conformance/trace/expectations.trace.yaml --transcript crates/trace-spec/tests/fixtures/plugin-eval-7hTYjT.jsonl',
        '    inputs:',
        '    - conformance/trace/expectations.trace.yaml',
        '    - crates/trace-spec/tests/fixtures/plugin-eval-7hTYjT.jsonl',
        '',
      ].join('\n'),
    )
  })

  it('skips undefined fields and writes empty collections in flow style', () => {
    expect(writeSerdeYaml({ a: undefined, b: [], c: {}, d: null, e: true })).toBe('b: []\nc: {}\nd: null\ne: true\n')
    expect(writeSerdeYaml([])).toBe('[]\n')
  })

  it('nests sequences and mappings as libyaml does', () => {
    expect(writeSerdeYaml({ list: [{ x: 1, y: [2, 3] }, [4, 5]], map: { inner: { deep: 'v' } } })).toBe(
      ['list:', '- x: 1', '  y:', '  - 2', '  - 3', '- - 4', '  - 5', 'map:', '  inner:', '    deep: v', ''].join('\n'),
    )
  })

  it.each([
    ['12', "'12'"],
    ['0123', "'0123'"],
    ['-7', "'-7'"],
    ['0x1F', "'0x1F'"],
    ['1e5', "'1e5'"],
    ['.inf', "'.inf'"],
    ['1.', "'1.'"],
    ['true', "'true'"],
    ['False', "'False'"],
    ['null', "'null'"],
    ['~', "'~'"],
    ['', "''"],
    ['yes', 'yes'],
    ['inf', 'inf'],
    ['2026-09-01', '2026-09-01'],
    ['1_000', '1_000'],
    ['a: b', "'a: b'"],
    ['a:b', 'a:b'],
    ['x:', "'x:'"],
    ['- x', "'- x'"],
    ['-x', '-x'],
    ['#x', "'#x'"],
    ['x #y', "'x #y'"],
    ['x#y', 'x#y'],
    [' lead', "' lead'"],
    ['trail ', "'trail '"],
    ['a,b', 'a,b'],
    ['[a', "'[a'"],
    ['---', "'---'"],
    ["it's", "it's"],
    ["'q", "'''q'"],
    ['a\tb', '"a\\tb"'],
    ['a"b\\c', 'a"b\\c'],
    ['é and ü', 'é and ü'],
    ['😀', '"\\U0001F600"'],
    ['a\u0085b', '"a\\Nb"'],
    ['bell\u0007', '"bell\\a"'],
  ])('spells the string %j as %s', (value, spelled) => {
    expect(writeSerdeYaml({ k: value })).toBe(`k: ${spelled}\n`)
  })

  it('writes a multi-line string as a literal block with chomping hints', () => {
    expect(writeSerdeYaml({ k: 'one\ntwo' })).toBe('k: |-\n  one\n  two\n')
    expect(writeSerdeYaml({ k: 'one\ntwo\n' })).toBe('k: |\n  one\n  two\n')
    expect(writeSerdeYaml([{ k: 'one\n\nthree' }])).toBe('- k: |-\n    one\n\n    three\n')
    // Trailing space on a line forbids the block style: double-quoted instead.
    expect(writeSerdeYaml({ k: 'one \ntwo' })).toBe('k: "one \\ntwo"\n')
  })

  it('quotes keys by the same rules', () => {
    expect(writeSerdeYaml({ '1': 'a', 'a b': 'c', '': 'e' })).toBe("'1': a\na b: c\n'': e\n")
  })
})
