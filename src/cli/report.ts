import { INPUT_LIMITS } from '../util/read-input.js'
import { resolve } from 'node:path'
import { findAdapter } from '../../adapters/registry.js'
import { ContractRefusal, runContract } from '../contract/run-contract.js'
import { blankReport, buildCheckOnlyReport, buildRunReport } from '../report/build.js'
import { contractView } from '../report/contract-view.js'
import { ReportInputError } from '../report/errors.js'
import type { ReportData } from '../report/model.js'
import { readProviderLog } from '../report/provider-log.js'
import { readTraceReport } from '../report/trace-report-input.js'
import { writeReportHtml } from '../report/write.js'
import { EXIT } from '../util/exit-codes.js'
import { UsageError, listOption, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { readInputText } from './input-file.js'
import type { CliIO } from './io.js'
import { FROM_OPTION, TRANSCRIPT_OPTION, loadSpec, openTranscriptInput, refusalExit, checkFromOption } from './trace-input.js'

/** The run part of the page: a transcript (checked with --spec, or shown with a --trace-report), a trace report alone, or nothing. */
async function runPart(args: ParsedArgs, io: CliIO, title: string | undefined): Promise<ReportData | undefined> {
  const transcriptPath = stringOption(args, 'transcript')
  const specPath = stringOption(args, 'spec')
  const reportPath = stringOption(args, 'trace-report')
  const traceReport = reportPath === undefined ? undefined : readTraceReport(readInputText(io, reportPath, 'trace report', INPUT_LIMITS.traceReport), reportPath)
  const titled = title === undefined ? {} : { title }
  if (transcriptPath === undefined) return traceReport === undefined ? undefined : buildCheckOnlyReport(traceReport, { source: reportPath as string, ...titled })
  checkFromOption(stringOption(args, 'from'))
  const spec = specPath === undefined ? undefined : loadSpec(io, specPath)
  const transcript = await openTranscriptInput(io, transcriptPath, stringOption(args, 'from'))
  return buildRunReport(transcript.bytes, {
    source: transcriptPath,
    requireRead: true,
    ...transcript.read,
    ...(spec === undefined ? {} : { spec }),
    ...(traceReport === undefined ? {} : { traceReport }),
    ...titled,
  })
}

export const reportCommand: Command = {
  name: 'report',
  summary: 'Writes one self-contained HTML page of a run — its timeline and each verdict linked to the events it cites — and of a contract run or a provider request log.',
  usage: '[--transcript FILE|DIR|- [--from FORMAT]] [--spec FILE | --trace-report FILE] [--contract ADAPTER [--vectors DIR] [--only ID]…] [--requests FILE] [--out FILE] [--title TEXT]',
  options: [
    TRANSCRIPT_OPTION,
    FROM_OPTION,
    { name: 'spec', type: 'string', valueName: 'FILE', description: 'a trace-spec/1 specification to check the transcript against in the same pass' },
    { name: 'trace-report', type: 'string', valueName: 'FILE', description: 'a trace-report/1 JSON (check --format json) to show instead of checking; alone, without --transcript, it shows the verdicts only' },
    { name: 'contract', type: 'string', valueName: 'ADAPTER', description: "run this adapter's conformance vectors and show every vector, a failure with its first difference by JSON path" },
    { name: 'vectors', type: 'string', valueName: 'DIR', description: "with --contract: the vectors folder (default: the package's vectors/<adapter>)" },
    { name: 'only', type: 'string', repeatable: true, valueName: 'ID', description: 'with --contract: run only this vector (repeatable)' },
    { name: 'requests', type: 'string', valueName: 'FILE', description: 'a provider request log (serve --record-requests): every request, matched or missed, with where a miss differs' },
    { name: 'out', type: 'string', valueName: 'FILE', description: 'where to write the page (default: report.html)' },
    { name: 'title', type: 'string', valueName: 'TEXT', description: "the page's heading (default: the spec id, else the transcript path)" },
  ],
  async run(args, io) {
    const contractId = stringOption(args, 'contract')
    const requestsPath = stringOption(args, 'requests')
    const title = stringOption(args, 'title')
    if (args.positionals.length > 0) throw new UsageError(`report takes no positional arguments; got ${JSON.stringify(args.positionals[0])}`)
    if (stringOption(args, 'spec') !== undefined && stringOption(args, 'trace-report') !== undefined) throw new UsageError('--spec and --trace-report both give the verdicts; pass one')
    if (stringOption(args, 'spec') !== undefined && stringOption(args, 'transcript') === undefined) throw new UsageError('--spec needs --transcript: there is nothing to check')
    if (contractId === undefined && (stringOption(args, 'vectors') !== undefined || listOption(args, 'only').length > 0)) throw new UsageError('--vectors and --only need --contract')
    const adapter = contractId === undefined ? undefined : findAdapter(contractId)
    if (contractId !== undefined && !adapter) throw new UsageError(`--contract names no adapter: ${JSON.stringify(contractId)}`)
    const out = resolve(io.cwd, stringOption(args, 'out') ?? 'report.html')
    let data: ReportData
    try {
      const run = await runPart(args, io, title)
      if (run === undefined && adapter === undefined && requestsPath === undefined) throw new UsageError('report needs something to show: --transcript, --trace-report, --contract or --requests')
      data = run ?? blankReport(title ?? (adapter ? `${adapter.id} contract` : (requestsPath as string)))
      if (adapter) {
        const vectors = stringOption(args, 'vectors')
        const only = listOption(args, 'only')
        data.contract = contractView(await runContract(adapter, { ...(vectors === undefined ? {} : { vectors: resolve(io.cwd, vectors) }), ...(only.length > 0 ? { only } : {}) }))
      }
      if (requestsPath !== undefined) data.provider = readProviderLog(readInputText(io, requestsPath, 'request log', INPUT_LIMITS.requestLog), requestsPath)
    } catch (error) {
      if (error instanceof ReportInputError || error instanceof ContractRefusal) {
        io.stderr.write(`error: ${error.message}${error instanceof ContractRefusal ? ` (${error.code})` : ''}\n`)
        return EXIT.REFUSAL
      }
      return refusalExit(io, error)
    }
    const bytes = writeReportHtml(out, data)
    const parts = [`${data.events.length} events`]
    if (data.check) parts.push(`${data.check.expectations.length} expectations, verdict ${data.check.verdict}`)
    if (data.contract) parts.push(`${data.contract.vectors.length} vectors, ${data.contract.vectors.filter((vector) => vector.status === 'fail').length} failed`)
    if (data.provider) parts.push(`${data.provider.requests.length} requests, ${data.provider.requests.filter((request) => !request.matched).length} unmatched`)
    io.stdout.write(`wrote ${out} (${parts.join(', ')}, ${bytes} bytes)\n`)
    // A page is a view, not a gate: exit 0 whatever it shows.
    return EXIT.OK
  },
}
