/**
 * RACE (requirements.md "RACE"): the same rules under concurrency. Each check sends a control request alone
 * (positive control, and the answer time the overlap is measured against), then bursts of N copies of one
 * request released together (profile run.raceBurst, default 20; run.raceRepeats bursts, default 3).
 * A success is judged only on answers that came: a transport error or a 5xx is never evidence that the rule holds.
 */
import { CheckFailed, Inconclusive, defineSuite, ensure, isObject } from '../../lib/engine/check.ts';
import type { CheckContext, QuotaUse } from '../../lib/engine/session/context.ts';
import type { BurstReply, BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest, Identity } from '../../lib/http/types.ts';
import { buildExchangeCodeRequest, buildRefreshRequest, tokenUrl } from '../../lib/oauth/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { inPool, indices } from '../../lib/pool.ts';
import { clip, expectReached } from '../shared.ts';
import { control, madeAhead, openAhead, repeatBursts, tally } from './burst.ts';

const GATE = new Set([401, 403, 429]);

function limitOf(ctx: CheckContext): number {
  const q = ctx.profile.contract.quota;
  return Math.min(q.perHour, q.planPerHour ?? Number.POSITIVE_INFINITY);
}

function sizes(ctx: CheckContext): { n: number; repeats: number } {
  return { n: ctx.profile.run.raceBurst, repeats: ctx.profile.run.raceRepeats };
}

/**
 * a check that spends a quota: in a quota window of the operations it spends (a fresh window, moved past before and
 * after when the target has a test clock; on the run's timeline, side by side with windows of other operations)
 */
function inFreshWindow(ctx: CheckContext, use: QuotaUse, run: () => Promise<void>): Promise<void> {
  return ctx.clock.window(use, 'a quota window being filled and judged', run);
}

/** a transfers API request as the burst sends it (UAT: the body sealed once, the same envelope N times) */
async function apiRequest(
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

/** the answer document of a reply: opened in UAT (a sealed answer that does not open is JOSE-11's: inconclusive) */
async function documentOf(ctx: CheckContext, reply: BurstReply): Promise<unknown> {
  const json = reply.response?.json;
  if (ctx.env !== 'uat' || !isObject(json) || !('recipients' in json || 'ciphertext' in json)) return json;
  const opened = await ctx.jose.open(json, 'code');
  if (!opened.ok)
    throw new Inconclusive(`a sealed answer did not open (${opened.step}: ${opened.code}); sealing is JOSE-11's rule`);
  return opened.payload;
}

function transferUrl(ctx: CheckContext, id: string): string {
  return ctx.url('transfer').replace('{transfer_id}', encodeURIComponent(id));
}

/** the references named by the successful answers of a PUT burst; a 200/201 without one is XFER-03's finding */
async function referencesOf(ctx: CheckContext, r: BurstResult): Promise<string[]> {
  const ok = ctx.profile.contract.statuses.create;
  const refs: string[] = [];
  for (const reply of r.replies) {
    if (!reply.response || !ok.includes(reply.response.status)) continue;
    const doc = await documentOf(ctx, reply);
    const ref = isObject(doc) ? doc.payment_reference_id : undefined;
    if (typeof ref !== 'string')
      throw new Inconclusive(
        `a successful PUT named no payment_reference_id (XFER-03): ${clip(ctx.redact(JSON.stringify(doc ?? null)), 200)}`,
      );
    refs.push(ref);
  }
  return refs;
}

async function raceCreate(ctx: CheckContext): Promise<void> {
  const { n, repeats } = sizes(ctx);
  const customer = ctx.customer(0);
  // the control's and the first burst's connections opened while the token and the body are made
  const identity = ctx.identity('code');
  const ahead = openAhead(ctx, { url: ctx.url('transfer'), ...(identity ? { identity } : {}) }, n + 1);
  const token = await ctx.tokens.codeToken(customer);
  // realistic free parts (seeded: run.dataSeed replays them); one body for every PUT of a burst
  const body = ctx.transferBody(customer, (await ctx.data()).transferFields(ctx.profile.contract.currency));
  const put = (id: string, label: string): Promise<HttpRequest> =>
    apiRequest(ctx, { method: 'PUT', url: transferUrl(ctx, id), token, body, label });
  const c = await control(ctx, await put(ctx.newTransferId(), 'create alone (control)'), ahead);
  expectReached(c.reply.response!, ctx.profile.contract.statuses.create, 'create alone (control)');
  // each burst's transfer id, and the reference its answers named (once judged)
  const made: { id: string; ref?: string }[] = [];
  let read = false;
  const readBack = async (i: number): Promise<void> => {
    read = true;
    await sameReferenceOnGet(ctx, token, { id: made[i]!.id, ref: made[i]!.ref! }, i);
  };
  await repeatBursts(ctx, {
    n,
    repeats,
    // every burst spends N creates of the hourly quota: no more bursts than the window holds
    maxBursts: Math.max(1, Math.floor((limitOf(ctx) - 2) / n)),
    controlMs: c.ms,
    make: async (i) => {
      const id = ctx.newTransferId();
      made[i] = { id };
      const req = await put(id, `create, burst ${i + 1}`);
      return Array.from({ length: n }, () => req);
    },
    // the transfer of the burst before, read while this one is in flight (no round trip of its own)
    alongside: (i) => (i > 0 ? readBack(i - 1) : Promise.resolve()),
    judge: async (r, i) => {
      const refs = [...new Set(await referencesOf(ctx, r))];
      ensure(
        refs.length <= 1,
        `burst ${i + 1}: ${n} concurrent PUTs of one transfer id with one body named ${refs.length} different payment_reference_id values (more than one payment)`,
        'one payment_reference_id',
        `${refs.length} different ones`,
      );
      if (refs.length === 0) throw gateOrNothing(r, `burst ${i + 1}: no PUT succeeded`);
      made[i]!.ref = refs[0]!;
    },
  });
  // a single burst: its transfer is read after it
  if (!read) await readBack(made.length - 1);
}

/** the transfer a burst created names the reference its answers named (no second payment replaced it) */
async function sameReferenceOnGet(
  ctx: CheckContext,
  token: string,
  burst: { id: string; ref: string },
  i: number,
): Promise<void> {
  const what = `get the transfer of burst ${i + 1}`;
  const res = await ctx.api({ op: 'get', transferId: burst.id, token, label: what });
  expectReached(res, [200], what);
  const ref = isObject(res.body) ? res.body.payment_reference_id : undefined;
  if (typeof ref !== 'string') throw new Inconclusive('the GET names no payment_reference_id (XFER-04)');
  ensure(
    ref === burst.ref,
    `the transfer created by burst ${i + 1} names another payment_reference_id than its answers did (a second payment)`,
    burst.ref,
    ref,
  );
}

/** no success in a burst: a gate refusal of every call is inconclusive; anything else too (nothing to judge) */
function gateOrNothing(r: BurstResult, what: string): Inconclusive {
  const gated = r.replies.every((x) => x.response && GATE.has(x.response.status));
  return new Inconclusive(`${what} (${gated ? 'refused before the rule under test: ' : ''}${tally(r.replies)})`);
}

/** answers that issued a token: 200 with an access_token */
function tokensIssued(r: BurstResult): number {
  return r.replies.filter((x) => {
    const j = x.response?.json;
    return x.response?.status === 200 && isObject(j) && typeof j.access_token === 'string';
  }).length;
}

/**
 * A token race: the request alone (the control: it must issue a token), then bursts of N copies of one request
 * (each burst's made ahead, while the control is in flight); a burst may issue one token at most.
 */
async function raceIssuance(
  ctx: CheckContext,
  o: {
    /** "code exchange", "refresh": labels and messages */
    what: string;
    /** the request, for the first customer (and the code client's identity) */
    request: (label: string, customer: Customer, identity: Identity | undefined) => Promise<HttpRequest>;
    /** the bursts' requests may be made ahead (false: each right before its burst) */
    ahead: boolean;
    /** more of the control than its 200 (throws Inconclusive) */
    control?: (reply: BurstReply) => void;
    finding: (burst: number, issued: number, n: number) => CheckFailed;
  },
): Promise<void> {
  const { n, repeats } = sizes(ctx);
  const customer = ctx.customer(0);
  const identity = ctx.identity('code');
  const request = (label: string): Promise<HttpRequest> => o.request(label, customer, identity);
  // the control's and the first burst's connections opened while the requests are made (the token endpoint's)
  const ahead = openAhead(ctx, { url: tokenUrl(ctx.profile, 'token'), ...(identity ? { identity } : {}) }, n + 1);
  const bursts = madeAhead(
    async (i) => {
      const req = await request(`${o.what}, burst ${i + 1}`);
      return Array.from({ length: n }, () => req);
    },
    o.ahead ? repeats : 0,
  );
  // the bursts made ahead have all been made before the check ends, whatever happened
  try {
    const c = await control(ctx, await request(`${o.what} alone (control)`), ahead);
    expectReached(
      { status: c.reply.response!.status, body: ctx.redact(c.reply.response!.text) },
      [200],
      `${o.what} alone (control)`,
    );
    o.control?.(c.reply);
    await repeatBursts(ctx, {
      n,
      repeats,
      controlMs: c.ms,
      make: bursts,
      judge: async (r, i) => {
        const issued = tokensIssued(r);
        if (issued > 1) throw o.finding(i, issued, n);
        if (issued === 0) throw gateOrNothing(r, `burst ${i + 1}: no ${o.what} succeeded`);
      },
    });
  } finally {
    await bursts.settled();
  }
}

async function raceCodeExchange(ctx: CheckContext): Promise<void> {
  await raceIssuance(ctx, {
    what: 'code exchange',
    // a code is valid for a short while: made ahead only when consent is automatic (a person consenting to each
    // in turn could leave the first one to expire before its burst)
    ahead: ctx.profile.target.consent.mode === 'auto',
    request: async (label, customer, identity) => {
      const a = await ctx.tokens.authorize(customer);
      if (!a.code) throw new Inconclusive(`/authorize gave no code: ${a.outcome}`);
      // the PKCE verifier of the code's challenge, when the profile uses PKCE (target.oauth.pkce)
      const codeVerifier = ctx.tokens.exchangeFields(a.code).code_verifier;
      const req = buildExchangeCodeRequest(ctx.profile, {
        code: a.code,
        ...(identity ? { identity } : {}),
        ...(codeVerifier ? { codeVerifier } : {}),
      });
      return { ...req, label };
    },
    // the positive control: without a readable token from one exchange alone, a burst's tokens cannot be counted
    control: (reply) => {
      if (tokensIssued({ replies: [reply], ready: 1, releaseSpreadMs: 0 }) !== 1)
        throw new Inconclusive(
          `the code exchange alone (control) gave no readable access_token: ${clip(ctx.redact(reply.response!.text), 200)}`,
        );
    },
    finding: (i, issued, n) =>
      new CheckFailed(`burst ${i + 1}: one authorization code exchanged ${n} times at once issued ${issued} tokens`, {
        expected: 'at most one token',
        observed: `${issued} tokens`,
      }),
  });
}

async function raceRefresh(ctx: CheckContext): Promise<void> {
  await raceIssuance(ctx, {
    what: 'refresh',
    ahead: true,
    request: async (label, customer, identity) => {
      const g = await ctx.tokens.codeGrant(customer);
      if (!g.refresh) throw new Inconclusive('the code grant gave no refresh token');
      return {
        ...buildRefreshRequest(ctx.profile, { refreshToken: g.refresh, ...(identity ? { identity } : {}) }),
        label,
      };
    },
    finding: (i, issued, n) =>
      new CheckFailed(`burst ${i + 1}: one refresh token used ${n} times at once issued ${issued} token pairs`, {
        expected: 'at most one new token pair',
        observed: `${issued} token pairs`,
      }),
  });
}

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

async function raceQuota(ctx: CheckContext): Promise<void> {
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
      // the control's and the burst's connections opened while the window is filled
      const ahead = openAhead(ctx, req, n + 1);
      // the filling first: the control's own connection is then made once the calls beside it (another window's
      // filling) have been answered, and its answer time is measured with the target no busier than before
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
    throw new CheckFailed(
      `${o.n} concurrent calls with ${o.room} left of the quota of ${o.limit}: ${accepted} were accepted`,
      { expected: `at most ${o.room} accepted`, observed: `${accepted} accepted` },
    );
  if (refused === 0) throw new Inconclusive(`no call of the burst was refused for the quota (${tally(r.replies)})`);
  return Promise.resolve();
}

export const suite = defineSuite('race', [
  {
    name: 'concurrent-put-one-payment',
    requirements: ['RACE-01'],
    title: 'N concurrent PUTs of one transfer id with one body create one payment (one payment_reference_id)',
    // N × repeats creates: a quota's worth of calls (a fresh window before and after, with a test clock)
    needs: ['destructive'],
    // the quota less one at most (maxBursts): in a fresh window of a test clock they never exhaust it
    fitsFreshWindow: true,
    exclusive: true,
    run: (ctx) => inFreshWindow(ctx, { spends: ['create'], calls: ['get'] }, () => raceCreate(ctx)),
  },
  {
    name: 'concurrent-code-exchange',
    // a control and bursts one after another: started first among the shared checks
    startEarly: true,
    requirements: ['RACE-02'],
    title: 'N concurrent exchanges of one authorization code issue at most one token',
    run: raceCodeExchange,
  },
  {
    name: 'concurrent-refresh',
    // a control and bursts one after another: started first among the shared checks
    startEarly: true,
    requirements: ['RACE-03'],
    title: 'N concurrent refreshes with one refresh token issue at most one new token pair',
    run: raceRefresh,
  },
  {
    name: 'concurrent-calls-past-quota',
    requirements: ['RACE-04'],
    title: 'N concurrent calls with fewer than N left of the quota: no more than the quota is accepted',
    needs: ['clock', 'destructive'],
    exclusive: true,
    run: raceQuota,
  },
]);
