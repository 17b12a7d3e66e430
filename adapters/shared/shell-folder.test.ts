import { describe, expect, it } from 'vitest'
import { commandsOfShellLine } from './shell.js'
import { joinFolder, keptFolderTools, keptShellName, placeAfterAll, STARTING_PLACE, type ShellPlace } from './shell-folder.js'

const after = (line: string, place: ShellPlace = STARTING_PLACE): string => placeAfterAll(commandsOfShellLine(line), place).folder

describe('the folder a shell is in', () => {
  it('joins a relative path to the folder, resolving `.` and `..`; a path from / or ~ is itself', () => {
    expect(joinFolder('src/', 'generated/out.js')).toBe('src/generated/out.js')
    expect(joinFolder('src/', '../.engineering/notes.md')).toBe('.engineering/notes.md')
    expect(joinFolder('', './a/../b/')).toBe('b/')
    expect(joinFolder('', '../up')).toBe('../up')
    expect(joinFolder('/w/src/', '../..')).toBe('/')
    expect(joinFolder('src/', '/etc/hosts')).toBe('/etc/hosts')
    expect(joinFolder('src/', '~/notes')).toBe('~/notes')
  })

  it('moves with cd, pushd and popd, as a shell runs them in order', () => {
    expect(after('cd src && make')).toBe('src/')
    expect(after('cd src; cd ../.engineering')).toBe('.engineering/')
    expect(after('cd -P -- src/lib')).toBe('src/lib/')
    expect(after('cd /w/app')).toBe('/w/app/')
    expect(after('cd')).toBe('~/')
    expect(after('cd src; cd docs; cd -')).toBe('src/')
    expect(after('pushd src && pushd lib && popd')).toBe('src/')
    expect(after('popd')).toBe('')
    // Nothing is expanded: a folder named by a variable is read as written.
    expect(after('cd "$DIR"')).toBe('$DIR/')
    // From where an earlier call left it.
    expect(after('cd lib', { folder: 'src/', previous: '', pushed: [] })).toBe('src/lib/')
    expect(after('ls -la')).toBe('')
  })

  it('knows which harness tools run every call in one shell that keeps its folder', () => {
    const keeps = (adapter: string | null, tool: string): boolean => keptFolderTools(adapter)?.has(tool) === true
    expect(keeps('claude', 'Bash')).toBe(true)
    expect(keeps('atif', 'bash_command')).toBe(true)
    expect(keeps('codex', 'exec_command')).toBe(false)
    expect(keeps('claude', 'Read')).toBe(false)
    expect(keeps(null, 'Bash')).toBe(false)
    expect(keeps('pi', 'bash')).toBe(false)
    // Codex's write_stdin types into one process per session.
    expect(keeps('codex', 'write_stdin')).toBe(true)
    expect(keptShellName('write_stdin', { session_id: 7, chars: 'ls\n' })).toBe('write_stdin 7')
    // So does OpenClaw's process, named by its sessionId.
    expect(keeps('atif', 'process')).toBe(true)
    expect(keptShellName('process', { action: 'write', sessionId: 'salty-crab', data: 'ls\n' })).toBe('process salty-crab')
    expect(keptShellName('Bash', { command: 'ls' })).toBe('Bash')
  })
})
