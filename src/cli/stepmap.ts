import { escapeForTerminal } from '../util/terminal-text.js'
import { resolve } from 'node:path'
import { parseEvidenceKind, type EvidenceKindName } from '../evidence/intake-kinds.js'
import { checkRun, crossValidate } from '../stepmap/cross-validate.js'
import { renderStepMapDiagnostic, StepMapError, type StepMapDiagnostic } from '../stepmap/diagnostics.js'
import { projectFlow } from '../stepmap/flow.js'
import { readStepMap } from '../stepmap/map.js'
import { readWorkflow, type Workflow } from '../stepmap/workflow.js'
import { writeFileAtomic } from '../util/atomic-write.js'
import { UsageError, listOption, stringOption, type ParsedArgs } from './args.js'
import type { Command } from './command.js'
import { readInputText } from './input-file.js'
import { INPUT_LIMITS } from '../util/read-input.js'
import { EXIT, type ExitCode } from '../util/exit-codes.js'
import { writeWithBackpressure, type CliIO } from './io.js'

/** The workflow, or a usage refusal (exit 2): without one, nothing about the map can be decided. */
function workflowFrom(args: ParsedArgs, io: CliIO): Workflow {
  const path = stringOption(args, 'workflow')
  if (!path) throw new UsageError('--workflow is required: the workflow document the map is checked against')
  const reading = readWorkflow(readInputText(io, path, 'workflow', INPUT_LIMITS.workflow), { source: path })
  if (!reading.workflow) throw new StepMapError(`${path} is not a workflow`, reading.diagnostics)
  return reading.workflow
}

async function refuse(io: CliIO, mapPath: string, diagnostics: readonly StepMapDiagnostic[]): Promise<ExitCode> {
  // Upstream's own codes (`missing_field`, `not_yaml`…) follow, one a line, under the project's.
  const header = escapeForTerminal(`error: VH_STEPMAP at ${mapPath}: the step map is refused — ${diagnostics.length} refusal(s):\n`)
  await writeWithBackpressure(io.stderr, header + diagnostics.map((diagnostic) => `${renderStepMapDiagnostic(diagnostic)}\n`).join(''))
  return EXIT.GAP
}

function evidenceKinds(args: ParsedArgs): EvidenceKindName[] | undefined {
  const written = listOption(args, 'evidence-kind')
  if (written.length === 0) return undefined
  return written.map((name) => {
    const kind = parseEvidenceKind(name)
    if (!kind) throw new UsageError(`--evidence-kind ${JSON.stringify(name)} is not an evidence kind`)
    return kind
  })
}

/** `vitest-harness stepmap validate --map F --workflow F`: exit 0 valid, 1 refused, 2 usage or unreadable. */
export const stepmapValidateCommand: Command = {
  name: 'validate',
  summary: 'Validates an aep.driver-steps/1 map and checks it against its workflow and the protocol in force: exit 0 valid, 1 refused, 2 usage or unreadable',
  usage: '--map F --workflow F [--protocol REF] [--evidence-kind KIND]…',
  options: [
    { name: 'map', type: 'string', valueName: 'FILE', description: 'the step map (YAML or JSON)' },
    { name: 'workflow', type: 'string', valueName: 'FILE', description: 'the workflow document it is pinned to' },
    { name: 'protocol', type: 'string', valueName: 'REF', description: 'the protocol in force, for the run-start check (default: adp/1)' },
    { name: 'evidence-kind', type: 'string', repeatable: true, valueName: 'KIND', description: 'an evidence kind the protocol declares (default: the adp/1 list)' },
  ],
  async run(args: ParsedArgs, io: CliIO): Promise<ExitCode> {
    const mapPath = stringOption(args, 'map')
    if (!mapPath) throw new UsageError('--map is required: the step map to validate')
    const mapText = readInputText(io, mapPath, 'step map', INPUT_LIMITS.stepMap)
    const workflow = workflowFrom(args, io)
    const kinds = evidenceKinds(args)
    const reading = readStepMap(mapText, { source: mapPath })
    if (!reading.map) return refuse(io, mapPath, reading.diagnostics)
    const protocol = stringOption(args, 'protocol')
    const diagnostics = checkRun(reading.map, workflow, { ...(protocol ? { reference: protocol } : {}), ...(kinds ? { evidenceKinds: kinds } : {}) })
    if (diagnostics.length > 0) return refuse(io, mapPath, diagnostics)
    const steps = Object.values(reading.map.states).reduce((sum, state) => sum + state.steps.length, 0)
    await writeWithBackpressure(io.stdout, escapeForTerminal(`${mapPath}: ${reading.map.id} is valid against ${workflow.id}/${workflow.version} — ${Object.keys(reading.map.states).length} state(s), ${steps} step(s)\n`))
    return EXIT.OK
  },
}

/** `vitest-harness stepmap flow --workflow F [--map F]`: the flow document `aep govern workflow flow` writes. */
export const stepmapFlowCommand: Command = {
  name: 'flow',
  summary: 'Projects a workflow (and optionally a step map) into a b10x-harness flow document, as aep govern workflow flow does',
  usage: '--workflow F [--map F] [--max-attempts N] [--out F]',
  options: [
    { name: 'workflow', type: 'string', valueName: 'FILE', description: 'the workflow document' },
    { name: 'map', type: 'string', valueName: 'FILE', description: "a step map, so each node carries the step's own fields" },
    { name: 'max-attempts', type: 'string', valueName: 'N', description: 'how many attempts a retreating group may take (default: 3)' },
    { name: 'out', type: 'string', valueName: 'FILE', description: 'write the document here (atomically); default: stdout' },
  ],
  async run(args: ParsedArgs, io: CliIO): Promise<ExitCode> {
    const workflow = workflowFrom(args, io)
    const attemptsOption = stringOption(args, 'max-attempts')
    const maxAttempts = attemptsOption === undefined ? 3 : Number(attemptsOption)
    if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new UsageError(`--max-attempts must be a positive whole number; got ${JSON.stringify(attemptsOption)}`)
    const mapPath = stringOption(args, 'map')
    let document: string
    if (mapPath) {
      const reading = readStepMap(readInputText(io, mapPath, 'step map', INPUT_LIMITS.stepMap), { source: mapPath })
      if (!reading.map) return refuse(io, mapPath, reading.diagnostics)
      const refusals = crossValidate(reading.map, workflow)
      if (refusals.length > 0) return refuse(io, mapPath, refusals)
      document = projectFlow(workflow, reading.map, { maxAttempts })
    } else document = projectFlow(workflow, undefined, { maxAttempts })
    const out = stringOption(args, 'out')
    if (out === undefined) await writeWithBackpressure(io.stdout, document)
    else {
      writeFileAtomic(resolve(io.cwd, out), document)
      await writeWithBackpressure(io.stdout, `${out}\n`)
    }
    return EXIT.OK
  },
}

/** `vitest-harness stepmap`: AEP step maps. */
export const stepmapCommand: Command = {
  name: 'stepmap',
  summary: "AEP step maps (aep.driver-steps/1): 'stepmap validate' checks a map against its workflow; 'stepmap flow' projects the workflow",
  usage: 'validate --map F --workflow F | flow --workflow F [--map F]',
  options: [],
  subcommands: [stepmapValidateCommand, stepmapFlowCommand],
  async run(_args: ParsedArgs, io: CliIO): Promise<ExitCode> {
    io.stderr.write("error: VH_USAGE: name a subcommand: 'vitest-harness stepmap validate --map F --workflow F' or 'vitest-harness stepmap flow --workflow F'\n")
    return EXIT.REFUSAL
  },
}
