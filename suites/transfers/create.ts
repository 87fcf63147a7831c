/** Create (PUT /transfers/{id}): XFER-03's reference, XFER-05's idempotency, XFER-06's read-only fields. */
import { seededHex } from '../../lib/data/seed.ts';
import { type CheckSpec, ensureEqual, isObject, ensureValue } from '../../lib/engine/check.ts';
import { bodyObject, expectReached, sameDecimal } from '../shared.ts';
import { createFor, referenceOf } from './helpers.ts';

export const createReturnsReference: CheckSpec = {
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
    ensureValue(
      typeof b.payment_reference_id === 'string' && b.payment_reference_id.length > 0,
      'payment_reference_id',
      'no payment_reference_id in the create response',
      'non-empty string',
      b.payment_reference_id,
    );
  },
};

/** XFER-05 (a repeated PUT) and XFER-06 (read-only fields in the body) */
export const idempotencyChecks: CheckSpec[] = [
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
      ensureValue(
        isObject(g.amount) && !sameDecimal(g.amount.value, '151.00'),
        'amount',
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
        // a value the bank must ignore, drawn from the run's seed (the same every run of it)
        payment_reference_id: `CLIENT-REF-${seededHex(ctx.dataSeed ^ 0x5eed, 8)}`,
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
          ensureValue(
            doc[k] !== sent[k],
            'server-assigned member',
            `${where}: ${k} is the value the client sent`,
            `the target's own ${k}`,
            doc[k],
          );
        }
        if ('transfer_id' in doc)
          ensureEqual(doc.transfer_id, id, `${where}: transfer_id (the path id, not the body's)`);
      }
    },
  },
];
