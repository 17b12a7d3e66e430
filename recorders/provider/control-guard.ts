import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { RecorderError } from '../errors.js'

/** The header the control plane reads its token from: `authorization: Bearer <token>`. */
export const CONTROL_TOKEN_SCHEME = 'Bearer'

/** A fresh control token: 256 random bits, hex. Held only by the process that started the provider. */
export function createControlToken(): string {
  return randomBytes(32).toString('hex')
}

/** An unguessable scope id (128 random bits): a scope's base URL is not a way in for anyone else. */
export function createScopeId(): string {
  return randomBytes(16).toString('hex')
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

/** Compares in constant time: digests first, so lengths never differ. */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/** The Host values a loopback server on `port` is reached by. */
function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
}

/**
 * Why a model-wire request is refused, or `undefined` when it may proceed. A harness names the
 * provider by its loopback address, so a foreign Host is a page that rebound its DNS name to
 * 127.0.0.1, and an Origin other than the provider's own is a page's script: neither may record
 * into a cassette or be relayed to an upstream. A request with no Host (HTTP/1.0), or a loopback
 * Host without its port, is a local client.
 */
export function dataPlaneRefusal(headers: IncomingHttpHeaders, port: number): RecorderError | undefined {
  const host = single(headers.host)?.toLowerCase()
  // A Host without its port names the same loopback address (raw clients write `host: 127.0.0.1`).
  if (host !== undefined && !loopbackHosts(port).includes(host) && !['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    return new RecorderError('VH_CONTROL_HOST', `the provider answers Host 127.0.0.1:${port}, localhost:${port} or [::1]:${port} only; got ${JSON.stringify(host)}`, { location: 'host' })
  }
  const origin = single(headers.origin)
  if (origin !== undefined && !loopbackHosts(port).some((allowed) => origin.toLowerCase() === `http://${allowed}`)) {
    return new RecorderError('VH_CONTROL_ORIGIN', `the provider refuses requests a web page sends from another origin (got ${JSON.stringify(origin)})`, { location: 'origin' })
  }
  return undefined
}

/**
 * Why a control request is refused, or `undefined` when it may proceed. The control plane writes
 * files, so it answers only its owner: a loopback Host (no DNS rebinding), no Origin (no web page),
 * the token, and a JSON content type (a `text/plain` body is how a page avoids a CORS preflight).
 */
export function controlRefusal(method: string, headers: IncomingHttpHeaders, port: number, token: string): RecorderError | undefined {
  const host = (single(headers.host) ?? '').toLowerCase()
  if (!loopbackHosts(port).includes(host)) {
    return new RecorderError('VH_CONTROL_HOST', `the control endpoint answers Host 127.0.0.1:${port}, localhost:${port} or [::1]:${port} only; got ${JSON.stringify(host)}`, { location: 'host' })
  }
  const origin = single(headers.origin)
  if (origin !== undefined) {
    return new RecorderError('VH_CONTROL_ORIGIN', `the control endpoint refuses requests with an Origin header (got ${JSON.stringify(origin)}): it is not for web pages`, { location: 'origin' })
  }
  const authorization = single(headers.authorization) ?? ''
  const given = authorization.startsWith(`${CONTROL_TOKEN_SCHEME} `) ? authorization.slice(CONTROL_TOKEN_SCHEME.length + 1).trim() : ''
  if (!sameToken(given, token)) {
    return new RecorderError('VH_CONTROL_TOKEN', `the control endpoint needs the provider's token (authorization: ${CONTROL_TOKEN_SCHEME} <token>); ${given === '' ? 'none was sent' : 'the one sent is wrong'}`, { location: 'authorization' })
  }
  const contentType = single(headers['content-type'])
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase()
  if ((method !== 'GET' || contentType !== undefined) && mediaType !== 'application/json') {
    return new RecorderError('VH_CONTROL_CONTENT_TYPE', `the control endpoint takes application/json only; got ${contentType === undefined ? 'no content type' : JSON.stringify(contentType)}`, { location: 'content-type' })
  }
  return undefined
}
