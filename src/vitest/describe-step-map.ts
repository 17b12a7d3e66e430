import { afterAll, describe, test } from 'vitest'
import { renderPin } from '../stepmap/pin.js'
import { StepMapRun, type StateVisit, type StepMapRunOptions, type StepResult } from '../stepmap/run.js'
import { stepLabel, type Step, type StepMap } from '../stepmap/types.js'
import { HARNESS_META_KEY } from './meta.js'
import { asRefusal } from './refusal.js'

/** Options of {@link describeStepMap}: how the run is set up (see {@link StepMapRunOptions}). */
export type DescribeStepMapOptions = StepMapRunOptions

/** A step whose verifier said no, or that produced no verdict: the test fails with this. */
export class StepFailedError extends Error {
  readonly code = 'VH_STEP_FAILED'

  constructor(message: string) {
    super(message)
    this.name = 'StepFailedError'
  }
}

function visitTitle(visit: StateVisit): string {
  return visit.visit === 1 ? visit.state : `${visit.state} (visit ${visit.visit})`
}

function stepTitle(step: Step, index: number): string {
  return `${index}: ${step.kind} — ${stepLabel(step).split('\n')[0]}`
}

/**
 * An AEP step map (`aep.driver-steps/1`) as a Vitest suite: one `describe` per state in the
 * workflow's order (or the `states` visits), one test per step. Command steps run (argv, no shell,
 * a constructed environment, placeholders expanded, retries for a process that produced no verdict,
 * a timeout that stops the process group) and mint their evidence into the run directory — from the
 * exit status, or by reading and checking the record the verifier wrote at `record:`. llm steps
 * write `step-context.json`, launch the named harness against the loopback provider and save the
 * transcript; a write outside the step's scope fails the test. Operator steps are `todo`s carrying
 * their prompt. A step not attempted (an open circuit, a stopped run) is skipped, never failed.
 * The map is checked against the workflow and the protocol in force before any test is collected.
 *
 * @example
 * describeStepMap('step-maps/ci.yaml', { workflow: 'workflows/ci.yaml', runDirectory: 'run', provider })
 */
export function describeStepMap(map: StepMap | string, options: DescribeStepMapOptions): void {
  let run: StepMapRun
  try {
    run = new StepMapRun(map, options)
  } catch (error) {
    // Read at collection: a missing or refused map or workflow reads as the CLI's refusal, not a stack.
    throw asRefusal(error, 'step map')
  }
  describe(`step map ${run.map.id} (${renderPin(run.map.workflow)})`, () => {
    afterAll(() => run.close())
    for (const visit of run.visits()) {
      describe(visitTitle(visit), () => {
        if (visit.overBudget) {
          test(`visit ${visit.visit} is within the visit budget of ${visit.overBudget.budget}`, () => {
            const result = run.enter(visit)
            throw new StepFailedError(result?.message ?? 'the visit budget is spent')
          })
          return
        }
        visit.steps.forEach((step, index) => {
          const title = stepTitle(step, index)
          if (step.kind === 'operator') {
            // A person's step (issue 8: operator steps are todo tests carrying their prompt); nothing here can do it.
            test.todo(`${title} — a person is owed: ${step.prompt}`)
            return
          }
          test(
            title,
            async (context) => {
              const result: StepResult = await run.runStep(visit, index)
              context.task.meta[HARNESS_META_KEY] = {
                ...context.task.meta[HARNESS_META_KEY],
                step: {
                  map: run.map.id,
                  state: visit.state,
                  visit: visit.visit,
                  index,
                  kind: step.kind,
                  status: result.status,
                  evidence: [...result.evidence],
                  ...(result.transcript === undefined ? {} : { transcript: result.transcript }),
                  attempts: result.attempts.length,
                },
              }
              for (const path of result.evidence) await context.annotate(`evidence: ${path}`)
              if (result.status === 'skipped') context.skip(result.message)
              if (result.status === 'failed') throw new StepFailedError(result.message)
            },
            run.stepTimeoutMs(step),
          )
        })
      })
    }
  })
}
