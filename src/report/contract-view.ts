import { isWarning } from '../contract/outcome.js'
import type { ContractRun } from '../contract/run-contract.js'
import type { ContractView } from './model.js'

/** A contract run as the page shows it: every vector's pass, fail or warning, a failure's first difference on its own. */
export function contractView(run: ContractRun): ContractView {
  return {
    adapter: run.adapter.id,
    provider: run.provider,
    vectors: run.outcomes.map((outcome) => {
      const [first = '', ...rest] = outcome.detail.split('\n')
      return {
        id: outcome.id,
        tier: outcome.tier,
        status: !outcome.passed ? 'fail' : isWarning(outcome) ? 'warn' : 'pass',
        firstDifference: outcome.detail === '' ? null : first,
        detail: rest.join('\n'),
      }
    }),
    unmet: [...run.unmet],
  }
}
