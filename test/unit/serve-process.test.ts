import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describeServeAsProcess } from '../helpers/serve-signals.js'

// `serve` as its own process, from the sources (no build needed); test/e2e/serve-signals.test.ts
// runs the same checks against the built bin.
const ROOT = resolve(import.meta.dirname, '..', '..')
// tsx by absolute URL: the child's cwd is a scratch folder, where `tsx` does not resolve.
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
describeServeAsProcess('the CLI from sources', [process.execPath, '--import', TSX, join(ROOT, 'test', 'helpers', 'cli-child.ts')])
