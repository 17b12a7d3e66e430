import type { Command } from './command.js'
import { capabilitiesCommand } from './capabilities.js'
import { contractCommand } from './contract.js'
import { convertCommand } from './convert.js'
import { doctorCommand } from './doctor.js'
import { evidenceCommand } from './evidence.js'
import { replayCommand } from './replay.js'
import { stepmapCommand } from './stepmap.js'

/** Every command, in the order `--help` lists them. One file per command; register it here. */
export const COMMANDS: readonly Command[] = [
  replayCommand,
  convertCommand,
  contractCommand,
  capabilitiesCommand,
  doctorCommand,
  evidenceCommand,
  stepmapCommand,
]
