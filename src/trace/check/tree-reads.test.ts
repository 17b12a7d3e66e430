import { describe, expect, it } from 'vitest'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A program whose job is to read a whole tree reads what lies under where it runs: `ack KEY`
 * prints matching lines of every file here, `trufflehog filesystem .` and `gitleaks detect` print
 * the secrets they find, `repomix` packs every file into one. "Never read `.env`" was `ok` over each.
 */

const NEVER_READ_ENV = '{tool.absent: {operations: [file.read], subject: {glob: "file:.env"}}}'
const GENERATED_UNREAD = '{tool.absent: {operations: [file.read], subject: {glob: "file:src/generated/*"}}}'

describe('what a reader of whole trees reads', () => {
  it.each(['docker build -t app .', 'docker buildx build --push .', 'podman build .', 'ack API_KEY', 'ugrep -rn API_KEY', 'trufflehog filesystem .', 'gitleaks detect', 'detect-secrets scan', 'npx repomix', 'files-to-prompt .', 'semgrep --config auto', 'fd -H . -x cat'])(
    '%s: "never read .env" is unknown',
    (line) => {
      expect(over(NEVER_READ_ENV, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining(['./**']) } })
    },
  )

  it.each(['ag API_KEY', 'pt API_KEY', 'fd -e ts -x cat'])('%s skips hidden files, as ripgrep does: .env stays ok, src/generated/ is unknown', (line) => {
    expect(over(NEVER_READ_ENV, line).verdict).toBe('ok')
    expect(over(GENERATED_UNREAD, line)).toMatchObject({ verdict: 'unknown', outcome: { files: expect.arrayContaining(['./**/!.*']) } })
  })

  it.each(['docker build -t app web', 'docker run --rm app', 'ack API_KEY lib', 'echo x | ag KEY', 'gitleaks version', 'tree -a', 'fd -e md'])('%s stays ok: it reads no .env', (line) => {
    expect(over(NEVER_READ_ENV, line).verdict).toBe('ok')
  })
})
