/**
 * RACE-04: N concurrent calls with fewer than N left of the quota: no more than the quota is accepted. In a fresh quota
 * window, the window filled up to the room left, a control, then one burst larger than the room.
 */
import { CheckFailed, Inconclusive, valueFailure } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest } from '../../lib/http/types.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { inPool, indices } from '../../lib/pool.ts';
import { expectReached } from '../shared.ts';
import { control, openAhead, repeatBursts, tally } from './burst.ts';
import { apiRequest, inFreshWindow, limitOf, sizes } from './common.ts';

/**
 * the customer of the quota checks: the first one without a workflow (the quota is counted per client and
 * operation, not per customer; its token, kept by the session, is renewed with one refresh after each window)
 */
function quotaCustomer(ctx: CheckContext): Customer {
  return ctx.profile.customers.find((x) => !x.workflow) ?? ctx.customer(0);
}

/**
 * fills `count` calls of the window, up to run.quotaInFlight at once (default all: one round trip); any refusal
 * means the window was not fresh: inconclusive
 */
async function fill(ctx: CheckContext, req: HttpRequest, count: number): Promise<void> {
  let resent = 0;
  await inPool(indices(count), ctx.profile.run.quotaInFlight ?? count, async (i) => {
    // may be sent again after a timeout among others (a small target): its only effect is on the count; one counted
    // twice leaves less room, which can only make the burst's refusals come sooner, never hide a finding
    const res = await ctx.send({ ...req, label: `validate (filling the window) #${i + 1}`, resend: 'checked' });
    resent += res.resent ?? 0;
    if (res.status !== 200)
      throw new Inconclusive(
        `filling the quota window: call ${i + 1} answered HTTP ${res.status}, not 200${resent ? ` (${resent} filling attempts timed out and were sent again: the target may have counted them)` : ''}`,
      );
  });
  if (resent) ctx.note(`filling the window: ${resent} attempts timed out and were sent again (may have been counted)`);
}

export async function raceQuota(ctx: CheckContext): Promise<void> {
  const { repeats } = sizes(ctx);
  const q = ctx.profile.contract.quota;
  const limit = limitOf(ctx);
  const customer = quotaCustomer(ctx);
  const body = ctx.transferBody(customer);
  let shown = false;
  // one burst per fresh window; another window only while no burst could be shown to overlap
  for (let i = 0; i < repeats && !shown; i++) {
    // the burst is as large as the target accepts at once (lib/http/connections/window.ts), the room left half of it
    const n = ctx.burstSize?.(ctx.url('validate'), sizes(ctx).n) ?? sizes(ctx).n;
    if (n < 2)
      throw new Inconclusive(`the target accepts fewer than 2 requests at once: no race past the quota can be shown`);
    if (n < sizes(ctx).n) ctx.note(`bursts of ${n}: the largest the target accepts at once (${sizes(ctx).n} asked)`);
    const room = Math.floor(n / 2);
    await inFreshWindow(ctx, { spends: ['validate'] }, async () => {
      const token = await ctx.tokens.codeToken(customer);
      const req = await apiRequest(ctx, { method: 'POST', url: ctx.url('validate'), token, body, label: 'validate' });
      // the filling first: the control's own connection is then made once the calls beside it (another window's
      // filling) have been answered, and its answer time is measured with the target no busier than before
      // the control's and the burst's connections opened while the window is filled
      const ahead = openAhead(ctx, req, n + 1);
      await fill(ctx, req, limit - room - 1);
      const c = await control(ctx, { ...req, label: 'validate alone (control, counted)' }, ahead);
      expectReached(c.reply.response!, [200], 'validate alone (control)');
      try {
        await repeatBursts(ctx, {
          n,
          repeats: 1,
          // the burst fills the quota window: a second one in it would find no room left to race for
          maxBursts: 1,
          // more than the room left must have overlapped for the burst to race past the quota
          least: room + 1,
          controlMs: c.ms,
          make: async () => Array.from({ length: n }, () => ({ ...req, label: `validate, burst past the quota` })),
          judge: async (r) => judgeQuota(r, { n, room, limit, status: q.status }),
        });
        shown = true;
      } catch (e) {
        if (!(e instanceof Inconclusive) || i === repeats - 1) throw e;
      }
    });
  }
}

function judgeQuota(r: BurstResult, o: { n: number; room: number; limit: number; status: number }): Promise<void> {
  const answered = r.replies.filter((x) => x.response);
  const accepted = answered.filter((x) => x.response!.status === 200).length;
  const refused = answered.filter((x) => x.response!.status === o.status).length;
  if (accepted > o.room)
    throw CheckFailed.of(
      valueFailure(
        'calls accepted past the quota',
        `${o.n} concurrent calls with ${o.room} left of the quota of ${o.limit}: ${accepted} were accepted`,
        { expected: `at most ${o.room} accepted`, observed: `${accepted} accepted`, operation: 'validate' },
      ),
    );
  // replies of a throttle's shape took no part (session/send.ts): a gateway's, or the bank's bare quota refusal
  const shaped = r.replies.filter((x) => x.throttled).length;
  if (refused === 0 && shaped > 0 && accepted === o.room)
    throw new Inconclusive(
      `${accepted} of the burst's ${o.n} calls were accepted (the room left) and ${shaped} answered with a throttle's shape (no API error body, no long Retry-After): a gateway's throttle, whose calls never reached the bank, or the bank's own quota refusal without the contract's body and Retry-After (QUOTA-01 judges that answer). A burst cannot tell the two apart (the window is spent after it either way), so more calls than the room left are not shown to have reached the bank at once (${tally(r.replies)})`,
    );
  if (refused === 0) throw new Inconclusive(`no call of the burst was refused for the quota (${tally(r.replies)})`);
  return Promise.resolve();
}
