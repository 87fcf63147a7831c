/**
 * QUOTA (seed §8): 100 calls an hour per client and per operation. Every check here exhausts a quota, so it is
 * exclusive, needs the test clock (or --destructive against a real target), starts by moving the clock past the
 * window (earlier calls of other checks do not count) and ends by doing it again (the next check finds a fresh
 * window). Loops are bounded by the limit plus a few calls.
 */
import {
  CheckFailed,
  Inconclusive,
  NotApplicable,
  defineSuite,
  ensure,
  type CheckSpec,
} from '../../lib/engine/check.ts';
import type { ApiCall, ApiResponse, CheckContext } from '../../lib/engine/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import type { HttpResponse } from '../../lib/http/types.ts';
import { clip, expectReached, inPool, together } from '../shared.ts';

/** calls past the limit before giving up on a refusal */
const EXTRA = 3;

/**
 * the customer of the quota checks: the first one without a workflow (the quota is counted per client and
 * operation, not per customer; its token, kept by the session, is renewed with one refresh after each window)
 */
function quotaCustomer(ctx: CheckContext): Customer {
  return ctx.profile.customers.find((x) => !x.workflow) ?? ctx.customer(0);
}

/** calls one operation may make before a refusal: the per-operation figure, or a smaller plan-wide one */
function limitOf(ctx: CheckContext): number {
  const q = ctx.profile.contract.quota;
  return Math.min(q.perHour, q.planPerHour ?? Number.POSITIVE_INFINITY);
}

/** moves the target's clock past the quota window: every window opened before is over */
function passWindow(ctx: CheckContext): Promise<void> {
  return ctx.clock.advance(ctx.profile.contract.quota.windowSeconds + 1);
}

/** passWindow, unless the clock has already passed it with no request since (the check before ended so) */
function freshWindow(ctx: CheckContext): Promise<void> {
  return ctx.clock.ensurePassed(ctx.profile.contract.quota.windowSeconds + 1);
}

interface Burst {
  /** calls accepted before the first refusal */
  accepted: number;
  /** spike arrests waited out while filling (the target has one: a decisive call may meet it too) */
  spikes: number;
  /** the first call refused for the quota, if any */
  refusal?: { status: number; headers: Record<string, string> };
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

/** a refusal that asks for a wait this short is a spike arrest (a rate over seconds), not the hourly quota */
const SPIKE_WAIT_SECONDS = 5;
/** spike-arrest refusals tolerated in one run */
const SPIKE_RETRIES = 3;

type Reply = { status: number; headers: Record<string, string>; text?: string; resent?: number };

/** the wait a spike arrest asks for: a quota refusal with a Retry-After of SPIKE_WAIT_SECONDS at most; else undefined */
function spikeWait(ctx: CheckContext, res: Reply): number | undefined {
  const wait = Number(res.headers['retry-after']);
  return res.status === ctx.profile.contract.quota.status && Number.isFinite(wait) && wait <= SPIKE_WAIT_SECONDS
    ? Math.max(1, wait)
    : undefined;
}

/**
 * Makes the same call until the quota refuses one: the first `limit` + 1 calls (the quota, and the one that must be
 * refused) up to inFlightOf at a time, then one at a time, up to `limit` + EXTRA calls in all. A refusal before the
 * limit that asks for a short wait (Retry-After of SPIKE_WAIT_SECONDS at most) is a gateway's spike arrest, not the
 * quota: the wave stops, the harness waits, sends the calls it refused again (they were not counted) and goes on one
 * call at a time; a spike arrest is waited out SPIKE_RETRIES times at most (every refusal of one wave is one). A
 * 401/403 means the call was not counted for a reason of its own: inconclusive.
 */
async function exhaust(ctx: CheckContext, what: string, call: (i: number) => Promise<Reply>): Promise<Burst> {
  const limit = limitOf(ctx);
  const s: { accepted: number; spikes: number; waitUntil: number; uncertain: number; refusal?: Burst['refusal'] } = {
    accepted: 0,
    spikes: 0,
    waitUntil: 0,
    uncertain: 0,
  };
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
      s.waitUntil = Math.max(s.waitUntil, Date.now() + wait * 1000);
      return res; // a spike arrest: the call is sent again
    }
    s.refusal ??= res;
    return 'done';
  };
  const spiked = (res: Reply): boolean => {
    if (++s.spikes > SPIKE_RETRIES) {
      s.refusal ??= res;
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
    if (s.refusal) break;
    for (;;) {
      await new Promise((r) => setTimeout(r, Math.max(0, s.waitUntil - Date.now())));
      const o = await once(i);
      if (o === 'done' || !spiked(o)) break;
    }
  }
  const refusal = s.refusal as Burst['refusal'];
  const uncertain = s.uncertain
    ? `; ${s.uncertain} attempts timed out and were sent again (the target may have counted them too)`
    : '';
  ctx.note(
    `${what}: ${s.accepted} calls accepted${refusal ? `, then refused with HTTP ${refusal.status}` : `, none refused for the quota`}${uncertain}`,
  );
  return { accepted: s.accepted, spikes: s.spikes, uncertain: s.uncertain, ...(refusal ? { refusal } : {}) };
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
  r.next = await inPool(
    size,
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
  r.calls.sort((x, y) => x - y);
  return r;
}

/**
 * A decisive call after a window's filling: when the filling met a spike arrest (the target has one), a refusal that
 * asks for a spike arrest's short wait is waited out and the call sent again, SPIKE_RETRIES times at most; without
 * one, the answer is taken as it is.
 */
async function pastSpike(ctx: CheckContext, call: ApiCall, filled: Burst): Promise<ApiResponse> {
  for (let k = 0; ; k++) {
    const res = await ctx.api(call);
    const wait = spikeWait(ctx, res);
    if (filled.spikes === 0 || wait === undefined || k >= SPIKE_RETRIES) return res;
    ctx.note(`${call.label ?? call.op}: refused with Retry-After ${wait}: a spike arrest; waited, sent it again`);
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
}

/**
 * The bulk calls that fill a quota: the same request sent as it is (a UAT body sealed once), without opening
 * the answers; only the status matters there. The decisive calls go through ctx.api.
 */
async function bulkCall(
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

function transferUrl(ctx: CheckContext, id: string): string {
  return ctx.url('transfer').replace('{transfer_id}', encodeURIComponent(id));
}

/** the check needs an exhausted operation: a missing or early refusal is QUOTA-01's finding, not this rule's */
function requireExhausted(ctx: CheckContext, b: Burst, what: string): void {
  const limit = limitOf(ctx);
  if (!b.refusal)
    throw new Inconclusive(`${what}: not refused after ${b.accepted} calls, so the rule cannot be checked (QUOTA-01)`);
  if (b.accepted < limit) ctx.note(`${what}: refused after ${b.accepted} calls (limit ${limit})`);
}

/**
 * a quota check: clock past the window first (unless the check before ended so, with no request since); clock past
 * the window at the end, whatever happened
 */
function quotaCheck(spec: Omit<CheckSpec, 'needs' | 'exclusive'>): CheckSpec {
  return {
    ...spec,
    needs: ['clock', 'destructive'],
    exclusive: true,
    async run(ctx) {
      await freshWindow(ctx);
      try {
        // no other check moves the clock while the window is filled and judged (its own moves are not held back)
        await ctx.clock.hold('a quota window being filled and judged', () => spec.run(ctx));
      } finally {
        await passWindow(ctx);
      }
    },
  };
}

/** creates transfer `id` of the quota customer, to GET (a genuine call of the get operation) */
async function createOne(ctx: CheckContext, token: string, customer: Customer, id: string): Promise<void> {
  const res = await ctx.api({
    op: 'create',
    transferId: id,
    token,
    body: ctx.transferBody(customer),
    label: 'create (setup)',
  });
  expectReached(res, ctx.profile.contract.statuses.create, 'create (setup)');
}

function getCall(token: string, transferId: string, label: string): ApiCall {
  return { op: 'get', transferId, token, label };
}

export const suite = defineSuite('quota', [
  quotaCheck({
    name: 'per-operation-limit',
    requirements: ['QUOTA-01'],
    title: 'an operation accepts its hourly quota of calls; the next one is refused (429) with Retry-After',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const token = await ctx.tokens.codeToken(customer);
      // GET of a transfer id that does not exist: a call of the get operation only (404), nothing else counted
      const id = ctx.newTransferId();
      const limit = limitOf(ctx);
      const status = ctx.profile.contract.quota.status;
      const get = await bulkCall(ctx, { method: 'GET', url: transferUrl(ctx, id), token });
      // a gateway's spike arrest is not taken for an early quota (see exhaust)
      const b = await exhaust(ctx, 'get', (i) => get(`get #${i + 1}`));
      ensure(
        b.refusal !== undefined,
        `get was not refused after ${b.accepted} calls in one window`,
        `HTTP ${status} after ${limit} calls`,
        `${b.accepted} calls accepted`,
      );
      if (b.accepted < limit && b.accepted + b.uncertain >= limit)
        throw new Inconclusive(
          `get was refused after ${b.accepted} calls seen accepted, but ${b.uncertain} attempts timed out and were sent again: the target may have counted them, so the count cannot be judged`,
        );
      ensure(
        b.accepted >= limit,
        `get was refused after ${b.accepted} calls, before the quota of ${limit}`,
        `${limit} calls accepted`,
        b.accepted,
      );
      const retry = b.refusal.headers['retry-after'];
      ensure(
        retry !== undefined,
        `the ${status} answer carries no Retry-After header`,
        'Retry-After: <seconds> or <HTTP-date>',
        'absent',
      );
      const valid = /^\d+$/.test(retry.trim()) || !Number.isNaN(Date.parse(retry));
      ensure(valid, 'Retry-After is neither delay-seconds nor an HTTP-date', 'delay-seconds or HTTP-date', retry);
    },
  }),
  quotaCheck({
    name: 'operations-counted-apart',
    requirements: ['QUOTA-02'],
    title:
      'operations are counted apart: with validate exhausted, get still works (or the plan-wide figure is reported)',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const token = await ctx.tokens.codeToken(customer);
      const plan = ctx.profile.contract.quota.planPerHour;
      const perHour = ctx.profile.contract.quota.perHour;
      const body = ctx.transferBody(customer);
      // control: get is served before validate is exhausted (else its own window is spent: QUOTA-03's business)
      const before = await ctx.api({ op: 'get', token, label: 'get before validate is exhausted (control)' });
      if (before.status === ctx.profile.contract.quota.status)
        throw new Inconclusive(
          `get is refused for the quota before validate is exhausted (HTTP ${before.status}): its window did not reopen`,
        );
      if (before.status !== 200 && before.status !== 404)
        throw new Inconclusive(`get before validate is exhausted (control) answered HTTP ${before.status}`);
      const validate = await bulkCall(ctx, { method: 'POST', url: ctx.url('validate'), token, body });
      const b = await exhaust(ctx, 'validate', (i) => validate(`validate #${i + 1}`));
      requireExhausted(ctx, b, 'validate');
      const get = await pastSpike(ctx, { op: 'get', token, label: 'get after validate is exhausted' }, b);
      if (plan !== undefined && plan <= perHour) {
        // a plan-wide figure at or under the per-operation one: operations cannot be seen apart, nothing is judged
        throw new NotApplicable(
          `the profile declares a plan-wide quota (${plan} calls an hour) at or under the per-operation one (${perHour}): operations cannot be counted apart; found: validate refused after ${b.accepted} calls, get then answered HTTP ${get.status}`,
        );
      }
      if (get.status === ctx.profile.contract.quota.status) {
        throw new CheckFailed(
          'get is refused for the quota once validate is exhausted: the operations share one counter',
          {
            expected: 'get still served',
            observed: `HTTP ${get.status}`,
          },
        );
      }
      // any other answer (a 5xx, a 401) shows neither a shared nor a separate counter
      if (get.status !== 200 && get.status !== 404)
        throw new Inconclusive(
          `get after validate is exhausted answered HTTP ${get.status}: the counters cannot be seen`,
        );
      if (plan !== undefined) ctx.note(`plan-wide quota declared by the profile: ${plan} calls an hour`);
    },
  }),
  quotaCheck({
    name: 'window-reopens',
    requirements: ['QUOTA-03'],
    title: 'an exhausted operation is served again once the window (contract.quota.windowSeconds) is over',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const token = await ctx.tokens.codeToken(customer);
      const id = ctx.newTransferId();
      const get = await bulkCall(ctx, { method: 'GET', url: transferUrl(ctx, id), token });
      // the transfer is created while get's window fills (another operation's call): the first GETs may find
      // nothing yet, and every one counts all the same
      const [, b] = await together([
        createOne(ctx, token, customer, id),
        exhaust(ctx, 'get', (i) => get(`get #${i + 1}`)),
      ]);
      requireExhausted(ctx, b, 'get');
      await passWindow(ctx);
      // the clock moved past the token's life too: a fresh token
      const fresh = await ctx.tokens.codeToken(customer);
      const res = await pastSpike(ctx, getCall(fresh, id, 'get after the window'), b);
      ensure(
        res.status !== ctx.profile.contract.quota.status,
        `get is still refused ${ctx.profile.contract.quota.windowSeconds + 1} s after the window opened`,
        'served again',
        `HTTP ${res.status}`,
      );
      expectReached(res, [200], 'get after the window');
    },
  }),
  quotaCheck({
    name: 'refused-call-no-side-effect',
    requirements: ['QUOTA-04'],
    title: 'a create refused for the quota creates nothing (GET after the window reopens finds nothing)',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const token = await ctx.tokens.codeToken(customer);
      const body = ctx.transferBody(customer);
      // the quota is spent on repeats of one idempotent PUT: one transfer, no second payment
      const kept = ctx.newTransferId();
      const put = await bulkCall(ctx, { method: 'PUT', url: transferUrl(ctx, kept), token, body });
      const b = await exhaust(ctx, 'create', (i) => put(`create (same PUT) #${i + 1}`));
      requireExhausted(ctx, b, 'create');
      const refusedId = ctx.newTransferId();
      const refused = await ctx.api({
        op: 'create',
        transferId: refusedId,
        token,
        body,
        label: 'create refused for the quota',
      });
      if (refused.status !== ctx.profile.contract.quota.status)
        throw new Inconclusive(
          `the create after the exhausted quota answered HTTP ${refused.status}, not ${ctx.profile.contract.quota.status}`,
        );
      await passWindow(ctx);
      const fresh = await ctx.tokens.codeToken(customer);
      const notVisible = ctx.profile.contract.statuses.notVisible;
      // three reads at once: the two controls and the transfer refused for the quota
      const [kept200, unknown, res] = await together([
        pastSpike(ctx, getCall(fresh, kept, 'get the transfer created in the window (control)'), b),
        pastSpike(ctx, getCall(fresh, ctx.newTransferId(), 'get a transfer id never used (control)'), b),
        pastSpike(ctx, getCall(fresh, refusedId, 'get the transfer refused for the quota'), b),
      ]);
      expectReached(kept200, [200], 'get of a created transfer (control)');
      if (!notVisible.includes(unknown.status))
        throw new Inconclusive(
          `GET of a transfer id never used answers HTTP ${unknown.status}, so GET cannot show whether the refused create left a transfer (ERR-04)`,
        );
      ensure(
        res.status !== 200,
        'the create refused for the quota created the transfer',
        `HTTP ${notVisible.join(' or ')}`,
        `HTTP ${res.status}`,
      );
      expectReached(res, notVisible, 'get of the transfer refused for the quota');
    },
  }),
]);
