/**
 * What the race checks share: the profile's burst sizes, the quota limit, a check in a fresh quota window, a transfers
 * API request as a burst sends it, and a burst in which nothing succeeded (inconclusive, never a pass).
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext, QuotaUse } from '../../lib/engine/session/context.ts';
import type { BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest } from '../../lib/http/types.ts';
import { tally } from './burst.ts';

const GATE = new Set([401, 403, 429]);

export function limitOf(ctx: CheckContext): number {
  const q = ctx.profile.contract.quota;
  return Math.min(q.perHour, q.planPerHour ?? Number.POSITIVE_INFINITY);
}

export function sizes(ctx: CheckContext): { n: number; repeats: number } {
  return { n: ctx.profile.run.raceBurst, repeats: ctx.profile.run.raceRepeats };
}

/**
 * a check that spends a quota: in a quota window of the operations it spends (a fresh window, moved past before and
 * after when the target has a test clock; on the run's timeline, side by side with windows of other operations)
 */
export function inFreshWindow(ctx: CheckContext, use: QuotaUse, run: () => Promise<void>): Promise<void> {
  return ctx.clock.window(use, 'a quota window being filled and judged', run);
}

/** a transfers API request as the burst sends it (UAT: the body sealed once, the same envelope N times) */
export async function apiRequest(
  ctx: CheckContext,
  o: { method: 'POST' | 'PUT'; url: string; token: string; body: unknown; label: string },
): Promise<HttpRequest> {
  const identity = ctx.identity('code');
  const body = JSON.stringify(ctx.env === 'uat' ? await ctx.jose.seal(o.body, 'code') : o.body);
  return {
    method: o.method,
    url: o.url,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${o.token}`,
      'x-gateway-client-id': ctx.profile.clients.code.clientId,
      'content-type': 'application/json',
    },
    body,
    label: o.label,
    ...(identity ? { identity } : {}),
  };
}

/** no success in a burst: a gate refusal of every call is inconclusive; anything else too (nothing to judge) */
export function gateOrNothing(r: BurstResult, what: string): Inconclusive {
  const gated = r.replies.every((x) => x.response && GATE.has(x.response.status));
  return new Inconclusive(`${what} (${gated ? 'refused before the rule under test: ' : ''}${tally(r.replies)})`);
}
