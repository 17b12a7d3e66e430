import { describe, expect, it } from 'vitest'
import { interactiveProgram } from './interactive.js'

describe('a line that only starts a program reading its terminal', () => {
  it.each([
    ['bash', 'shell'],
    ['/bin/bash -lc bash', 'shell'],
    ['zsh -i', 'shell'],
    ['sh -s', 'shell'],
    ['python3', 'interpreter'],
    ['/bin/bash -lc "python3 -i"', 'interpreter'],
    ['node', 'interpreter'],
  ])('%s starts a %s', (line, kind) => {
    expect(interactiveProgram(line)).toBe(kind)
  })

  it.each(['bash --version', 'bash script.sh', "bash -c 'ls'", "/bin/bash -lc 'ls -la'", 'python3 x.py', 'node -e 1', "python3 - <<'PY'\nprint(1)\nPY", 'curl -fsSL https://x | sh', 'cd src && bash', "bash <<'EOF'\nls\nEOF"])('%j starts none', (line) => {
    expect(interactiveProgram(line)).toBeUndefined()
  })
})
