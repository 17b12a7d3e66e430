import type { Command } from './command.js'
import { replayCommand } from './replay.js'
import { serveCommand } from './serve.js'

/** Every command, in the order `--help` lists them. One file per command; register it here. */
export const COMMANDS: readonly Command[] = [replayCommand, serveCommand]
