import { describe, expect, it } from 'vitest'
import { unreadOperands } from './shell.js'

/** Readers of whole trees (`treeRead`), as the words `unreadOperands` gives for them. */
describe('programs that read whole trees', () => {
  it.each([
    // Searchers: where they run when given no folder; ag, pt and rga skip hidden files there, as ripgrep does.
    ['ag KEY', './**/!.*'],
    ['ag --hidden KEY', './**'],
    ['ag -G "\\.ts$" KEY', './**/!.*'],
    ['ag KEY .', './**'],
    ['pt KEY', './**/!.*'],
    ['rga KEY', './**/!.*'],
    ['ack KEY', './**'],
    ['ack --type=js KEY lib', 'lib/**'],
    ['sift -e KEY', './**'],
    ['ugrep -r KEY', './**'],
    ['ugrep -rn -e KEY src', 'src/**'],
    // fd running a program on what it finds.
    ['fd -e md -x cat', './**/!.*'],
    ['fd -H . -x cat', './**'],
    ['fd -e ts . src -X wc -l', 'src/**'],
    // Secret scanners and repository packers.
    ['trufflehog filesystem .', './**'],
    ['trufflehog git file://.', './**'],
    ['gitleaks detect', './**'],
    ['gitleaks detect --source app', 'app/**'],
    ['gitleaks dir src', 'src/**'],
    ['detect-secrets scan', './**'],
    ['npx repomix', './**'],
    ['repomix src -o out.xml', 'src/**'],
    ['files-to-prompt .', './**'],
    ['code2prompt src', 'src/**'],
    ['semgrep --config auto', './**'],
    ['semgrep scan --config p/ci app', 'app/**'],
    ['cd web && ag KEY', 'web/**/!.*'],
  ])('%s reads %s', (line, folder) => {
    expect(unreadOperands(line)).toContain(folder)
  })

  it.each(['echo x | ag KEY', 'git log | ack fix', 'ugrep KEY notes.md', 'fd -e md', 'fd -e md | head', 'trufflehog git https://example.invalid/x.git', 'gitleaks version', 'detect-secrets audit .secrets.baseline', 'semgrep --version', 'tree -a', 'cloc .'])(
    '%s reads no whole tree',
    (line) => {
      expect(unreadOperands(line).filter((word) => word.endsWith('**') || word.endsWith('!.*'))).toEqual([])
    },
  )
})
