import { describe, expect, it } from 'vitest'
import { describeMatcher, globMatches, matchesEveryText, matchesRecorded, matchesText, regexFinds, textOf } from './matcher.js'

describe('field matchers', () => {
  it('anchors a glob at both ends, with * any run and ? one character, everything else literal', () => {
    expect(globMatches('*/.engineering/planning/*.md', '/work/project/.engineering/planning/story/x.md')).toBe(true)
    expect(globMatches('*/.engineering/planning/*.md', '/work/project/docs/plan/x.md')).toBe(false)
    expect(globMatches('*', '')).toBe(true)
    expect(globMatches('a?c', 'abc')).toBe(true)
    expect(globMatches('a?c', 'ac')).toBe(false)
    expect(globMatches('abc', 'abcd')).toBe(false)
    expect(globMatches('a.c+d', 'a.c+d')).toBe(true)
    expect(globMatches('a.c+d', 'abcccd')).toBe(false)
    expect(globMatches('?', '😀'), '? is one character, not one UTF-16 unit').toBe(true)
  })

  it('searches a regex anywhere in the field, where a glob of the same text must be the whole of it', () => {
    expect(matchesRecorded({ regex: 'test' }, 'cargo test --workspace')).toBe(true)
    expect(matchesRecorded({ glob: 'test' }, 'cargo test --workspace')).toBe(false)
    expect(matchesRecorded({ regex: '^a.c$' }, 'axc')).toBe(true)
    expect(matchesRecorded({ glob: 'a.c' }, 'axc')).toBe(false)
  })

  it('cannot be made to hang by a pattern that backtracks catastrophically elsewhere', () => {
    // (a+)+$ against a run of a's ending in b is exponential for a backtracking engine; RE2 is linear.
    const subject = `${'a'.repeat(100_000)}b`
    // A backtracking engine would not return within the test's timeout; RE2 answers at once.
    expect(regexFinds({ regex: '(a+)+$' }, subject)).toBe(false)
    expect(regexFinds({ regex: '(x+x+)+y' }, 'x'.repeat(50_000))).toBe(false)
  })

  it('compares equals like with like, so false never matches "false"', () => {
    expect(matchesRecorded({ equals: false }, false)).toBe(true)
    expect(matchesRecorded({ equals: false }, 'false')).toBe(false)
    expect(matchesRecorded({ equals: 3 }, 3)).toBe(true)
    expect(matchesRecorded({ equals: 3 }, '3')).toBe(false)
    expect(matchesRecorded({ equals: 'x' }, 'x')).toBe(true)
  })

  it('reads a non-string field through its key-sorted compact JSON', () => {
    expect(textOf({ skill: 'protocols:planning', a: 1 })).toBe('{"a":1,"skill":"protocols:planning"}')
    expect(matchesRecorded({ contains: 'planning' }, { skill: 'protocols:planning' })).toBe(true)
    expect(matchesRecorded({ contains: 'planning' }, { skill: 'protocols:review' })).toBe(false)
    expect(matchesRecorded({ contains: 'true' }, true)).toBe(true)
  })

  it('treats equals over a bare text as exact only for a string', () => {
    expect(matchesText({ equals: 'done' }, 'done')).toBe(true)
    expect(matchesText({ equals: true }, 'true')).toBe(false)
  })

  it('renders matchers as upstream does, quoting with Rust escapes', () => {
    expect(describeMatcher({ contains: 'protocol artifact new' })).toBe('~ "protocol artifact new"')
    expect(describeMatcher({ exact: 'a"b\\c\n' })).toBe('= "a\\"b\\\\c\\n"')
    expect(describeMatcher({ glob: 'file:*/src/*' })).toBe('glob "file:*/src/*"')
    expect(describeMatcher({ regex: '^x' })).toBe('regex "^x"')
    expect(describeMatcher({ equals: false })).toBe('== false')
  })

  it('knows which matchers hold for every text', () => {
    expect(matchesEveryText({ contains: '' })).toBe(true)
    expect(matchesEveryText({ glob: '**' })).toBe(true)
    expect(matchesEveryText({ glob: '' })).toBe(false)
    expect(matchesEveryText({ regex: '.*' })).toBe(true)
    expect(matchesEveryText({ regex: '^$' })).toBe(false)
    expect(matchesEveryText({ contains: 'x' })).toBe(false)
  })
})
