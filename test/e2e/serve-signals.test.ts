import { join, resolve } from 'node:path'
import { describeServeAsProcess } from '../helpers/serve-signals.js'

// `node bin/vitest-harness.js serve …`, the built bin, as a launcher (or npx) runs it.
const ROOT = resolve(import.meta.dirname, '..', '..')
describeServeAsProcess('the built bin', [process.execPath, join(ROOT, 'bin', 'vitest-harness.js')])
