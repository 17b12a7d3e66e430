import { InputError, readBoundedText } from '../../src/util/read-input.js'
import { RecorderError } from '../errors.js'

/** A cassette or scenario read within its limit; the input layer's refusal becomes a recorder refusal. */
export function readRecorderInput(path: string, what: 'cassette' | 'scenario', maxBytes: number): string {
  try {
    return readBoundedText(path, { maxBytes, what })
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    const code = error.code === 'VH_INPUT_NOT_A_FILE' || error.code === 'VH_INPUT_TOO_LARGE' ? error.code : what === 'cassette' ? 'VH_CASSETTE_MISSING' : 'VH_SCENARIO_INVALID'
    throw new RecorderError(code, `the ${what} ${path}: ${error.sentence}`, { location: path, cause: error })
  }
}
