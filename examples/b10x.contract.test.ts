import { join } from 'node:path'
import { expect, it } from 'vitest'
import 'vitest-harness/setup'
import { describeHarness } from 'vitest-harness'
import { b10xAdapter } from 'vitest-harness/adapters'

// The b10x adapter's contract, as upstream's `metaharness conformance b10x --contract` runs it:
// one launch, the golden loop, four enforcement records and the version pair — seven model-free
// vectors from the package's own vectors/b10x — and the checklist, whose hook-input row is a
// reasoned gap (b10x has no hook seam). Its contract_result line goes to demo-output/contracts/.
const SEVEN = [
  'c1-observe-launch',
  'golden-loop-record',
  'provider-emulated-unpublished-tool',
  'provider-emulated-approval-denied',
  'provider-emulated-budget-stop',
  'provider-emulated-cancellation',
  'golden-version-pair',
]

const resultFile = join(process.env['VITEST_HARNESS_DEMO_OUT'] ?? 'demo-output', 'contracts', 'b10x.contract-result.json')

describeHarness(
  b10xAdapter,
  {
    only: SEVEN,
    contractResultFile: resultFile,
    onContractResult: (record) => {
      expect(record).toMatchObject({ checked: 7, failed: 0, breaking_changes: 0, provider: 'b10x 0.12.1' })
    },
  },
  ({ check }) => {
    // The user's own tests run inside the same suite.
    it('declares itself observe-only: it decides nothing, so every decision command is refused', () => {
      expect(b10xAdapter).toDeclareCapabilities({
        adapter: { class: 'direct_provider' },
        decision_modes: { observe: 'delivered' },
        commands: { 'tool.decide': { refused: 'UNSUPPORTED_CONTROL' }, halt: 'honoured' },
      })
    })

    it('replays the golden loop into calls it records and never decides', async () => {
      const { actual } = await check('golden-loop-record')
      expect(actual).toEmitEvents([
        { event: 'session.started', adapter: 'b10x', hermetic: { decisions: 'observe' } },
        { event: 'tool.requested', decision_required: false, seam: 'none' },
        'tool.result',
        'session.ended',
      ])
      expect(actual).not.toEmitEvents(['tool.decided'])
      // A replay never claims the run it read was closed.
      expect(actual).toHaveStreamCompleteness('truncated')
    })
  },
)
