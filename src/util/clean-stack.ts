/**
 * The error with its stack cut to its first line (`Name: message`). For refusals shown inside
 * Vitest, which prints an error's stack frames under its message: a refusal's frames point into
 * this package (`dist/…` once installed) and say nothing its code, file and sentence do not.
 */
export function withCleanStack<E extends Error>(error: E): E {
  Object.defineProperty(error, 'stack', { value: `${error.name}: ${error.message}`, writable: true, configurable: true, enumerable: false })
  return error
}
