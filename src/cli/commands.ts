import type { Command } from './command.js'
import { checkCommand } from './check.js'
import { inspectCommand } from './inspect.js'
import { replayCommand } from './replay.js'

/** Every command, in the order `--help` lists them. One file per command; register it here. */
export const COMMANDS: readonly Command[] = [checkCommand, inspectCommand, replayCommand]
