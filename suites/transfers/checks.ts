import { randomBytes } from 'node:crypto';
import { CheckFailed, Inconclusive, defineSuite, ensure, ensureEqual, isObject } from '../../lib/engine/check.ts';
import type { ApiCall, CheckContext } from '../../lib/engine/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { proveOtherCustomer } from './other-customer.ts';
import {
  bodyObject,
  clip,
  ensureSameAmount,
  expectControl,
  expectMoney,
  expectReached,
  sameDecimal,
  together,
} from '../shared.ts';

/** A transfer created for the customer (setup step): its id, request body and the create answer. */
async function createFor(
  ctx: CheckContext,
  customer: Customer,
  what = 'create (setup)',
): Promise<{ id: string; body: Record<string, unknown>; created: Record<string, unknown> }> {
  const id = ctx.newTransferId();
  const body = ctx.transferBody(customer);
  const res = await ctx.api({
    op: 'create',
    transferId: id,
    token: await ctx.tokens.codeToken(customer),
    body,
    label: what,
  });
  expectReached(res, ctx.profile.contract.statuses.create, what);
  return { id, body, created: bodyObject(res, what) };
}

/** the create answer's payment reference; without one the check cannot compare (XFER-03 owns that rule) */
function referenceOf(created: Record<string, unknown>, what: string): string {
  const r = created.payment_reference_id;
  if (typeof r !== 'string' || r.length === 0)
    throw new Inconclusive(
      `${what}: the create answer has no payment_reference_id (XFER-03's rule); nothing to compare`,
    );
  return r;
}

/** another customer of the profile than `c` */
function otherCustomer(ctx: CheckContext, c: Customer): Customer {
  const other = ctx.profile.customers.find((x) => x.uuid !== c.uuid);
  if (!other) throw new Inconclusive('the profile has no second customer');
  return other;
}

/** XFER-08: without the client id header, or with an unknown one, the call is 401 */
async function expectApiKeyRequired(
  ctx: CheckContext,
  call: (clientId: string | null | undefined) => ApiCall,
  what: string,
): Promise<void> {
  const unknown = `unknown-client-${randomBytes(6).toString('hex')}`;
  for (const [clientId, how] of [
    [null, 'without X-Gateway-Client-Id'],
    [unknown, 'with an unknown X-Gateway-Client-Id'],
  ] as const) {
    const res = await ctx.api(call(clientId));
    ensure(
      res.status === 401,
      `${what} ${how}: expected HTTP 401, observed ${res.status}`,
      401,
      `${res.status} ${clip(JSON.stringify(res.body) ?? '', 200)}`,
    );
  }
}

export const suite = defineSuite('transfers', [
  {
    name: 'validate-pre-confirmation',
    requirements: ['XFER-01'],
    title: 'validate returns charges, debit amount, total credit amount and authentication mode',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const res = await ctx.api({
        op: 'validate',
        token: await ctx.tokens.codeToken(alice),
        body: ctx.transferBody(alice),
      });
      expectReached(res, [200], 'validate');
      const b = bodyObject(res, 'validate');
      expectMoney(b.charges, 'charges');
      expectMoney(b.debit_amount, 'debit_amount');
      expectMoney(b.total_credit_amount, 'total_credit_amount');
      ensure(
        typeof b.authentication_mode === 'string' && b.authentication_mode.length > 0,
        'authentication_mode missing',
        'non-empty string',
        b.authentication_mode,
      );
    },
  },
  {
    name: 'create-returns-reference',
    requirements: ['XFER-03'],
    title: 'PUT /transfers/{id} creates the transfer and returns a payment reference id',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const id = ctx.newTransferId();
      const res = await ctx.api({
        op: 'create',
        transferId: id,
        token: await ctx.tokens.codeToken(alice),
        body: ctx.transferBody(alice),
      });
      expectReached(res, ctx.profile.contract.statuses.create, 'create');
      const b = bodyObject(res, 'create');
      ensure(
        typeof b.payment_reference_id === 'string' && b.payment_reference_id.length > 0,
        'no payment_reference_id in the create response',
        'non-empty string',
        b.payment_reference_id,
      );
    },
  },
  {
    name: 'get-details-and-status',
    requirements: ['XFER-04'],
    title: 'GET /transfers/{id} returns the details and a status',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const body = ctx.transferBody(alice);
      const id = ctx.newTransferId();
      const created = await ctx.api({ op: 'create', transferId: id, token, body });
      expectReached(created, ctx.profile.contract.statuses.create, 'create (setup)');
      const res = await ctx.api({ op: 'get', transferId: id, token });
      expectReached(res, [200], 'get');
      const b = bodyObject(res, 'get');
      ensureEqual(b.transfer_id, id, 'transfer_id');
      ensure(
        typeof b.payment_reference_id === 'string' && b.payment_reference_id.length > 0,
        'payment_reference_id missing',
        'non-empty string',
        b.payment_reference_id,
      );
      if (isObject(created.body) && typeof created.body.payment_reference_id === 'string')
        ensureEqual(
          b.payment_reference_id,
          created.body.payment_reference_id,
          'payment_reference_id (same as at creation)',
        );
      const allowed = ctx.profile.contract.transferStatuses;
      ensure(typeof b.status === 'string' && b.status.length > 0, 'status missing', 'non-empty string', b.status);
      if (allowed.length)
        ensure(allowed.includes(b.status), 'status is not one of the allowed values', allowed, b.status);
      ensureEqual(b.beneficiary_id, body.beneficiary_id, 'beneficiary_id');
      ensureSameAmount(b.amount, body.amount, 'amount');
    },
  },

  {
    name: 'approvers-only-with-workflow',
    requirements: ['XFER-02'],
    title: 'validate lists approvers for a customer with a workflow, and none for a customer without',
    async run(ctx) {
      const bob = ctx.customer({ workflow: true });
      const alice = ctx.customer({ workflow: false });
      const withWf = await ctx.api({
        op: 'validate',
        token: await ctx.tokens.codeToken(bob),
        body: ctx.transferBody(bob),
        label: 'validate (workflow customer)',
      });
      expectReached(withWf, [200], 'validate for a workflow customer');
      const a = bodyObject(withWf, 'validate for a workflow customer').approvers;
      ensure(
        Array.isArray(a) && a.length > 0,
        'a customer with a workflow gets no approvers',
        'a non-empty approvers list',
        a,
      );
      ensure(
        a.every((x) => isObject(x) && Object.keys(x).length > 0),
        'an approver is not a non-empty object',
        'approver objects',
        a,
      );
      const without = await ctx.api({
        op: 'validate',
        token: await ctx.tokens.codeToken(alice),
        body: ctx.transferBody(alice),
        label: 'validate (no workflow)',
      });
      expectReached(without, [200], 'validate for a customer without a workflow');
      const b = bodyObject(without, 'validate for a customer without a workflow');
      // an empty list lists no approver: `approvers: []` says the same as no member
      ensure(
        !('approvers' in b) || (Array.isArray(b.approvers) && b.approvers.length === 0),
        'a customer without a workflow gets approvers',
        'no approvers member, or an empty list',
        b.approvers,
      );
    },
  },
  {
    name: 'repeat-put-same-body',
    requirements: ['XFER-05'],
    title: 'a repeated PUT with the same id and body answers the same payment reference and creates no second payment',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const { id, body, created } = await createFor(ctx, alice);
      const ref = referenceOf(created, 'first PUT');
      const again = await ctx.api({ op: 'create', transferId: id, token, body, label: 'repeat PUT (same body)' });
      expectReached(again, ctx.profile.contract.statuses.repeatCreate, 'repeated PUT with the same body');
      ensureEqual(
        bodyObject(again, 'repeated PUT').payment_reference_id,
        ref,
        'payment_reference_id of the repeated PUT',
      );
      const got = await ctx.api({ op: 'get', transferId: id, token, label: 'get after the repeat' });
      expectReached(got, [200], 'GET after the repeated PUT');
      ensureEqual(
        bodyObject(got, 'GET after the repeated PUT').payment_reference_id,
        ref,
        'payment_reference_id seen by GET after the repeat',
      );
    },
  },
  {
    name: 'repeat-put-different-body-refused',
    requirements: ['XFER-05'],
    title: 'a PUT with an existing id and a different body is 422 naming transfer_id, and the transfer is unchanged',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const { id, body } = await createFor(ctx, alice);
      const different = { ...body, amount: { ...(body.amount as Record<string, unknown>), value: '151.00' } };
      const res = await ctx.api({
        op: 'create',
        transferId: id,
        token,
        body: different,
        label: 'repeat PUT (different body)',
      });
      expectReached(res, [422], 'PUT of an existing id with a different body');
      ensureEqual(bodyObject(res, 'PUT with a different body').property, 'transfer_id', 'property of the 422');
      const got = await ctx.api({ op: 'get', transferId: id, token, label: 'get after the refused PUT' });
      expectReached(got, [200], 'GET after the refused PUT');
      const g = bodyObject(got, 'GET after the refused PUT');
      ensure(
        isObject(g.amount) && !sameDecimal(g.amount.value, '151.00'),
        'the transfer took the amount of the refused PUT',
        'the amount of the first PUT',
        g.amount,
      );
    },
  },
  {
    name: 'read-only-fields-ignored',
    requirements: ['XFER-06'],
    title: 'payment_reference_id, status, created_at and transfer_id sent in a PUT body are ignored',
    async run(ctx) {
      const alice = ctx.customer({ workflow: false });
      const token = await ctx.tokens.codeToken(alice);
      const id = ctx.newTransferId();
      const sent = {
        payment_reference_id: `CLIENT-REF-${randomBytes(4).toString('hex')}`,
        status: 'CLIENT_SET_STATUS',
        created_at: '2001-02-03T04:05:06Z',
        transfer_id: ctx.newTransferId(),
      };
      const res = await ctx.api({
        op: 'create',
        transferId: id,
        token,
        body: ctx.transferBody(alice, sent),
        label: 'create with read-only fields',
      });
      expectReached(res, ctx.profile.contract.statuses.create, 'PUT with read-only fields in the body');
      const c = bodyObject(res, 'create answer');
      const got = await ctx.api({ op: 'get', transferId: id, token, label: 'get' });
      expectReached(got, [200], 'GET of the transfer');
      const g = bodyObject(got, 'GET of the transfer');
      for (const [where, doc] of [
        ['create answer', c],
        ['GET', g],
      ] as const) {
        for (const k of ['payment_reference_id', 'status', 'created_at'] as const) {
          ensure(doc[k] !== sent[k], `${where}: ${k} is the value the client sent`, `the target's own ${k}`, doc[k]);
        }
        if ('transfer_id' in doc)
          ensureEqual(doc.transfer_id, id, `${where}: transfer_id (the path id, not the body's)`);
      }
    },
  },
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
      throw new CheckFailed(
        `GET with another customer's token answers HTTP ${res.status}, unlike an id that does not exist (HTTP ${none.status}): the transfer is visible`,
        {
          expected: ctx.profile.contract.statuses.notVisible.join(' or '),
          observed: `${res.status} ${clip(JSON.stringify(res.body) ?? '', 200)}`,
        },
      );
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
        ensure(
          b.payment_reference_id !== ref,
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
]);
