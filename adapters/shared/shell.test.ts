import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commandsOfShellLine, shellTokens } from './shell.js'

// The splitter as first written, a character at a time: the reference the sliced one must equal.
function shellTokensByCharacter(line: string): string[] {
  const tokens: string[] = []
  let word = ''
  let inWord = false
  const flush = (): void => {
    if (inWord) tokens.push(word)
    word = ''
    inWord = false
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word += end === -1 ? line.slice(i + 1) : line.slice(i + 1, end)
      inWord = true
      i = end === -1 ? line.length : end
    } else if (c === '"') {
      inWord = true
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1] as string)) i++
        word += line[i]
      }
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[i + 1]
      inWord = true
      i++
    } else if (c === ' ' || c === '\t') {
      flush()
    } else if (c === '\n' || c === ';' || c === '&' || c === '|') {
      flush()
      const two = line.slice(i, i + 2)
      if (two === '&&' || two === '||' || two === '|&') {
        tokens.push(two)
        i++
      } else tokens.push(c)
    } else {
      word += c
      inWord = true
    }
  }
  flush()
  return tokens
}

describe('shellTokens', () => {
  it('splits every line as the character-at-a-time splitter does', () => {
    const character = fc.constantFrom(...'ab/.-=', "'", '"', '\\', ' ', '\t', '\n', ';', '&', '|', '$', '`', '\u00e9', '\ud83d')
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), (characters) => {
        const line = characters.join('')
        expect(shellTokens(line)).toEqual(shellTokensByCharacter(line))
      }),
      { numRuns: 5000, seed: 15 },
    )
  })

  it('reads quotes, escapes and operators', () => {
    expect(shellTokens(`cat "a \\"b\\" c" 'd e'\\ f&&ls|wc -l; x\\`)).toEqual(['cat', 'a "b" c', 'd e f', '&&', 'ls', '|', 'wc', '-l', ';', 'x\\'])
    expect(commandsOfShellLine("/usr/bin/bash -lc 'head -n 1 file-1.md'").map((command) => command.program)).toEqual(['head'])
  })
})
