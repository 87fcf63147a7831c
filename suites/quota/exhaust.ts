/**
 * Filling a quota window (QUOTA checks, specification §8): the quota customer, the limit, the bulk calls that fill a
 * window, the exhaustion that tells a gateway's spike arrest from the quota, and the decisive call after it. Loops are
 * bounded by the limit plus a few calls.
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { ApiCall, ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import { gateWait } from '../../lib/engine/property/property-gate.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import type { HttpResponse } from '../../lib/http/types.ts';
import { inPool, indices } from '../../lib/pool.ts';
import { realWaits, type Waits } from '../../lib/waits.ts';
import { clip } from '../shared.ts';
/** calls past the limit before giving up on a refusal */
const EXTRA = 3;

/**
 * the customer of the quota checks: the first one without a workflow (the quota is counted per client and
 * operation, not per customer; its token, kept by the session, is renewed with one refresh after each window)
 */
export function quotaCustomer(ctx: CheckContext): Customer {
  return ctx.profile.customers.find((x) => !x.workflow) ?? ctx.customer(0);
}

/** calls one operation may make before a refusal: the per-operation figure, or a smaller plan-wide one */
export function limitOf(ctx: CheckContext): number {
  const q = ctx.profile.contract.quota;
  return Math.min(q.perHour, q.planPerHour ?? Number.POSITIVE_INFINITY);
}

export interface Burst {
  /** calls accepted before the first refusal */
  accepted: number;
  /** spike arrests waited out while filling (the target has one: a decisive call may meet it too) */
  spikes: number;
  /** the first call refused for the quota, if any */
  refusal?: { status: number; headers: Record<string, string> };
  /**
   * the spike arrest that stopped the filling (SPIKE_RETRIES waits in a row without a call accepted between them, or
   * SPIKE_WAIT_BUDGET_S of waiting): no refusal of the quota was seen, nothing is shown of it (requireExhausted)
   */
  stoppedBySpike?: string;
  /**
   * attempts that timed out and were sent again (a small target, lib/http/client.ts): the target may have counted
   * them, so up to this many calls may have been counted without being seen accepted
   */
  uncertain: number;
}

/**
 * calls in flight at once while filling a quota: the profile's run.quotaInFlight, by default the quota and one more
 * (the order of counting does not matter there: the window fills, and its refusal comes, in one round trip; a
 * gateway that arrests such a spike is waited for, see exhaust)
 */
function inFlightOf(ctx: CheckContext): number {
  return ctx.profile.run.quotaInFlight ?? limitOf(ctx) + 1;
}

/**
 * spike-arrest refusals tolerated in a row (with no call accepted between them); a filling that makes progress
 * between them goes on, for SPIKE_WAIT_BUDGET_S of waiting in all at most
 */
const SPIKE_RETRIES = 3;
const SPIKE_WAIT_BUDGET_S = 60;

type Reply = { status: number; headers: Record<string, string>; text?: string; resent?: number };

/** the time of the waits for a spike arrest: the run's (RunOptions.waits), real time by default */
function waitsOf(ctx: CheckContext): Waits {
  return ctx.options.waits ?? realWaits;
}

/** the wait a spike arrest asks for (lib/engine/property/property-gate.ts, the property searches' rule too); else undefined */
function spikeWait(ctx: CheckContext, res: Reply): number | undefined {
  return gateWait(res.status, res.headers['retry-after'], ctx.profile.contract.quota.status);
}

/**
 * Makes the same call until the quota refuses one: the first `limit` + 1 calls (the quota, and the one that must be
 * refused) up to inFlightOf at a time, then one at a time, up to `limit` + EXTRA calls in all. A refusal before the
 * limit that asks for a short wait (Retry-After of GATE_WAIT_SECONDS at most) is a gateway's spike arrest, not the
 * quota: the wave stops, the harness waits, sends the calls it refused again (they were not counted) and goes on one
 * call at a time; a spike arrest is waited out SPIKE_RETRIES times at most (every refusal of one wave is one). A
 * 401/403 means the call was not counted for a reason of its own: inconclusive.
 */
export async function exhaust(ctx: CheckContext, what: string, call: (i: number) => Promise<Reply>): Promise<Burst> {
  const limit = limitOf(ctx);
  const waits = waitsOf(ctx);
  const s: {
    accepted: number;
    spikes: number;
    waitUntil: number;
    uncertain: number;
    refusal?: Burst['refusal'];
    /** spikes since a call was last accepted, the seconds waited for spikes, and why the filling stopped */
    inRow: number;
    acceptedAtSpike: number;
    waitedS: number;
    stopped?: string;
  } = { accepted: 0, spikes: 0, waitUntil: 0, uncertain: 0, inRow: 0, acceptedAtSpike: -1, waitedS: 0 };
  const once = async (i: number): Promise<'done' | Reply> => {
    const res = await call(i);
    s.uncertain += res.resent ?? 0;
    if (res.status === 401 || res.status === 403)
      throw new Inconclusive(
        `${what}: call ${i + 1} was refused with HTTP ${res.status}, not for the quota${res.text ? ` (${clip(ctx.redact(res.text), 200)})` : ''}`,
      );
    if (res.status !== ctx.profile.contract.quota.status) {
      s.accepted++;
      return 'done';
    }
    const wait = spikeWait(ctx, res);
    if (s.accepted < limit && wait !== undefined) {
      s.waitUntil = Math.max(s.waitUntil, waits.now() + wait * 1000);
      return res; // a spike arrest: the call is sent again
    }
    s.refusal ??= res;
    return 'done';
  };
  const spiked = (res: Reply): boolean => {
    s.spikes++;
    // a spike after calls were accepted since the last one: the filling makes progress, the row starts again
    s.inRow = s.accepted > s.acceptedAtSpike ? 1 : s.inRow + 1;
    s.acceptedAtSpike = s.accepted;
    s.waitedS += spikeWait(ctx, res) ?? 0;
    if (s.inRow > SPIKE_RETRIES || s.waitedS > SPIKE_WAIT_BUDGET_S) {
      // never taken for the quota's refusal: a spike arrest says nothing of the quota
      s.stopped = `stopped by a spike arrest after ${s.accepted} calls accepted (${s.spikes} waits, ${s.waitedS} s)`;
      return false;
    }
    ctx.note(
      `${what}: refused after ${s.accepted} calls with Retry-After ${res.headers['retry-after']}: a spike arrest; waited, went on one call at a time`,
    );
    return true;
  };
  const again = await wave(s, once, Math.min(inFlightOf(ctx), limit + 1), limit + 1);
  if (again.spike) spiked(again.spike);
  // one call at a time from here: those a spike arrest refused, then the rest of the wave and EXTRA more
  const queue = [...again.calls, ...Array.from({ length: limit + EXTRA - again.next }, (_, k) => again.next + k)];
  for (const i of queue) {
    if (s.refusal || s.stopped) break;
    for (;;) {
      await waits.sleep(s.waitUntil - waits.now());
      const o = await once(i);
      if (o === 'done' || !spiked(o)) break;
    }
  }
  const refusal = s.refusal as Burst['refusal'];
  const uncertain = s.uncertain
    ? `; ${s.uncertain} attempts timed out and were sent again (the target may have counted them too)`
    : '';
  ctx.note(
    `${what}: ${s.accepted} calls accepted${refusal ? `, then refused with HTTP ${refusal.status}` : s.stopped ? `, ${s.stopped}` : `, none refused for the quota`}${uncertain}`,
  );
  return {
    accepted: s.accepted,
    spikes: s.spikes,
    uncertain: s.uncertain,
    ...(refusal ? { refusal } : {}),
    ...(s.stopped ? { stoppedBySpike: s.stopped } : {}),
  };
}

/**
 * The first `size` calls, `width` at a time, until the quota refuses one or a spike arrest does: the calls the spike
 * arrest refused (to send again), and the next call not sent. A call that ends the check (401/403, a transport
 * error) stops the others; all have ended before it is thrown (no call is left in flight).
 */
async function wave(
  s: { refusal?: unknown },
  once: (i: number) => Promise<'done' | Reply>,
  width: number,
  size: number,
): Promise<{ calls: number[]; next: number; spike?: Reply }> {
  const r: { calls: number[]; next: number; spike?: Reply } = { calls: [], next: 0 };
  const started = await inPool(
    indices(size),
    width,
    async (i) => {
      const o = await once(i);
      if (o !== 'done') {
        r.spike ??= o;
        r.calls.push(i);
      }
    },
    () => s.refusal !== undefined || r.spike !== undefined,
  );
  r.next = started.length;
  r.calls.sort((x, y) => x - y);
  return r;
}

/**
 * A decisive call after a window's filling: when the filling met a spike arrest (the target has one), a refusal that
 * asks for a spike arrest's short wait is waited out and the call sent again, SPIKE_RETRIES times at most; without
 * one, the answer is taken as it is. A setup call sent `beside a filling` (of an operation it does not spend: its
 * own window is fresh) waits out such a refusal in any case: a gateway's spike arrest counts the client's calls of
 * every operation, the filling's among them.
 */
export async function pastSpike(
  ctx: CheckContext,
  call: ApiCall,
  filled: Burst | 'beside a filling',
): Promise<ApiResponse> {
  for (let k = 0; ; k++) {
    const res = await ctx.api(call);
    const wait = spikeWait(ctx, res);
    const arrests = filled === 'beside a filling' || filled.spikes > 0;
    if (!arrests || wait === undefined || k >= SPIKE_RETRIES) return res;
    ctx.note(`${call.label ?? call.op}: refused with Retry-After ${wait}: a spike arrest; waited, sent it again`);
    await waitsOf(ctx).sleep(wait * 1000);
  }
}

/**
 * The bulk calls that fill a quota: the same request sent as it is (a UAT body sealed once), without opening
 * the answers; only the status matters there. The decisive calls go through ctx.api.
 */
export async function bulkCall(
  ctx: CheckContext,
  o: { method: 'GET' | 'POST' | 'PUT'; url: string; token: string; body?: unknown },
): Promise<(label: string) => Promise<HttpResponse>> {
  const identity = ctx.identity('code');
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${o.token}`,
    'x-gateway-client-id': ctx.profile.clients.code.clientId,
  };
  let body: string | undefined;
  if (o.body !== undefined) {
    body = JSON.stringify(ctx.env === 'uat' ? await ctx.jose.seal(o.body, 'code') : o.body);
    headers['content-type'] = 'application/json';
  }
  return (label) =>
    ctx.send({
      method: o.method,
      url: o.url,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(identity ? { identity } : {}),
      label,
      // a filling call that timed out among others may be sent again: its only effect is on the count, which
      // exhaust() checks (HttpResponse.resent: a refusal early by no more than those is inconclusive)
      resend: 'checked',
    });
}

export function transferUrl(ctx: CheckContext, id: string): string {
  return ctx.url('transfer').replace('{transfer_id}', encodeURIComponent(id));
}

/** the check needs an exhausted operation: a missing or early refusal is QUOTA-01's finding, not this rule's */
export function requireExhausted(ctx: CheckContext, b: Burst, what: string): void {
  const limit = limitOf(ctx);
  requireNotStopped(b, what);
  if (!b.refusal)
    throw new Inconclusive(`${what}: not refused after ${b.accepted} calls, so the rule cannot be checked (QUOTA-01)`);
  if (b.accepted < limit) ctx.note(`${what}: refused after ${b.accepted} calls (limit ${limit})`);
}

/** a filling a spike arrest stopped shows nothing of the quota: inconclusive (never a refusal, never a pass) */
export function requireNotStopped(b: Burst, what: string): void {
  if (b.stoppedBySpike !== undefined)
    throw new Inconclusive(
      `${what}: the filling was ${b.stoppedBySpike}: the quota was not reached, nothing is shown of it`,
    );
}
