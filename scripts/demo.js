// `npm run demo`: runs the example suites in examples/ with their own Vitest config, then says
// where their outputs went. Exits with Vitest's code, so a failing example fails the demo.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'demo-output')
rmSync(out, { recursive: true, force: true })

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs')
const result = spawnSync(process.execPath, [vitest, 'run', '--config', 'examples/vitest.config.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, VITEST_HARNESS_DEMO_OUT: out },
})

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? listFiles(path) : [path]
  })
}

// One page a person opens (issue 12): the trace example's transcript judged by its spec, b10x's
// contract, and the provider example's request log.
const reportPage = join(out, 'report', 'index.html')
const requestLog = join(out, 'provider', 'requests.jsonl')
const report = spawnSync(
  process.execPath,
  [
    join(root, 'bin', 'vitest-harness.js'),
    'report',
    ...['--transcript', 'examples/trace/b10x-fix.jsonl', '--spec', 'examples/trace/b10x-fix.trace.yaml', '--contract', 'b10x'],
    ...(existsSync(requestLog) ? ['--requests', requestLog] : []),
    ...['--out', reportPage],
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
)

if (existsSync(out)) {
  console.log('\nvitest-harness demo outputs (demo-output/):')
  for (const dir of readdirSync(out).sort()) {
    const files = listFiles(join(out, dir))
    console.log(`  ${relative(root, join(out, dir))}/ — ${files.length} file(s)`)
  }
}
if (report.status === 0) console.log(`\nopen the run report: ${relative(root, reportPage)}`)
else console.error(`\nvitest-harness report failed (exit ${report.status}); no run report was written`)
process.exitCode = (result.status ?? 1) || (report.status ?? 1)
