import { describe, expect, it } from 'vitest'
import { literalTokens, shellGlobMayName, specGlobTokens } from './glob-overlap.js'

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
    for (const word of ['*', '*.tmp', 'src/*.ts', './*', '*/notes.md', '?engineering/x', 'build/*']) {
      expect(shellGlobMayName(word, store), word).toBe(false)
    }
    expect(shellGlobMayName('.engineering/*.md', literalTokens('file:.engineering/no.txt'))).toBe(false)
    expect(shellGlobMayName('x/.*', anchored)).toBe(false)
  })
})
