import { describe, expect, it } from 'vitest'
import { b10xAdapter } from '../../adapters/b10x/adapter.js'
import { contractResultLine } from '../evidence/contract-result.js'
import { ContractResultError, contractResultOf, providerOf } from './contract-result.js'

describe('contract_result', () => {
  it('is the compact sorted-key line with a trailing newline', () => {
    const outcomes = Array.from({ length: 7 }, (_, index) => ({ id: `v${index}`, tier: index === 0 ? 'c1' : 'c2', passed: true, detail: '' }) as const)
    expect(contractResultLine(contractResultOf(providerOf(b10xAdapter.capabilities()), outcomes))).toBe(
      '{"breaking_changes":0,"checked":7,"consumer":"metaharness.event/1","failed":0,"kind":"contract_result","provider":"b10x 0.12.1"}\n',
    )
  })

  it('counts a red C3 vector as failed but not as a breaking change', () => {
    const record = contractResultOf('x 1', [
      { id: 'a', tier: 'c3', passed: false, detail: 'internal' },
      { id: 'b', tier: 'c2', passed: false, detail: 'vendor moved' },
      { id: 'c', tier: 'c1', passed: true, detail: 'a warning is a pass' },
    ])
    expect(record).toMatchObject({ checked: 3, failed: 2, breaking_changes: 1 })
  })

  it('refuses to mint a record for a run that checked nothing', () => {
    expect(() => contractResultOf('x 1', [])).toThrow(ContractResultError)
  })
})
