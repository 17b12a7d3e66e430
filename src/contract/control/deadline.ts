/** How far below the vendor's own timeout the driver's deadline sits. */
export const DEADLINE_MARGIN_MS = 5_000

/**
 * The driver's deadline for one decision: strictly less than the vendor's timeout, so when nobody
 * answers, the driver's own deny reaches the child first and the refusal is the driver's, not an
 * ambiguity the vendor resolves (upstream's § 7.7 rule 2). A vendor timeout of 0 leaves none.
 */
export function driverDeadlineMs(vendorTimeoutMs: number): number {
  return vendorTimeoutMs > DEADLINE_MARGIN_MS ? vendorTimeoutMs - DEADLINE_MARGIN_MS : Math.floor(vendorTimeoutMs / 2)
}

/** What the driver tells the model when its deadline denies a call: both numbers, so rule 2 is checkable on the line. */
export function deadlineReason(budgetMs: number, vendorTimeoutMs: number): string {
  return `the driver's own ${budgetMs}ms decision deadline expired before an answer arrived; it is strictly less than the vendor's ${vendorTimeoutMs}ms timeout, so the refusal is the driver's and not an ambiguity`
}
