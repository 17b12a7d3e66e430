/** The prefix of every log line and library error message vitest-harness writes. */
export const LOG_PREFIX = '[vitest-harness]'

/** `message` behind the package's prefix: the one place the prefix is spelled. */
export function prefixed(message: string): string {
  return `${LOG_PREFIX} ${message}`
}
