import type { Emission } from './types.js'

/**
 * The `warning` an adapter writes before the first call of a tool that no operation table knows.
 * `metaharness.event/1` skips an empty `operations` list, so "classified as doing none of the
 * neutral operations" and "nobody could classify it" look alike on the wire; this warning is what
 * tells them apart, so a check over operations can say `unknown` instead of a false `ok`.
 */
export const UNCLASSIFIED_TOOL = 'unclassified_tool'

type Warning = Extract<Emission, { event: 'warning' }>

/** The warning for `tool`, as `adapter` writes it: the name comes first, JSON-quoted, so a reader can take it back exactly. */
export function unclassifiedToolWarning(tool: string, adapter: string): Warning {
  return {
    event: 'warning',
    code: UNCLASSIFIED_TOOL,
    message: `tool ${JSON.stringify(tool)} is in no operation table of the ${adapter} adapter: a selector by operation or by subject alone cannot see its calls`,
  }
}

/** The tool an `unclassified_tool` warning names, or undefined for any other warning. */
export function unclassifiedToolOf(code: string | null | undefined, message: string | null | undefined): string | undefined {
  if (code !== UNCLASSIFIED_TOOL || typeof message !== 'string' || !message.startsWith('tool "')) return undefined
  // The quoted name ends at the first unescaped quote after the opening one.
  for (let end = 6; end < message.length; end += 1) {
    if (message[end] === '\\') {
      end += 1
      continue
    }
    if (message[end] === '"') {
      try {
        const name: unknown = JSON.parse(message.slice(5, end + 1))
        return typeof name === 'string' ? name : undefined
      } catch {
        return undefined
      }
    }
  }
  return undefined
}
