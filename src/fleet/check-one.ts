import { TranscriptError } from '../../adapters/errors.js'
import { checkTranscriptDetailed } from '../trace/check/check.js'
import { reportToText, verdictSentence } from '../trace/check/render.js'
import { reportExitCode } from '../trace/check/report.js'
import { TraceAdvisoryError, TraceSpecError, TraceTranscriptError } from '../trace/errors.js'
import { openTranscriptPath } from '../trace/ir/any-format.js'
import type { TraceSpec } from '../trace/spec/model.js'
import { EXIT } from '../util/exit-codes.js'
import type { FleetCheckSetup, FleetResult, FleetTask } from './messages.js'

/**
 * Checks one transcript of a fleet as `check --transcript` checks it (any format, `requireRead`),
 * and turns a refusal into a result: one unreadable transcript must not stop the fleet.
 */
export async function checkFleetTask(spec: TraceSpec, setup: FleetCheckSetup, task: FleetTask): Promise<FleetResult> {
  try {
    // A worker has nothing else to do: reading blocking, it never idles between chunks.
    const opened = openTranscriptPath(task.path, setup.from, task.source, 'blocking')
    const { report, unread } = await checkTranscriptDetailed(spec, opened.bytes, {
      advisory: setup.advisory,
      redact: setup.redact,
      source: task.source,
      requireRead: true,
      ...opened.read,
    })
    return { index: task.index, outcome: 'report', report, text: `${reportToText(report, { unread })}${verdictSentence(report)}\n`, exit: reportExitCode(report) }
  } catch (error) {
    // The exits `check` gives the same refusals: upstream's trace refusals 1, the rest 2.
    if (error instanceof TraceSpecError || error instanceof TraceTranscriptError || error instanceof TraceAdvisoryError) {
      return { index: task.index, outcome: 'refused', message: error.message, exit: EXIT.GAP }
    }
    if (error instanceof TranscriptError) return { index: task.index, outcome: 'refused', message: error.message, exit: EXIT.REFUSAL }
    throw error
  }
}
