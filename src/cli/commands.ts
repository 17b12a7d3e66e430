import type { Command } from './command.js'
import { capabilitiesCommand } from './capabilities.js'
import { checkCommand } from './check.js'
import { contractCommand } from './contract.js'
import { convertCommand } from './convert.js'
import { diffCommand } from './diff.js'
import { doctorCommand } from './doctor.js'
import { createEvidenceCommand } from './evidence.js'
import { inspectCommand } from './inspect.js'
import { replayCommand } from './replay.js'
import { reportCommand } from './report.js'
import { serveCommand } from './serve.js'
import { stepmapCommand } from './stepmap.js'
import { checkTraceFiles } from './trace-input.js'
import { vectorCommand } from './vector.js'

/** Every command, in the order `--help` lists them. One file per command; register it here. */
export const COMMANDS: readonly Command[] = [
  checkCommand,
  inspectCommand,
  replayCommand,
  convertCommand,
  serveCommand,
  contractCommand,
  capabilitiesCommand,
  doctorCommand,
  createEvidenceCommand(checkTraceFiles),
  stepmapCommand,
  reportCommand,
  diffCommand,
  vectorCommand,
]
