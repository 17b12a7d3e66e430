import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOOPBACK_PLACEHOLDER_KEY } from '../../adapters/launch/declaration.js'
import { findCredentials } from '../helpers/e2e-secret-scan.global.js'

describe('the e2e credential scan', () => {
  it('finds a credential by value or by shape, skips installed packages, and accepts the loopback placeholder', () => {
    const root = mkdtempSync(join(tmpdir(), 'vh-scan-'))
    writeFileSync(join(root, 'config.json'), `{"apiKey":"${LOOPBACK_PLACEHOLDER_KEY}"}`)
    writeFileSync(join(root, 'session.jsonl'), '{"token":"machine-token-value-123"}\n')
    mkdirSync(join(root, 'home'))
    writeFileSync(join(root, 'home', 'log.txt'), 'Authorization: Bearer AIzaSyA0123456789abcdefghijklmnopqrstuvw\n')
    mkdirSync(join(root, 'node_modules', 'openai'), { recursive: true })
    writeFileSync(join(root, 'node_modules', 'openai', 'README.md'), 'apiKey: sk-proj-exampleexampleexample\n')
    const { files, found } = findCredentials(root, [['MACHINE_TOKEN', 'machine-token-value-123']])
    expect(files).toBe(3)
    expect([...found].sort()).toEqual([`${join(root, 'home', 'log.txt')} contains a credential-shaped string (AIzaSyA0…)`, `${join(root, 'session.jsonl')} contains the value of MACHINE_TOKEN`])
  })
})
