/**
 * QUOTA (specification §8): 100 calls an hour per client and per operation. Every check here exhausts a quota, so it is
 * exclusive and needs the test clock (or --destructive against a real target); it fills and judges each window in
 * ctx.clock.window, a window of the operations it spends that no other check's calls disturb (on the run's timeline
 * the moves of the others reopen it; alone, the clock is moved past the window before and after). Filling a window:
 * exhaust.ts.
 */
import {
  CheckFailed,
  Inconclusive,
  NotApplicable,
  defineSuite,
  ensure,
  type CheckSpec,
  statusFailure,
  ensureValue,
} from '../../lib/engine/check.ts';
import type { ApiCall, ApiResponse, CheckContext } from '../../lib/engine/session/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { expectReached, together } from '../shared.ts';
import {
  bulkCall,
  exhaust,
  limitOf,
  pastSpike,
  quotaCustomer,
  requireExhausted,
  requireNotStopped,
  transferUrl,
  type Burst,
} from './exhaust.ts';

/**
 * a quota check: exclusive, needs the test clock; its run fills and judges its windows in ctx.clock.window (a fresh
 * window of the operations it spends, and no other check's moves while it is filled and judged)
 */
function quotaCheck(spec: Omit<CheckSpec, 'needs' | 'exclusive'>): CheckSpec {
  return { ...spec, needs: ['clock', 'destructive'], exclusive: true };
}

/** moves the target's clock past the quota window, inside the check's own window: every window opened before is over */
function passWindow(ctx: CheckContext): Promise<void> {
  return ctx.clock.advance(ctx.profile.contract.quota.windowSeconds + 1);
}

/** what a window is held for while it is filled and judged */
const FILLED = 'a quota window being filled and judged';

/**
 * creates transfer `id` of the quota customer, to GET (a genuine call of the get operation), beside the filling of
 * get (a spike arrest it meets is waited out)
 */
async function createOne(ctx: CheckContext, token: string, customer: Customer, id: string): Promise<void> {
  const call = {
    op: 'create',
    transferId: id,
    token,
    body: ctx.transferBody(customer),
    label: 'create (setup)',
  } as const;
  const res = await pastSpike(ctx, call, 'beside a filling');
  expectReached(res, ctx.profile.contract.statuses.create, 'create (setup)');
}

function getCall(token: string, transferId: string, label: string): ApiCall {
  return { op: 'get', transferId, token, label };
}

/**
 * QUOTA-02's control, sent with the validate filling, was refused for the quota: get's own window may be spent, or
 * validate was exhausted before the control was counted and the counters are shared; the order cannot tell them
 * apart (thrown out of the window: a window that ends so shows nothing counted apart)
 */
class ControlRaced extends Error {}

/**
 * QUOTA-02 in one window: get served (the control), validate exhausted, then get served again. The control is sent
 * `with the filling` (one round trip less: served, it shows get's window open while validate was not yet
 * exhausted, as alone; refused, it shows nothing: ControlRaced), or `first`, alone before it.
 */
async function countedApart(ctx: CheckContext, control: 'with the filling' | 'first'): Promise<void> {
  const customer = quotaCustomer(ctx);
  const token = await ctx.tokens.codeToken(customer);
  const { planPerHour: plan, perHour, status: quotaStatus } = ctx.profile.contract.quota;
  const body = ctx.transferBody(customer);
  const fill = async (): Promise<Burst> => {
    const validate = await bulkCall(ctx, { method: 'POST', url: ctx.url('validate'), token, body });
    return exhaust(ctx, 'validate', (i) => validate(`validate #${i + 1}`));
  };
  // control: get is served before validate is exhausted (else its own window is spent: QUOTA-03's business)
  const label = `get ${control === 'first' ? 'before validate is exhausted' : 'sent with the validate filling'} (control)`;
  const check = (before: ApiResponse): void => {
    if (before.status === quotaStatus && control === 'with the filling')
      throw new ControlRaced(
        `get sent with the validate filling (control) was refused (HTTP ${before.status}): its own window may be spent, or it was counted once validate was exhausted`,
      );
    if (before.status === quotaStatus)
      throw new Inconclusive(
        `get is refused for the quota before validate is exhausted (HTTP ${before.status}): its window did not reopen`,
      );
    if (before.status !== 200 && before.status !== 404)
      throw new Inconclusive(`${label} answered HTTP ${before.status}`);
  };
  let b: Burst;
  if (control === 'first') {
    check(await ctx.api({ op: 'get', token, label }));
    b = await fill();
  } else {
    const [before, filled] = await together([ctx.api({ op: 'get', token, label }), fill()]);
    check(before);
    b = filled;
  }
  requireExhausted(ctx, b, 'validate');
  const get = await pastSpike(ctx, { op: 'get', token, label: 'get after validate is exhausted' }, b);
  if (plan !== undefined && plan <= perHour) {
    // a plan-wide figure at or under the per-operation one: operations cannot be seen apart, nothing is judged
    throw new NotApplicable(
      `the profile declares a plan-wide quota (${plan} calls an hour) at or under the per-operation one (${perHour}): operations cannot be counted apart; found: validate refused after ${b.accepted} calls, get then answered HTTP ${get.status}`,
    );
  }
  if (get.status === quotaStatus) {
    const shared = 'get is refused for the quota once validate is exhausted: the operations share one counter';
    throw new CheckFailed(shared, {
      expected: 'get still served',
      observed: `HTTP ${get.status}`,
      failures: [
        statusFailure(get, [200, 404], shared, {
          title: 'one quota counter for every operation',
          operation: 'get',
          expected: 'get still served',
        }),
      ],
    });
  }
  // any other answer (a 5xx, a 401) shows neither a shared nor a separate counter
  if (get.status !== 200 && get.status !== 404)
    throw new Inconclusive(`get after validate is exhausted answered HTTP ${get.status}: the counters cannot be seen`);
  if (plan !== undefined) ctx.note(`plan-wide quota declared by the profile: ${plan} calls an hour`);
}

export const suite = defineSuite('quota', [
  quotaCheck({
    name: 'per-operation-limit',
    requirements: ['QUOTA-01'],
    title: 'an operation accepts its hourly quota of calls; the next one is refused (429) with Retry-After',
    async run(ctx) {
      // validate (a call of the validate operation only, it creates nothing): its window side by side with those
      // that spend get (QUOTA-03) or create and call get (QUOTA-04, RACE-01) on the run's timeline
      await ctx.clock.window({ spends: ['validate'] }, FILLED, async () => {
        const customer = quotaCustomer(ctx);
        const token = await ctx.tokens.codeToken(customer);
        const limit = limitOf(ctx);
        const status = ctx.profile.contract.quota.status;
        const body = ctx.transferBody(customer);
        const validate = await bulkCall(ctx, { method: 'POST', url: ctx.url('validate'), token, body });
        // a gateway's spike arrest is not taken for an early quota (see exhaust)
        const b = await exhaust(ctx, 'validate', (i) => validate(`validate #${i + 1}`));
        requireNotStopped(b, 'validate');
        ensureValue(
          b.refusal !== undefined,
          'quota refusal',
          `validate was not refused after ${b.accepted} calls in one window`,
          `HTTP ${status} after ${limit} calls`,
          `${b.accepted} calls accepted`,
        );
        if (b.accepted < limit && b.accepted + b.uncertain >= limit)
          throw new Inconclusive(
            `validate was refused after ${b.accepted} calls seen accepted, but ${b.uncertain} attempts timed out and were sent again: the target may have counted them, so the count cannot be judged`,
          );
        ensureValue(
          b.accepted >= limit,
          'calls accepted in one window',
          `validate was refused after ${b.accepted} calls, before the quota of ${limit}`,
          `${limit} calls accepted`,
          b.accepted,
        );
        const retry = b.refusal.headers['retry-after'];
        ensureValue(
          retry !== undefined,
          'Retry-After',
          `the ${status} answer carries no Retry-After header`,
          'Retry-After: <seconds> or <HTTP-date>',
          'absent',
        );
        const valid = /^\d+$/.test(retry.trim()) || !Number.isNaN(Date.parse(retry));
        ensureValue(
          valid,
          'Retry-After',
          'Retry-After is neither delay-seconds nor an HTTP-date',
          'delay-seconds or HTTP-date',
          retry,
        );
      });
    },
  }),
  quotaCheck({
    name: 'operations-counted-apart',
    requirements: ['QUOTA-02'],
    title:
      'operations are counted apart: with validate exhausted, get still works (or the plan-wide figure is reported)',
    async run(ctx) {
      const use = { spends: ['validate'], calls: ['get'], showsApart: true } as const;
      try {
        await ctx.clock.window(use, FILLED, () => countedApart(ctx, 'with the filling'));
      } catch (e) {
        if (!(e instanceof ControlRaced)) throw e;
        // a fresh window (on the run's timeline, on the next move), the control alone before the filling
        ctx.note(`${e.message}: the check ran again in a fresh window, the control before the filling`);
        await ctx.clock.window(use, FILLED, () => countedApart(ctx, 'first'));
      }
    },
  }),
  quotaCheck({
    name: 'window-reopens',
    requirements: ['QUOTA-03'],
    title: 'an exhausted operation is served again once the window (contract.quota.windowSeconds) is over',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const id = ctx.newTransferId();
      // one window: get's filled, then the clock moved by the window's length (no more: a window that reopens late
      // must show) under it, and the call after it judged
      await ctx.clock.window({ spends: ['get'], calls: ['create'] }, FILLED, async () => {
        const token = await ctx.tokens.codeToken(customer);
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
      });
    },
  }),
  quotaCheck({
    name: 'refused-call-no-side-effect',
    requirements: ['QUOTA-04'],
    title: 'a create refused for the quota creates nothing (GET after the window reopens finds nothing)',
    async run(ctx) {
      const customer = quotaCustomer(ctx);
      const body = ctx.transferBody(customer);
      const q = ctx.profile.contract.quota;
      // the quota is spent on repeats of one idempotent PUT: one transfer, no second payment
      const kept = ctx.newTransferId();
      const refusedId = ctx.newTransferId();
      // every move from the refusal on (alone: the window's own move past it at its end)
      let since = (): number => 0;
      // one window of create: filled, then the create refused for the quota; it calls no other operation, so that
      // windows of get run beside it
      const b = await ctx.clock.window({ spends: ['create'] }, FILLED, async () => {
        const token = await ctx.tokens.codeToken(customer);
        const put = await bulkCall(ctx, { method: 'PUT', url: transferUrl(ctx, kept), token, body });
        const filled = await exhaust(ctx, 'create', (i) => put(`create (same PUT) #${i + 1}`));
        requireExhausted(ctx, filled, 'create');
        const refused = await ctx.api({
          op: 'create',
          transferId: refusedId,
          token,
          body,
          label: 'create refused for the quota',
        });
        if (refused.status !== q.status)
          throw new Inconclusive(
            `the create after the exhausted quota answered HTTP ${refused.status}, not ${q.status}`,
          );
        since = ctx.clock.stopwatch();
        return filled;
      });
      // the reads once the refused create's window is over: on the run's timeline, on the next move of the others
      // (the maximum-age walk's: no move of its own, nor a wait for the other windows in progress); alone, on the
      // window's own move past it
      const passed = since();
      if (passed < q.windowSeconds + 1) await ctx.clock.waitFor(q.windowSeconds + 1 - passed);
      await ctx.clock.window(
        { calls: ['get'] },
        'the reads once the window of the refused create is over',
        async () => {
          // every move since the refusal has ended (a window begins once none is in flight): say how far
          const moved = since();
          if (moved < q.windowSeconds + 1)
            throw new Inconclusive(`the reads would come ${moved} s after the refused create, inside its window`);
          ctx.note(`the reads come ${moved} s (of the target's clock) after the refused create: its window is over`);
          // the clock moved past the token's life too: a fresh token
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
      );
    },
  }),
]);
