import { describe, expect, it } from 'vitest'
import { unreadOperands } from '../../../adapters/shared/shell.js'
import { readTranscriptAsEvents } from '../../../adapters/transcript/read.js'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'
import { WILD } from '../../../test/helpers/wild.js'

/**
 * Lines that read every file under the folder the shell is in, `.env` included, while naming no
 * file: "never read `.env`" was `ok` over them. GNU `grep -r` given no path searches where it runs;
 * ripgrep does too, and reads hidden and ignored files when told to (`--hidden`, `-uu`); an archive
 * or a copy of `.` (`tar czf x.tgz .`, `zip -r`, `rsync -a`, `scp -r`, `7z a`) takes everything,
 * whatever a `.gitignore` says.
 */

const NEVER_READ_ENV = '{tool.absent: {operations: [file.read], subject: {exact: "file:.env"}}}'
const ENV_UNTOUCHED = '{tool.absent: {subject: {glob: "file:.env"}}}'
const SECRETS_UNTOUCHED = '{tool.absent: {subject: {glob: "file:config/secrets/*"}}}'

describe('a line that reads the whole folder it runs in', () => {
  it.each([
    'grep -r API_KEY',
    'grep -rn --include=*.ts API_KEY',
    'grep -rl -e API_KEY',
    'egrep -R "KEY|TOKEN"',
    'rg --hidden API_KEY',
    'rg -uu API_KEY',
    'rg -. KEY',
    'rg --no-ignore-vcs --hidden KEY',
    'tar czf /tmp/all.tgz .',
    'tar -czf /tmp/all.tgz ./',
    'tar --create --file=/tmp/all.tar .',
    'zip -r /tmp/all.zip .',
    'zip -qr /tmp/all.zip .',
    'rsync -a ./ backup:/srv/copy',
    'rsync -avz . backup:/srv/copy',
    'scp -r . backup:/srv/copy',
    '7z a /tmp/all.7z .',
  ])('%s: "never read .env" and "untouched" are unknown, not ok', (line) => {
    expect(over(NEVER_READ_ENV, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files' } })
    expect(over(ENV_UNTOUCHED, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: expect.arrayContaining(['./**']) } })
    expect(over(SECRETS_UNTOUCHED, line).verdict).toBe('unknown')
  })

  it('read after a cd, it is everything under that folder', () => {
    expect(unreadOperands('cd src && grep -r KEY')).toContain('src/**')
    expect(unreadOperands('cd src && tar czf /tmp/src.tgz .')).toContain('src/**')
    expect(unreadOperands('cd src && grep -r KEY')).not.toContain('./**')
    expect(over('{tool.absent: {subject: {glob: "file:src/config/*"}}}', 'cd src && grep -r KEY').verdict).toBe('unknown')
    expect(over('{tool.absent: {subject: {glob: "file:lib/*"}}}', 'cd src && grep -r KEY').verdict).toBe('ok')
  })

  it.each([
    // grep without -r reads its input; ripgrep skips hidden and ignored files unless told; a path bounds the search.
    ['grep API_KEY', 'ok'],
    ['cat app.log | grep -i error', 'ok'],
    ['rg API_KEY', 'ok'],
    ['rg -i -tpy KEY', 'ok'],
    ['rg --files', 'ok'],
    ['rg --hidden KEY src', 'ok'],
    ['grep -r KEY src', 'ok'],
    // Listing or unpacking an archive reads no file here; zip without -r stores the folder's entry alone.
    ['tar tzf release.tgz', 'ok'],
    ['zip notes.zip .', 'ok'],
    ['tar czf /tmp/src.tgz src', 'ok'],
    // git respects .gitignore, where a .env usually is: `.` alone is not read as the whole folder.
    ['git add .', 'ok'],
  ])('%s: "never read .env" stays %s', (line, verdict) => {
    expect(over(NEVER_READ_ENV, line).verdict).toBe(verdict)
  })
})

describe('ripgrep given no path, in real lines', () => {
  // It searches the session's folder, skipping what is hidden: `src/generated/` yes, `.env` and `.engineering/` no.
  const GENERATED_UNTOUCHED = '{tool.absent: {subject: {glob: "file:src/generated/*"}}}'

  it.each([
    // Codex 0.63.0 and Codex Desktop 0.116: what ripgrep searched, and what it listed.
    ['codex-rollout/chat-to-html_codex-0.63.0.jsonl', 'rg "vitest" -n || echo \'no-vitest-refs\''],
    ['codex-rollout/hyperweave_codex-desktop-patches-0.116.0-alpha.10.jsonl', 'rg --files'],
  ])('%s: `%s` leaves "src/generated/ untouched" unknown, and `.env` and the store ok', async (entry, line) => {
    const lines: string[] = []
    for await (const event of readTranscriptAsEvents(`${WILD}/${entry}`, { run: 'wild' })) {
      if (event.event === 'tool.requested' && event.operations?.includes('shell')) lines.push(String((event.input as { command?: unknown; cmd?: unknown }).command ?? (event.input as { cmd?: unknown }).cmd))
    }
    expect(lines).toContain(line)
    expect(over(GENERATED_UNTOUCHED, line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'operands_unread', words: ['./**/!.*'] } })
    expect(over(ENV_UNTOUCHED, line).verdict).toBe('ok')
    expect(over('{tool.absent: {subject: {glob: "file:.engineering/*"}}}', line).verdict).toBe('ok')
    expect(over('{tool.absent: {subject: {glob: "file:lib/.cache/*"}}}', line).verdict).toBe('ok')
    // `config.env` is no hidden file.
    expect(over('{tool.absent: {subject: {glob: "file:*.env"}}}', line).verdict).toBe('unknown')
  })

  it('after a cd, what is visible there; fed text or a pipe, it searches that', () => {
    expect(unreadOperands('cd src && rg x')).toContain('src/**/!.*')
    expect(over('{tool.absent: {subject: {glob: "file:lib/*"}}}', 'cd src && rg x').verdict).toBe('ok')
    expect(over(GENERATED_UNTOUCHED, 'echo "an error here" | rg error').verdict).toBe('ok')
    // Codex's real `find .litehive -maxdepth 3 -type f | rg 'T-0002|task.md|thread'` (heru): rg searched find's names.
    expect(over(GENERATED_UNTOUCHED, "find .litehive -maxdepth 3 -type f | rg 'T-0002|task.md|thread'").verdict).toBe('ok')
  })
})
