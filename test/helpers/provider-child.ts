// A loopback provider in its own process, so what it costs (RSS) is its own. Run with
// `node --import tsx test/helpers/provider-child.ts '<ProviderOptions as JSON>'`. Prints one line
// `{"origin":…,"baseUrl":…,"controlToken":…}`, then answers stdin commands, one JSON line each:
// `stats` → memory and miss counts; `close` → closes and exits.
import { createInterface } from 'node:readline'
import { startProvider, type ProviderOptions } from '../../recorders/index.js'

const options = JSON.parse(process.argv[2] ?? '{}') as ProviderOptions
const provider = await startProvider({ ...options, env: {} })
process.stdout.write(`${JSON.stringify({ origin: provider.origin, baseUrl: provider.baseUrl, controlToken: provider.controlToken })}\n`)

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stats') {
    const scope = provider.scope('default')
    process.stdout.write(
      `${JSON.stringify({
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        rssBytes: process.memoryUsage().rss,
        missesKept: provider.misses().length,
        missesDropped: scope?.missesDropped ?? 0,
        requestsKept: provider.requests().length,
      })}\n`,
    )
  } else if (line === 'close') {
    await provider.close()
    process.exit(0)
  }
}
