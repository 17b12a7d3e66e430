import { describe, expect, it } from 'vitest'
import { sedScriptFiles } from './sed-script.js'

describe('the files a sed script names', () => {
  it.each([
    ['/ERROR/w errors.log', [], ['errors.log']],
    ['s/a/b/w changed.txt', [], ['changed.txt']],
    ['s/a/b/gpw changed.txt', [], ['changed.txt']],
    ['s|/usr/w |x|w out/x.txt', [], ['out/x.txt']],
    ['1,/^$/W head.txt', [], ['head.txt']],
    ['$!{/x/w a.txt\n}', [], ['a.txt']],
    ['/x/r .env', ['.env'], []],
    ['1R  notes.md', ['notes.md'], []],
    ['/start/,/end/{r inc.txt\nw out.txt\n}', ['inc.txt'], ['out.txt']],
    ['\\%x%w x.log', [], ['x.log']],
    ['/x/I w ci.txt', [], ['ci.txt']],
  ])('%j reads %j and writes %j', (script, read, written) => {
    expect(sedScriptFiles(script)).toEqual({ read, written })
  })

  it.each([
    '1,20p',
    's/w x/y/',
    's/a/b/g',
    '/^#/d',
    'y/abc/xyz/',
    's/(w+) (w+)/\\2 \\1/',
    '$!N;s/\\n/ /',
    ':a;N;$!ba;s/\\n/ /g',
    '/x/a write this',
    '1i # w header',
    'w /dev/stdout',
    's/x/y/w /dev/stderr',
    '/x/{p;q}',
    'l 70',
  ])('%j names no file', (script) => {
    expect(sedScriptFiles(script)).toEqual({ read: [], written: [] })
  })
})
