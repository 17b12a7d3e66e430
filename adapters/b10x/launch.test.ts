import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveProgram } from '../shared/resolve-program.js'
import { b10xChildPath, planB10xLaunch } from './launch.js'

const BASE = { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', workspace: '/w', input: '--looks-like-a-flag', scratch: '/s' }

describe('planB10xLaunch', () => {
  it('constructs the environment from nothing: exactly PATH and XDG_CONFIG_HOME', () => {
    const plan = planB10xLaunch({ ...BASE, program: '/bin/b10x', home: '/h' })
    expect(plan.env).toEqual({ PATH: '/h/.local/bin:/usr/local/bin:/usr/bin:/bin', XDG_CONFIG_HOME: '/s/config' })
    expect(planB10xLaunch({ ...BASE, program: '/bin/b10x' }).env['PATH']).toBe('/usr/local/bin:/usr/bin:/bin')
  })

  it('keeps the request last, because it is the one argument that can look like a flag', () => {
    const plan = planB10xLaunch({ ...BASE, program: '/bin/b10x', maxTurns: 8, writeScope: ['docs/**=denied', '**=allowed'] })
    expect(plan.args.slice(-2)).toEqual(['--input', '--looks-like-a-flag'])
    expect(plan.args).toContain('--json')
    expect(plan.args.join(' ')).toContain('--write-scope docs/**=denied --write-scope **=allowed')
  })

  it('names the credential, never reads it from the environment', () => {
    const plan = planB10xLaunch({ ...BASE, program: '/bin/b10x', credential: { kind: 'oauth-token-file', path: '/t.json', pointer: '/token' } })
    expect(plan.args.join(' ')).toContain('--oauth-token-file /t.json --oauth-token-pointer /token')
    expect(plan.args).not.toContain('--api-key-env')
  })

  it('takes the embedded substrate bare', () => {
    const plan = planB10xLaunch({ ...BASE, program: '/bin/b10x', confinement: { kind: 'embedded', root: '/root' } })
    expect(plan.args).toContain('--substrate-embedded')
    expect(plan.args).not.toContain('/root')
  })

  it('resolves a bare program name on the child PATH, not the operator PATH', () => {
    const home = mkdtempSync(join(tmpdir(), 'vh-home-'))
    mkdirSync(join(home, '.local', 'bin'), { recursive: true })
    const binary = join(home, '.local', 'bin', 'b10x-harness')
    writeFileSync(binary, '#!/bin/sh\n')
    chmodSync(binary, 0o755)
    expect(resolveProgram('b10x-harness', b10xChildPath(home))).toBe(binary)
    expect(planB10xLaunch({ ...BASE, home }).program).toBe(binary)
    expect(resolveProgram('no-such-binary-here', b10xChildPath(home))).toBeUndefined()
  })
})
