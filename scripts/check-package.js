// `npm run check:package`: the package as npm would publish it. Packs once (`prepack` builds dist/),
// installs the tarball into an empty project and fails on any npm warning, then runs publint and
// @arethetypeswrong/cli on that same tarball. attw runs with `--profile esm-only`: the package is
// ESM-only by design (`"type": "module"`, no `require` condition), so the node10 and CommonJS
// resolutions it would otherwise fail on are not promises the package makes.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'vh-check-package-'))

function run(label, command, args, cwd) {
  console.log(`== ${label}`)
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' })
  if (result.status !== 0) {
    process.stdout.write(result.stdout)
    process.stderr.write(result.stderr)
    console.error(`[vitest-harness] check:package: ${label} failed with exit code ${result.status}`)
    process.exit(1)
  }
  return result
}

try {
  const packed = run('npm pack', 'npm', ['pack', '--json', '--pack-destination', scratch], root)
  const tarball = join(scratch, JSON.parse(packed.stdout)[0].filename)

  const project = join(scratch, 'project')
  run('mkdir', 'mkdir', [project], scratch)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'an-empty-project', private: true, type: 'module' }))
  const install = run('npm install the tarball into an empty project', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project)
  const warnings = install.stderr.split('\n').filter((line) => /\bwarn/i.test(line))
  if (warnings.length > 0) {
    console.error(`[vitest-harness] check:package: installing the tarball warned:\n${warnings.join('\n')}`)
    process.exit(1)
  }
  console.log('   no warning')

  const bin = (name) => join(root, 'node_modules', '.bin', name)
  console.log(run('publint', bin('publint'), ['run', tarball, '--strict'], root).stdout.trim())
  const attw = run('attw --profile esm-only', bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-emoji', '--no-color'], root)
  console.log(attw.stdout.trim())
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
