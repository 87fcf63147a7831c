/** Get (GET /transfers/{id}): XFER-04's details and status. */
import { type CheckSpec, ensureEqual, isObject, ensureValue } from '../../lib/engine/check.ts';
import { bodyObject, ensureSameAmount, expectReached } from '../shared.ts';

export const getDetailsAndStatus: CheckSpec = {
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
    ensureValue(
      typeof b.payment_reference_id === 'string' && b.payment_reference_id.length > 0,
      'payment_reference_id',
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
    ensureValue(
      typeof b.status === 'string' && b.status.length > 0,
      'status',
      'status missing',
      'non-empty string',
      b.status,
    );
    if (allowed.length)
      ensureValue(allowed.includes(b.status), 'status', 'status is not one of the allowed values', allowed, b.status);
    ensureEqual(b.beneficiary_id, body.beneficiary_id, 'beneficiary_id');
    ensureSameAmount(b.amount, body.amount, 'amount');
  },
};
