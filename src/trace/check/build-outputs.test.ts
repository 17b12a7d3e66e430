import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTranscriptFile } from './check.js'
import { readSpec } from '../spec/read.js'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A build tool writes where it keeps what it builds, and resolves the lock where it is stale:
 * `cargo test` writes `target/` and may rewrite `Cargo.lock`, `uv run pytest` syncs `.venv` and
 * locks first, `python3 -m venv .venv` makes the folder it names. "Never edit a lock file" was `ok`
 * over each, as over ten real heru reviewer runs (Codex `exec --json`) that ran `uv run pytest`.
 */

const NOT_WRITTEN = (glob: string): string => `{tool.absent: {operations: [file.write, file.edit], subject: {glob: "${glob}"}}}`

describe('what a build tool writes', () => {
  it.each([
    ['cargo test', 'file:Cargo.lock', 'Cargo.lock'],
    ['cargo build --release', 'file:target/*', 'target/**'],
    ['uv run pytest -q', 'file:uv.lock', 'uv.lock'],
    ['uv run --frozen pytest', 'file:.venv/*', '.venv/**'],
    ['python3 -m venv .venv', 'file:.venv/*', '.venv/**'],
    ['cmake -B build -S .', 'file:build/*', 'build/**'],
    ['./gradlew build', 'file:build/*', 'build/**'],
    ['dotnet build', 'file:obj/*', 'obj/**'],
  ])('%s: "nothing %s written" is unknown, naming %s', (line, glob, file) => {
    expect(over(NOT_WRITTEN(glob), line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })

  it.each([
    ['cargo test --locked', 'file:Cargo.lock'],
    ['uv run --frozen pytest', 'file:uv.lock'],
    ['uv run --no-sync pytest', 'file:.venv/*'],
    ['cargo test', 'file:src/*'],
    ['go build ./...', 'file:*'],
    ['cmake --version', 'file:build/*'],
  ])('%s stays ok under "nothing %s written"', (line, glob) => {
    expect(over(NOT_WRITTEN(glob), line).verdict).toBe('ok')
  })

  it('a real Codex run that ran `uv run pytest -q` may have locked: "no lock file edited" is unknown, citing the call', async () => {
    const spec = readSpec(`format: trace-spec/1\nid: locks\nexpectations:\n  - id: no-lock-edit\n    expect: ${NOT_WRITTEN('file:*.lock')}\n`)
    const report = await checkTranscriptFile(spec, resolve(import.meta.dirname, '../../../test/fixtures/wild/codex-exec-json/heru_T-0001-SA-0004-reviewer.jsonl'))
    expect(report.expectations[0]).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining(['uv.lock']) } })
  })
})
