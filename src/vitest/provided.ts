import type {} from 'vitest'
import type { ProviderMode } from '../../recorders/provider/modes.js'
import type { ResolvedHarnessOptions } from './defaults.js'

/** What the main process hands the workers about the provider it started. */
export interface ProvidedHarnessProvider {
  /** `http://127.0.0.1:PORT`: the control endpoints and the scopes live under it. */
  readonly origin: string
  readonly mode: ProviderMode
  /** Absolute: each test's cassette goes under it. */
  readonly cassettesDir: string
  /** Absolute: the configured scenario each scope answers from, or `null`. */
  readonly scenario: string | null
  /**
   * The provider's control token (`authorization: Bearer <token>`). Workers are children of the
   * run, so it travels with `provide`; it is never written to a file.
   */
  readonly controlToken: string
}

/** The keys of `provide`/`inject` the plugin uses. */
export const PROVIDED_OPTIONS_KEY = 'vitestHarnessOptions'
export const PROVIDED_PROVIDER_KEY = 'vitestHarnessProvider'
/** The run's key for trace proofs (src/vitest/trace-proof.ts), provided by the evidence reporter. */
export const PROVIDED_TRACE_PROOF_KEY = 'vitestHarnessTraceProofKey'

/** The absolute folder trace report pages go to (the evidence reporter's `html`); absent when off. */
export const PROVIDED_TRACE_PAGES_KEY = 'vitestHarnessTracePages'

declare module 'vitest' {
  interface ProvidedContext {
    [PROVIDED_OPTIONS_KEY]: ResolvedHarnessOptions
    [PROVIDED_PROVIDER_KEY]: ProvidedHarnessProvider | null
    [PROVIDED_TRACE_PROOF_KEY]: string
    [PROVIDED_TRACE_PAGES_KEY]: string
  }
}
