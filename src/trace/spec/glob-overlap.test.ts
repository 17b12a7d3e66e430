import { describe, expect, it } from 'vitest'
import { braceWords, literalTokens, shellGlobMayName, specGlobTokens } from './glob-overlap.js'

const store = specGlobTokens('file:*.engineering/*')
const anchored = specGlobTokens('file:.engineering/*')

describe('whether a shell glob may name what a subject matcher matches', () => {
  it('a glob written inside the store, or one that may expand to the store itself, may', () => {
    for (const word of ['.engineering/*', '.engineering/*.md', '.eng*/notes.md', '.*', '.e?gineering', '.[e]ngineering/x', 'work/.*/notes.md']) {
      expect(shellGlobMayName(word, store), word).toBe(true)
    }
    expect(shellGlobMayName('.engineering/*.md', anchored)).toBe(true)
    expect(shellGlobMayName('.*', anchored)).toBe(true)
    expect(shellGlobMayName('.engineering/n?.md', literalTokens('file:.engineering/no.md'))).toBe(true)
  })

  it('a glob a shell never expands to the store may not: `*` matches no leading dot and no slash', () => {
    for (const word of ['*.tmp', 'src/*.ts', '?engineering/x']) {
      expect(shellGlobMayName(word, store), word).toBe(false)
    }
    for (const word of ['*', './*', '*/notes.md', '?engineering', 'build/*']) {
      expect(shellGlobMayName(word, anchored), word).toBe(false)
    }
    expect(shellGlobMayName('.engineering/*.md', literalTokens('file:.engineering/no.txt'))).toBe(false)
    expect(shellGlobMayName('x/.*', anchored)).toBe(false)
  })

  it('`*` and `?` take a dot inside a name: `rm *` may remove README.md, and `*` may be a folder x.engineering', () => {
    const readme = literalTokens('file:README.md')
    for (const word of ['*', 'R*', 'READ*', '*.md', 'README?md', '*E*']) {
      expect(shellGlobMayName(word, readme), word).toBe(true)
    }
    expect(shellGlobMayName('*', store)).toBe(true)
    expect(shellGlobMayName('*', literalTokens('file:.env'))).toBe(false)
    expect(shellGlobMayName('?env', literalTokens('file:.env'))).toBe(false)
  })
})

describe('words a shell changes besides globs', () => {
  const generated = specGlobTokens('file:src/generated/*')

  it('a substitution may be any path at all, `/` and a leading dot included', () => {
    for (const word of ['$F', '${TARGET}', '$(cat list)', '`cat list`', 'src/$NAME', '$DIR/out.js', '**/out.js']) {
      expect(shellGlobMayName(word, generated), word).toBe(true)
    }
    expect(shellGlobMayName('build/$NAME', generated)).toBe(false)
  })

  it('a brace list is each word it makes; a range is read as a run', () => {
    expect(braceWords('src/{a,b}.ts')).toEqual(['src/a.ts', 'src/b.ts'])
    expect(braceWords('{x,y}/{1..3}')).toEqual(['x/*', 'y/*'])
    expect(shellGlobMayName('src/{generated,other}', generated)).toBe(true)
    expect(shellGlobMayName('build/{dist,cache}', generated)).toBe(false)
    expect(braceWords('{}')).toEqual(['{}'])
  })

  it('a folder’s whole contents are named by a matcher’s letters, never by what its wildcard might find there', () => {
    expect(shellGlobMayName('src/**', generated)).toBe(true)
    expect(shellGlobMayName('**', store)).toBe(true)
    expect(shellGlobMayName('build/**', store)).toBe(false)
    expect(shellGlobMayName('work/.engineering/**', store)).toBe(true)
    expect(shellGlobMayName('src/**', specGlobTokens('file:src/.env'))).toBe(true)
  })
})
