import type { Command } from './command.js'
import { capabilitiesCommand } from './capabilities.js'
import { contractCommand } from './contract.js'
import { doctorCommand } from './doctor.js'
import { replayCommand } from './replay.js'

/** Every command, in the order `--help` lists them. One file per command; register it here. */
export const COMMANDS: readonly Command[] = [replayCommand, contractCommand, capabilitiesCommand, doctorCommand]
