import { describe, expect, it } from 'vitest'
import { DenialLedger, type CensusCounts } from './denials.js'

const ZEROS: CensusCounts = { allowed: 0, denied: 0, replaced: 0, abstained: 0 }

describe('DenialLedger: how many calls a run had denied', () => {
  it('takes a census of zeros from no seam that could decide for nothing, and a missing list for unknown', () => {
    expect(new DenialLedger().count(ZEROS, null)).toBeNull()
    const observe = new DenialLedger()
    observe.attested('observe')
    expect(observe.count(ZEROS, null)).toBeNull()
    // The vendor's own list decides it.
    expect(observe.count(ZEROS, [])).toBe(0)
  })

  it('takes a census for a count when a seam could decide, decided, or counted anything', () => {
    for (const decisions of ['frame', 'ask']) {
      const ledger = new DenialLedger()
      ledger.attested(decisions)
      expect(ledger.count(ZEROS, null)).toBe(0)
    }
    const decided = new DenialLedger()
    decided.decision(null)
    expect(decided.count(ZEROS, null)).toBe(0)
    expect(new DenialLedger().count({ ...ZEROS, allowed: 2 }, null)).toBe(0)
    expect(new DenialLedger().count({ ...ZEROS, denied: 3 }, null)).toBe(3)
  })

  it('joins the seam’s denials with the vendor’s list by call, and adds the harness’s refusals', () => {
    const ledger = new DenialLedger()
    ledger.decision('c-1')
    ledger.warning('approval-denied')
    ledger.warning('hook-refused')
    ledger.warning('program-refused')
    ledger.warning('unpublished-tool')
    ledger.warning(null)
    // c-1 once; c-2 and an unnamed listing from the vendor; three refusals.
    expect(ledger.count(ZEROS, ['c-1', 'c-2', null])).toBe(1 + 2 + 3)
  })

  it('counts a refusal warning even with neither census nor list', () => {
    const ledger = new DenialLedger()
    ledger.warning('approval-denied')
    expect(ledger.count(null, null)).toBe(1)
  })
})
