/**
 * A gate's refusal: the quota's status (the profile's contract.quota.status, 429 by default) asking for a short wait
 * (Retry-After of GATE_WAIT_SECONDS at most) is a gateway's spike arrest (a rate over seconds), not the hourly quota.
 * One rule for the quota checks (suites/quota/exhaust.ts) and the property searches (lib/engine/property/property-search.ts),
 * apart from the search so that a check's context reads it without loading fast-check.
 */
import { HarnessError } from '../../errors.ts';

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

/**
 * The contract's quota answer (docs/contract.md "Quotas": the profile's contract.quota.status, with Retry-After and the
 * error body): the target's window of that client and operation is spent, whatever the harness counted. Not a gate's
 * short wait (gateWait), and not a gateway's throttle without Retry-After or with a page for a body.
 */
export function isQuotaAnswer(
  r: { status: number; headers: Record<string, string>; body?: unknown } | undefined,
  quotaStatus: number,
): boolean {
  if (r === undefined || r.status !== quotaStatus) return false;
  const retryAfter = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'retry-after')?.[1];
  if (retryAfter === undefined || retryAfter.trim() === '') return false;
  if (gateWait(r.status, retryAfter, quotaStatus) !== undefined) return false;
  return errorBodyLike(r.body);
}

/** a JSON object (parsed, or its text; a sealed answer is passed as the object it opened to): not a page, not empty */
function errorBodyLike(body: unknown): boolean {
  if (typeof body === 'object' && body !== null) return !Array.isArray(body);
  if (typeof body !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/**
 * A property's positive control was answered with the contract's quota answer: the window is spent. The search moves
 * to a fresh window and sends the control again when the target has a test clock; without one the check is
 * inconclusive, saying so.
 */
export class QuotaAnswered extends HarnessError {
  readonly code = 'QUOTA_ANSWERED';
  constructor(readonly what: string) {
    super(what);
    this.name = 'QuotaAnswered';
  }
}
