/** Access control: XFER-07 (another customer neither sees nor replaces a transfer), XFER-08 (the client id header). */
import { seededHex } from '../../lib/data/seed.ts';
import {
  CheckFailed,
  type CheckSpec,
  Inconclusive,
  ensure,
  ensureEqual,
  statusFailure,
  ensureValue,
} from '../../lib/engine/check.ts';
import type { ApiCall, CheckContext } from '../../lib/engine/session/context.ts';
import { bodyObject, clip, ensureSameAmount, expectControl, expectReached, together } from '../shared.ts';
import { createFor, otherCustomer, referenceOf } from './helpers.ts';
import { proveOtherCustomer } from './other-customer.ts';

/** XFER-08: without the client id header, or with an unknown one, the call is 401 */
async function expectApiKeyRequired(
  ctx: CheckContext,
  call: (clientId: string | null | undefined) => ApiCall,
  what: string,
): Promise<void> {
  // no secret: drawn from the run's seed (the same id every run of it)
  const unknown = `unknown-client-${seededHex(ctx.dataSeed, 12)}`;
  for (const [clientId, how] of [
    [null, 'without X-Gateway-Client-Id'],
    [unknown, 'with an unknown X-Gateway-Client-Id'],
  ] as const) {
    const res = await ctx.api(call(clientId));
    if (res.status !== 401) {
      const message = `${what} ${how}: expected HTTP 401, observed ${res.status}`;
      // the result keeps the body beside the status; the record names the exchange
      throw new CheckFailed(message, {
        expected: 401,
        observed: `${res.status} ${clip(JSON.stringify(res.body) ?? '', 200)}`,
        failures: [statusFailure(res, [401], message)],
      });
    }
  }
}

export const accessChecks: CheckSpec[] = [
  {
    name: 'transfer-invisible-to-other-customer',
    requirements: ['XFER-07'],
    title: "GET of a transfer with another customer's token is refused as not found",
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const other = otherCustomer(ctx, alice);
      // the other customer's token is fetched while the transfer is created
      const [{ id }, otherToken] = await together([createFor(ctx, alice), ctx.tokens.codeToken(other)]);
      const own = await ctx.api({
        op: 'get',
        transferId: id,
        token: await ctx.tokens.codeToken(alice),
        label: 'get by its owner (control)',
      });
      expectControl(own, [200], 'GET by the owner (positive control)');
      await proveOtherCustomer(ctx, otherToken, alice, other);
      const ref =
        typeof own.body === 'object' && own.body !== null
          ? (own.body as Record<string, unknown>).payment_reference_id
          : undefined;
      const res = await ctx.api({
        op: 'get',
        transferId: id,
        token: otherToken,
        label: "get with another customer's token",
      });
      if (ctx.profile.contract.statuses.notVisible.includes(res.status)) {
        // other spellings of the same path must not reach it either (lookup by a normalised id, lax routing)
        const base = ctx.profile.target.paths.transfersBasepath + ctx.profile.target.paths.transfer;
        const variants = [
          [
            'percent-encoded id',
            [...id].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join(''),
          ],
          ['lower-case id', encodeURIComponent(id.toLowerCase())],
          ['trailing slash', `${encodeURIComponent(id)}/`],
        ] as const;
        // the spellings side by side, judged in this order
        const answers = await together(
          variants.map(([how, v]) =>
            ctx.api({
              op: 'get',
              token: otherToken,
              path: base.replace('{transfer_id}', v),
              label: `get (${how}) with another customer's token`,
            }),
          ),
        );
        for (const [i, [how]] of variants.entries()) {
          const r = answers[i]!;
          const text = JSON.stringify(r.body) ?? '';
          ensure(
            !(r.status < 300 && typeof ref === 'string' && text.includes(ref)),
            `GET (${how}) with another customer's token returns the transfer`,
            'not found',
            `${r.status} ${clip(text, 200)}`,
          );
        }
        return;
      }
      // a gate refusal (401/403/429) is inconclusive here
      if ([401, 403, 429].includes(res.status))
        expectReached(res, ctx.profile.contract.statuses.notVisible, "GET with another customer's token");
      // not "not found": invisible still holds if the answer is exactly the one for an id that does not exist
      const unknownId = ctx.newTransferId();
      const none = await ctx.api({
        op: 'get',
        transferId: unknownId,
        token: otherToken,
        label: "get of an unknown id with another customer's token (control)",
      });
      const same = (a: unknown, from: string): string => (JSON.stringify(a) ?? '').split(from).join('{id}');
      if (res.status === none.status && same(res.body, id) === same(none.body, unknownId)) {
        throw new Inconclusive(
          `another customer's GET answers HTTP ${res.status}, exactly as for an id that does not exist: the transfer is not revealed, but not-found is not ${ctx.profile.contract.statuses.notVisible.join('/')} (ERR-04's rule)`,
        );
      }
      const visible = `GET with another customer's token answers HTTP ${res.status}, unlike an id that does not exist (HTTP ${none.status}): the transfer is visible`;
      throw new CheckFailed(visible, {
        expected: ctx.profile.contract.statuses.notVisible.join(' or '),
        observed: `${res.status} ${clip(JSON.stringify(res.body) ?? '', 200)}`,
        failures: [
          statusFailure(res, ctx.profile.contract.statuses.notVisible, visible, {
            title: 'transfer visible to another customer',
            operation: 'get',
          }),
        ],
      });
    },
  },
  {
    name: 'transfer-not-replaceable-by-other-customer',
    requirements: ['XFER-07'],
    title:
      "a PUT of the same transfer id with another customer's token neither returns nor changes the first customer's transfer",
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const other = otherCustomer(ctx, alice);
      const { id, body, created } = await createFor(ctx, alice);
      const ref = referenceOf(created, 'create');
      const theirs = ctx.transferBody(other, { amount: { value: '7.00', currency: ctx.profile.contract.currency } });
      const otherToken = await ctx.tokens.codeToken(other);
      await proveOtherCustomer(ctx, otherToken, alice, other);
      const res = await ctx.api({
        op: 'create',
        transferId: id,
        token: otherToken,
        body: theirs,
        label: "PUT of the same id with another customer's token",
      });
      if (res.status >= 500) throw new Inconclusive(`the other customer's PUT answered HTTP ${res.status}`);
      if (res.status < 300) {
        const b = bodyObject(res, "the other customer's PUT");
        ensureValue(
          b.payment_reference_id !== ref,
          'payment_reference_id',
          "the other customer's PUT answers the first customer's payment reference",
          'a reference of its own (or a refusal)',
          b.payment_reference_id,
        );
      }
      const got = await ctx.api({
        op: 'get',
        transferId: id,
        token: await ctx.tokens.codeToken(alice),
        label: 'get by the owner afterwards',
      });
      expectReached(got, [200], 'GET by the owner afterwards');
      const g = bodyObject(got, 'GET by the owner afterwards');
      ensureEqual(g.payment_reference_id, ref, "payment_reference_id after the other customer's PUT");
      ensureSameAmount(g.amount, body.amount, "amount after the other customer's PUT");
    },
  },
  {
    name: 'api-key-required-validate',
    requirements: ['XFER-08'],
    title: 'validate without the X-Gateway-Client-Id header, or with an unknown client id, is 401',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const ok = await ctx.api({
        op: 'validate',
        token,
        body: ctx.transferBody(alice),
        label: 'validate with the client id (control)',
      });
      expectReached(ok, [200], 'validate with the client id header (positive control)');
      await expectApiKeyRequired(
        ctx,
        (clientId) => ({
          op: 'validate',
          token,
          clientId,
          body: ctx.transferBody(alice),
          label: `validate, client id ${clientId === null ? 'absent' : 'unknown'}`,
        }),
        'validate',
      );
    },
  },
  {
    name: 'api-key-required-create',
    requirements: ['XFER-08'],
    title: 'create without the X-Gateway-Client-Id header, or with an unknown client id, is 401',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      await createFor(ctx, alice, 'create with the client id (positive control)');
      await expectApiKeyRequired(
        ctx,
        (clientId) => ({
          op: 'create',
          transferId: ctx.newTransferId(),
          token,
          clientId,
          body: ctx.transferBody(alice),
          label: `create, client id ${clientId === null ? 'absent' : 'unknown'}`,
        }),
        'create',
      );
    },
  },
  {
    name: 'api-key-required-get',
    requirements: ['XFER-08'],
    title: 'get without the X-Gateway-Client-Id header, or with an unknown client id, is 401',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const { id } = await createFor(ctx, alice);
      const ok = await ctx.api({ op: 'get', transferId: id, token, label: 'get with the client id (control)' });
      expectReached(ok, [200], 'get with the client id header (positive control)');
      await expectApiKeyRequired(
        ctx,
        (clientId) => ({
          op: 'get',
          transferId: id,
          token,
          clientId,
          label: `get, client id ${clientId === null ? 'absent' : 'unknown'}`,
        }),
        'get',
      );
    },
  },
];
