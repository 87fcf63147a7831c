/**
 * A gate's refusal in a property search (lib/engine/property-search.ts): a 429 that asks for a short wait is a
 * gateway's spike arrest (a rate over seconds), not the hourly quota; the same rule as the quota checks'
 * (suites/quota/exhaust.ts). Apart from the search, so that the check's context reads it without loading fast-check.
 */

/** a 429 whose Retry-After asks for this long at most is a gate's (a spike arrest), not the quota's (suites/quota) */
export const GATE_WAIT_SECONDS = 5;

/** the wait a refusal asks for when it is a gate's: status 429, Retry-After of GATE_WAIT_SECONDS at most */
export function gateWait(status: number | undefined, retryAfter: string | undefined): number | undefined {
  const wait = Number(retryAfter);
  return status === 429 && retryAfter !== undefined && Number.isFinite(wait) && wait <= GATE_WAIT_SECONDS
    ? Math.max(1, wait)
    : undefined;
}
