import { describe, expect, it } from 'vitest'
import { escapeForTerminal } from './terminal-text.js'

describe('escapeForTerminal', () => {
  it('spells every sequence a terminal would obey as an escape', () => {
    expect(escapeForTerminal('a\x1b]0;pwned\x07b\x1b[2Jc\rd\u202ee\u2066f\x9bg\x7f')).toBe('a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x0dd\\u202ee\\u2066f\\x9bg\\x7f')
  })

  it('leaves printable text, tabs, line breaks and non-Latin scripts alone', () => {
    const text = 'ok\tread-file  Read → 日本語 العربية ✓\nnext line\n'
    expect(escapeForTerminal(text)).toBe(text)
  })
})
