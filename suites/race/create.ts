/**
 * RACE-01: N concurrent PUTs of one transfer id with one body create one payment. Each burst's successful answers must
 * name one payment_reference_id, and the transfer read back after it names the same one (no second payment replaced it).
 */
import { Inconclusive, ensureValue, isObject } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { BurstReply, BurstResult } from '../../lib/http/burst/burst.ts';
import type { HttpRequest } from '../../lib/http/types.ts';
import { clip, expectReached } from '../shared.ts';
import { control, openAhead, repeatBursts } from './burst.ts';
import { apiRequest, gateOrNothing, limitOf, sizes } from './common.ts';

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

export async function raceCreate(ctx: CheckContext): Promise<void> {
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
      ensureValue(
        refs.length <= 1,
        'payment_reference_id values of one burst',
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
  ensureValue(
    ref === burst.ref,
    'payment_reference_id',
    `the transfer created by burst ${i + 1} names another payment_reference_id than its answers did (a second payment)`,
    burst.ref,
    ref,
  );
}
