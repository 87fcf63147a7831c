/** The transfers suite's shared setup: a transfer created for a customer, its reference, a second customer. */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import { bodyObject, expectReached } from '../shared.ts';

/** A transfer created for the customer (setup step): its id, request body and the create answer. */
export async function createFor(
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
export function referenceOf(created: Record<string, unknown>, what: string): string {
  const r = created.payment_reference_id;
  if (typeof r !== 'string' || r.length === 0)
    throw new Inconclusive(
      `${what}: the create answer has no payment_reference_id (XFER-03's rule); nothing to compare`,
    );
  return r;
}

/** another customer of the profile than `c` */
export function otherCustomer(ctx: CheckContext, c: Customer): Customer {
  const other = ctx.profile.customers.find((x) => x.uuid !== c.uuid);
  if (!other) throw new Inconclusive('the profile has no second customer');
  return other;
}
