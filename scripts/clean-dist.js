// Removes dist/ before a build, so a file deleted from the sources cannot survive in the package.
import { rmSync } from 'node:fs'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
