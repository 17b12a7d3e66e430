/**
 * How a harness writes a failed command's exit code on a line of its own after the command's
 * output: the text the line starts with (a cheap test before the pattern) and the line's pattern,
 * global and multiline, its first group the code.
 */
export interface ExitCodeLine {
  readonly marker: string
  readonly pattern: RegExp
}

/**
 * The code on the last such line of a shell call's answer: the command's own output comes first,
 * so a line it printed cannot stand in for the harness's. Null without one: the harness writes
 * the line only for a nonzero code, and its absence says nothing the call's status does not.
 */
export function lastExitCode(text: unknown, line: ExitCodeLine): number | null {
  if (typeof text !== 'string' || !text.includes(line.marker)) return null
  let code: number | null = null
  for (const match of text.matchAll(line.pattern)) code = Number(match[1])
  return code
}
