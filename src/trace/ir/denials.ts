import { REFUSAL_WARNINGS } from '../../events/refusal-warnings.js'
import type { RefusedCalls } from './types.js'

/** The census's four counts, as a terminal record carries them (null where a count is absent). */
export interface CensusCounts {
  readonly allowed: number | null
  readonly denied: number | null
  readonly replaced: number | null
  readonly abstained: number | null
}

/**
 * What a stream says of its denied calls, gathered as it is read and counted when it has ended:
 * the seam's `tool.decided` denials, the harness's own refusals (`REFUSAL_WARNINGS`), and whether a
 * seam could have decided at all. Upstream joins the seam's denials, the census and the vendor's
 * list, and takes a census of zeros for "none denied". A census counts only what a seam decided,
 * though, and a harness record converted without one (`decisions: observe`, every call `seam:
 * none`) has a census of zeros whatever the harness refused: Codex, Gemini CLI and opencode runs
 * all wrote one. Such a census says nothing, and the count is unknown unless the vendor's list or
 * a refusal says otherwise.
 */
export class DenialLedger {
  private readonly seamDenied = new Set<string>()
  // The calls refusal warnings named; `refusals` counts those that named none.
  private readonly warned = new Set<string>()
  private decided = false
  private refusals = 0
  private seamDecides = false

  /** The session's attestation: a seam that frames or asks decides calls, so its census counts. */
  attested(decisions: string | null): void {
    if (decisions === 'frame' || decisions === 'ask') this.seamDecides = true
  }

  /** A `tool.decided`; `deniedCall` is its call when the decision denied it. */
  decision(deniedCall: string | null): void {
    this.decided = true
    if (deniedCall !== null) this.seamDenied.add(deniedCall)
  }

  /** A `warning`: a refusal code is one denied call, `callId` where the warning names it. */
  warning(code: string | null, callId: string | null = null): void {
    if (code === null || !REFUSAL_WARNINGS.includes(code)) return
    if (callId === null) this.refusals += 1
    else this.warned.add(callId)
  }

  /**
   * The run's denials, or null when nothing counted them. Joined, not summed: a call the seam
   * denied and the vendor listed is one denial.
   */
  count(census: CensusCounts | null, vendorCalls: readonly (string | null)[] | null): number | null {
    const censusCounts = this.censusCounts(census)
    if (!censusCounts && vendorCalls === null && !this.decided && this.refusals === 0 && this.warned.size === 0) return null
    const bySeam = Math.max(this.seamDenied.size, censusCounts ? (census?.denied ?? 0) : 0)
    const byVendor = (vendorCalls ?? []).filter((call) => call === null || !this.seamDenied.has(call)).length
    // A call a warning names is one denial however else it is named.
    const listed = new Set(vendorCalls ?? [])
    const byWarning = [...this.warned].filter((call) => !this.seamDenied.has(call) && !listed.has(call)).length
    return bySeam + byVendor + byWarning + this.refusals
  }

  /**
   * A record's own list of the calls the harness refused, kept for `refusedCalls`: a terminal
   * record's `permission_denials` and census, or one call a vendor names as it refuses it (Claude
   * Code's `system/permission_denied`, no census).
   */
  listed(vendorCalls: readonly (string | null)[] | null, census: CensusCounts | null = null): void {
    this.lists.push({ census, vendorCalls })
  }

  /**
   * Which calls were refused, once the stream has ended: every call the seam, a warning or a list
   * names (an entry named twice is one call), and how many more the census, an unnamed entry or a
   * refusal warning counts.
   */
  refusedCalls(): RefusedCalls {
    const ids = new Set([...this.seamDenied, ...this.warned])
    let unnamed = this.refusals
    let censusDenied = 0
    for (const { census, vendorCalls } of this.lists) {
      for (const call of vendorCalls ?? []) {
        if (call === null) unnamed += 1
        else ids.add(call)
      }
      if (this.censusCounts(census)) censusDenied = Math.max(censusDenied, census?.denied ?? 0)
    }
    return { ids, unnamed: unnamed + Math.max(0, censusDenied - this.seamDenied.size) }
  }

  // A census of zeros written without a seam says nothing (see the class comment).
  private censusCounts(census: CensusCounts | null): census is CensusCounts {
    return census !== null && (this.decided || this.seamDecides || [census.allowed, census.denied, census.replaced, census.abstained].some((n) => (n ?? 0) > 0))
  }

  private readonly lists: { census: CensusCounts | null; vendorCalls: readonly (string | null)[] | null }[] = []
}
