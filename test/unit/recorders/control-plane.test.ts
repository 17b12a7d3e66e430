import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type Provider } from '../../../recorders/index.js'
import { requestsFromChild, type RawRequest } from '../../helpers/http-from-child.js'
import { scratchDir } from '../../helpers/provider.js'

// The control endpoint writes files, so it answers only the process that started the provider.
// Every request here comes from another process on the machine (test/helpers/http-requests-child.mjs).
const SCENARIO = 'scenario: inside\nturns:\n  - text: "answered inside the root"\n'

let sandbox: string
let root: string
let outside: string
let provider: Provider
let rootless: Provider
const upstreamHits = { configured: 0, unconfigured: 0 }
let configured: { server: Server; url: string }
let unconfigured: { server: Server; url: string }

async function countingUpstream(name: keyof typeof upstreamHits): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    upstreamHits[name] += 1
    request.resume()
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: `from ${name}` }, finish_reason: 'stop' }] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** Every path under `dir`, symlinks listed as themselves (never followed). */
function tree(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return lstatSync(path).isDirectory() ? [path, ...tree(path)] : [path]
  })
}

beforeAll(async () => {
  sandbox = scratchDir('vh-control-')
  root = join(sandbox, 'root')
  outside = join(sandbox, 'outside')
  mkdirSync(root)
  mkdirSync(outside)
  writeFileSync(join(root, 'scenario.yaml'), SCENARIO)
  writeFileSync(join(outside, 'secret-scenario.yaml'), SCENARIO)
  symlinkSync(outside, join(root, 'escape'))
  symlinkSync(join(outside, 'landed.cassette.jsonl'), join(root, 'dangling.cassette.jsonl'))
  configured = await countingUpstream('configured')
  unconfigured = await countingUpstream('unconfigured')
  provider = await startProvider({ cassetteRoot: root, upstreams: [configured.url], env: {} })
  rootless = await startProvider({ env: {} })
})
afterAll(async () => {
  await provider?.close()
  await rootless?.close()
  for (const upstream of [configured, unconfigured]) await new Promise<void>((resolve) => upstream?.server.close(() => resolve()))
})

describe('the control endpoint, from another process', () => {
  it('refuses a missing or wrong token, a foreign Origin or Host, a non-JSON body, paths outside the root and unconfigured upstreams; creates nothing outside the root', async () => {
    const before = tree(sandbox)
    const url = `${provider.origin}/__vitest-harness/scopes`
    const host = `127.0.0.1:${provider.port}`
    const owner = { host, 'content-type': 'application/json', authorization: `Bearer ${provider.controlToken}` }
    const inside = { mode: 'record', scenario: 'scenario.yaml', cassette: 'inside/ok.cassette.jsonl' }
    const open = (body: unknown, headers: Record<string, string> = owner): RawRequest => ({ url, method: 'POST', headers, body: JSON.stringify(body) })
    const { authorization: _token, ...noToken } = owner
    const { 'content-type': _type, ...noType } = owner
    const wrong = `Bearer ${'0'.repeat(provider.controlToken.length)}`
    const cases: [string, RawRequest, number, string | null][] = [
      ['no token', open(inside, noToken), 403, 'VH_CONTROL_TOKEN'],
      ['a wrong token of the same length', open(inside, { ...owner, authorization: wrong }), 403, 'VH_CONTROL_TOKEN'],
      ['the token one character short', open(inside, { ...owner, authorization: `Bearer ${provider.controlToken.slice(0, -1)}` }), 403, 'VH_CONTROL_TOKEN'],
      ['the token under another scheme', open(inside, { ...owner, authorization: `Basic ${provider.controlToken}` }), 403, 'VH_CONTROL_TOKEN'],
      ['a foreign Origin', open(inside, { ...owner, origin: 'http://evil.example' }), 403, 'VH_CONTROL_ORIGIN'],
      ['Origin: null (a sandboxed page)', open(inside, { ...owner, origin: 'null' }), 403, 'VH_CONTROL_ORIGIN'],
      ['its own origin as Origin', open(inside, { ...owner, origin: provider.origin }), 403, 'VH_CONTROL_ORIGIN'],
      ['a foreign Host (DNS rebinding)', open(inside, { ...owner, host: `evil.example:${provider.port}` }), 403, 'VH_CONTROL_HOST'],
      ['a Host that starts like localhost', open(inside, { ...owner, host: `localhost.evil.example:${provider.port}` }), 403, 'VH_CONTROL_HOST'],
      ['a loopback Host on another port', open(inside, { ...owner, host: '127.0.0.1:1' }), 403, 'VH_CONTROL_HOST'],
      ['text/plain (no CORS preflight)', open(inside, { ...owner, 'content-type': 'text/plain' }), 403, 'VH_CONTROL_CONTENT_TYPE'],
      ['a form body', open(inside, { ...owner, 'content-type': 'application/x-www-form-urlencoded' }), 403, 'VH_CONTROL_CONTENT_TYPE'],
      ['no content type', open(inside, noType), 403, 'VH_CONTROL_CONTENT_TYPE'],
      ['a cassette up and out (..)', open({ ...inside, cassette: '../outside/pwned.cassette.jsonl' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a cassette down, then up and out', open({ ...inside, cassette: 'inside/../../outside/pwned.cassette.jsonl' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['an absolute cassette outside', open({ ...inside, cassette: join(outside, 'absolute.cassette.jsonl') }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a cassette through a symlink out of the root', open({ ...inside, cassette: 'escape/pwned.cassette.jsonl' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a cassette that is a dangling symlink out of the root', open({ ...inside, cassette: 'dangling.cassette.jsonl' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a file that is not a cassette', open({ ...inside, cassette: '.bashrc' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a scenario up and out', open({ ...inside, scenario: '../outside/secret-scenario.yaml' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['a scenario through a symlink', open({ ...inside, scenario: 'escape/secret-scenario.yaml' }), 403, 'VH_PATH_OUTSIDE_ROOT'],
      ['passthrough to an unconfigured upstream', open({ mode: 'passthrough', upstream: unconfigured.url }), 403, 'VH_UPSTREAM_NOT_CONFIGURED'],
      ['record from an unconfigured upstream', open({ mode: 'record', cassette: 'inside/up.cassette.jsonl', upstream: 'https://api.openai.com' }), 403, 'VH_UPSTREAM_NOT_CONFIGURED'],
      ['a path on a provider with no cassette root', { ...open(inside), url: `${rootless.origin}/__vitest-harness/scopes`, headers: { ...owner, host: `127.0.0.1:${rootless.port}`, authorization: `Bearer ${rootless.controlToken}` } }, 403, 'VH_PATH_OUTSIDE_ROOT'],
      ["another provider's token", { ...open(inside), headers: { ...owner, authorization: `Bearer ${rootless.controlToken}` } }, 403, 'VH_CONTROL_TOKEN'],
      ['the owner, inside the root', open(inside), 200, null],
      ['the owner, localhost Host, JSON with a charset', open({ mode: 'replay', scenario: 'scenario.yaml' }, { ...owner, host: `localhost:${provider.port}`, 'content-type': 'application/json; charset=utf-8' }), 200, null],
      ['the owner, passthrough to the configured upstream', open({ mode: 'passthrough', upstream: `${configured.url}/` }), 200, null],
    ]
    const answers = await requestsFromChild(cases.map(([, request]) => request))
    const seen = answers.map((answer, index) => {
      const body = JSON.parse(answer.body) as { code?: string; error?: string; id?: string }
      return [cases[index]?.[0], answer.status, answer.status === 200 ? null : (body.code ?? null)]
    })
    expect(seen).toEqual(cases.map(([name, , status, code]) => [name, status, code]))
    for (const answer of answers.filter((candidate) => candidate.status === 403)) expect(JSON.parse(answer.body)).toMatchObject({ error: expect.stringMatching(/\S/) })

    // The opened scopes: unguessable ids; each works from the other process, and its report needs the token.
    const [recording, , passing] = answers.slice(-3).map((answer) => JSON.parse(answer.body) as { id: string; baseUrl: string })
    expect(recording?.id).toMatch(/^[0-9a-f]{32}$/)
    expect(new Set(answers.slice(-3).map((answer) => (JSON.parse(answer.body) as { id: string }).id)).size).toBe(3)
    const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    const control = (path: string, method: string, headers: Record<string, string>): RawRequest => ({ url: `${provider.origin}/__vitest-harness/scopes/${recording?.id}${path}`, method, headers, ...(method === 'POST' ? { body: '{}' } : {}) })
    const later = await requestsFromChild([
      { url: `${recording?.baseUrl}/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json' }, body: chat },
      { url: `${passing?.baseUrl}/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json' }, body: chat },
      control('', 'GET', { host }),
      control('/close', 'POST', { ...noToken }),
      control('', 'GET', { host, authorization: owner.authorization }),
      control('/close', 'POST', owner),
    ])
    expect(later.map((answer) => answer.status)).toEqual([200, 200, 403, 403, 200, 200])
    expect(JSON.parse(later[0]?.body ?? '{}')).toMatchObject({ choices: [{ message: { content: 'answered inside the root' } }] })
    expect(JSON.parse(later[1]?.body ?? '{}')).toMatchObject({ choices: [{ message: { content: 'from configured' } }] })
    expect(JSON.parse(later[5]?.body ?? '{}')).toMatchObject({ mode: 'record', cassette: join(root, 'inside', 'ok.cassette.jsonl'), recorded: 1 })

    // Nothing was created outside the root; the one cassette written is inside it.
    const created = tree(sandbox).filter((path) => !before.includes(path))
    expect(created.sort()).toEqual([join(root, 'inside'), join(root, 'inside', 'ok.cassette.jsonl')])
    expect(readdirSync(outside)).toEqual(['secret-scenario.yaml'])
    expect(existsSync(join(outside, 'landed.cassette.jsonl'))).toBe(false)
    expect(upstreamHits).toEqual({ configured: 1, unconfigured: 0 })
  }, 30_000)

  it('the token is 256 random bits, different for every provider', () => {
    expect(provider.controlToken).toMatch(/^[0-9a-f]{64}$/)
    expect(rootless.controlToken).not.toBe(provider.controlToken)
  })
})
