export { startProvider, assertLoopback, MAX_BODY_BYTES, type Provider, type ProviderOptions } from './server.js'
export { ProviderScope, KEEP_MISSES, KEEP_MISS_BYTES, KEEP_REQUEST_BYTES, PARSE_CACHE_BYTES, type ScopeOptions, type ScopeReport } from './scope.js'
export { resolveMode, PROVIDER_MODES, MODE_ENV, type ProviderMode } from './modes.js'
export {
  CASSETTE_FORMAT,
  parseCassette,
  readCassette,
  serializeCassette,
  frameBytes,
  frameBuffer,
  bodyBytes,
  bodyBuffer,
  type Cassette,
  type CassetteContent,
  type CassetteHeader,
  type CassetteFrame,
  type CassetteRequest,
  type CassetteResponse,
  type Interaction,
  type Provenance,
} from './cassette.js'
export { writeCassette, CassetteAppender, type CassetteFiles } from './cassette-writer.js'
export { lockCassette, lockPathFor, type CassetteLock } from './cassette-lock.js'
export { Redactor, redactionPlaceholder, CREDENTIAL_HEADERS } from './redact.js'
export { RequestCanonicalizer, InteractionIndex, BUILT_IN_IGNORED_PATHS, BUILT_IN_TEXT_RULES, type MatchRules, type TextRule, type Miss, type Exhausted } from './match.js'
export { loadScenario, parseScenario, ScenarioResponder, type Scenario, type ScenarioTurn, type Fault } from './scenario.js'
export { requestLogLine, type RequestLogEntry, type RequestOutcome } from './request-log.js'
export { encodeSseFrame, parseSseFrame, splitSseFrames, type SseEvent } from './sse.js'
export { WIRE_NAMES, type WireName } from './wire.js'
export { prepareResponse, rechunk, type PreparedResponse } from './prepared.js'
