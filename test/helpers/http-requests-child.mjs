// Sends raw HTTP requests from a process of its own (a stand-in for any other program on the
// machine): node:http, so Host, Origin and content type are exactly as given. Reads
// `[{ url, method, headers, body }]` as JSON from stdin, prints `[{ status, body }]` on stdout.
import { request } from 'node:http'

function send({ url, method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host') }, (response) => {
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}

let input = ''
for await (const chunk of process.stdin) input += chunk
const results = []
for (const item of JSON.parse(input)) results.push(await send(item))
process.stdout.write(JSON.stringify(results))
