/**
 * A gate's refusal: the quota's status (the profile's contract.quota.status, 429 by default) asking for a short wait
 * (Retry-After of GATE_WAIT_SECONDS at most) is a gateway's spike arrest (a rate over seconds), not the hourly quota.
 * One rule for the quota checks (suites/quota/exhaust.ts) and the property searches (lib/engine/property-search.ts),
 * apart from the search so that a check's context reads it without loading fast-check.
 */

/** a refusal whose Retry-After asks for this long at most is a gate's (a spike arrest), not the quota's */
export const GATE_WAIT_SECONDS = 5;

/** the wait a refusal asks for when it is a gate's: the quota's status, a Retry-After of GATE_WAIT_SECONDS at most */
export function gateWait(
  status: number | undefined,
  retryAfter: string | undefined,
  quotaStatus: number,
): number | undefined {
  const wait = Number(retryAfter);
  return status === quotaStatus && retryAfter !== undefined && Number.isFinite(wait) && wait <= GATE_WAIT_SECONDS
    ? Math.max(1, wait)
    : undefined;
}
