/**
 * XFER-07's second customer, proven: a token the harness asked for in another customer's name (by consent, which a
 * person or script may give as anyone) counts as that customer's only when it refuses the first customer's account
 * (validate with the first customer's body answers the contract's mismatched-identifier status). Otherwise the check
 * cannot tell "another customer's token" from "the same customer's second token": inconclusive, with the answer.
 */
import { Inconclusive } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import type { Customer } from '../../lib/profile/schema.ts';

export async function proveOtherCustomer(
  ctx: CheckContext,
  token: string,
  first: Customer,
  other: Customer,
): Promise<void> {
  const res = await ctx.api({
    op: 'validate',
    token,
    body: ctx.transferBody(first),
    label: `validate of customer ${first.name}'s account with customer ${other.name}'s token (control)`,
  });
  const want = ctx.profile.contract.statuses.mismatchedIdentifier;
  if (want.includes(res.status)) return;
  throw new Inconclusive(
    `customer ${other.name}'s token is not shown to be another customer's (control): validate of customer ${first.name}'s account with it: expected HTTP ${want.join(' or ')}, observed ${res.status}`,
  );
}
