import { describe, expect, it } from 'vitest'
import { rowOverShellLine } from '../../../test/helpers/trace.js'

/**
 * The guide's "no edit to the store" row over lines whose program creates, converts or compiles
 * into the file it names (`adapters/shared/shell-writers.ts`): it was `ok` over each of them.
 */

const STORE_UNEDITED = '{tool.absent: {operations: [file.write, file.edit], subject: {glob: "file:.engineering/*"}}}'

const over = (line: string) => rowOverShellLine(STORE_UNEDITED, line)

describe('a line that creates what it names in the store', () => {
  it.each([
    ['mkdir -p .engineering/drafts', '.engineering/drafts'],
    ['chmod 000 .engineering/notes.md', '.engineering/notes.md'],
    ['git clone https://example.invalid/x.git .engineering/x', '.engineering/x/**'],
    ['gcc main.c -o .engineering/main', '.engineering/main'],
    ['npx esbuild src/a.ts --outfile=.engineering/a.js', '.engineering/a.js'],
    ['cd web && npx tsc --outDir ../.engineering', '.engineering/**'],
    ["ssh-keygen -t ed25519 -f .engineering/id -N ''", '.engineering/id'],
    ['7z x backup.7z -o.engineering', '.engineering/**'],
    ['7z x backup.7z', './**'],
    ['unrar x backup.rar .engineering/', '.engineering/**'],
    ['ar x lib.a', './**'],
    [`node -e "require('fs').mkdirSync('.engineering/drafts')"`, '.engineering/drafts'],
    [`python3 -c "import os; os.makedirs('.engineering/drafts')"`, '.engineering/drafts'],
  ])('%s: unknown, naming what it wrote', (line, file) => {
    expect(over(line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })

  it.each(['mkdir -p build', 'gcc main.c -o build/main', 'mktemp -d', 'chmod +x scripts/run.sh', 'python3 gen.py --outdir .engineering', '7z l .engineering/backup.7z', '7z x backup.7z -obuild'])('%s stays ok', (line) => {
    expect(over(line).verdict).toBe('ok')
  })
})
