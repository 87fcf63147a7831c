/**
 * XFER-03 on the free text a valid transfer may carry (contract.freeText; docs/properties.md "Classes per rule"): the
 * free-text classes the invalid-documents property sends to validate (non-ASCII text, text at its longest allowed
 * length), sent to create too, where the bank stores them. A core that chokes only when it stores the text (a column
 * sized in bytes, no character past U+FFFF) answers validate and crashes here.
 * A control first: the same body without the free text is created (the positive control; its refusal ends the check
 * inconclusive through expectReached, XFER-03's own check judges it). Then one create per member and class, each with
 * a fresh transfer id and the body of the control plus that one member (1 + 2 × members creates: 3 by default):
 *  - created (the profile's create statuses): holds;
 *  - a 5xx other than 502, 503, 504: a crash on a request the contract allows, XFER-03 fails naming the class;
 *  - a refusal (4xx): no evidence, the specification sets no length or script for free text (contract.freeText is
 *    the profile's default, for the bank to narrow): inconclusive naming it; 502, 503, 504 and a gate's refusal are
 *    no evidence either (inconclusive).
 */
import { CheckFailed, type CheckSpec, Inconclusive, statusFailure } from '../../lib/engine/check.ts';
import type { Failure } from '../../lib/engine/failure.ts';
import type { ApiResponse } from '../../lib/engine/session/context.ts';
import { freeTextOf } from '../errors/free-text.ts';
import { clip } from '../shared.ts';
import { createFor } from './helpers.ts';

/** the free-text classes, in the order they are sent */
const CLASSES = ['non-ASCII', 'longest'] as const;

function answerText(res: ApiResponse): string {
  return clip(res.opened?.ok === false ? res.raw.text : (JSON.stringify(res.body ?? null) ?? ''), 200);
}

export const createFreeText: CheckSpec = {
  name: 'create-stores-free-text',
  requirements: ['XFER-03'],
  title: 'PUT /transfers/{id} creates a transfer whose free text is non-ASCII or at its longest allowed length',
  async run(ctx) {
    const free = ctx.profile.contract.freeText;
    const alice = ctx.customer({ workflow: false });
    const { body } = await createFor(ctx, alice, 'create without free text (control)');
    const token = await ctx.tokens.codeToken(alice);
    const crashes: Failure[] = [];
    const unjudged: string[] = [];
    for (const member of free.members) {
      for (const text of CLASSES) {
        const what =
          text === 'longest'
            ? `${member} at its longest allowed length (${free.maxLength} characters)`
            : `${member} non-ASCII`;
        const res = await ctx.api({
          op: 'create',
          transferId: ctx.newTransferId(),
          token,
          body: { ...body, [member]: freeTextOf(text, free.maxLength) },
          label: `create, ${what}`,
        });
        const s = res.status;
        if (ctx.profile.contract.statuses.create.includes(s)) continue;
        if (s >= 500 && ![502, 503, 504].includes(s)) {
          const message = `${what}: HTTP ${s}, a crash on a transfer the contract allows (${answerText(res)})`;
          crashes.push(statusFailure(res, ctx.profile.contract.statuses.create, message, { operation: 'create' }));
          continue;
        }
        // a gate's refusal (token, scope, quota) is no evidence, and the calls after it would meet it too
        if ([401, 403, 429, ctx.profile.contract.quota.status].includes(s))
          throw new Inconclusive(
            `create, ${what}: refused with HTTP ${s} before the rule under test (${answerText(res)})`,
          );
        unjudged.push(
          s >= 400 && s < 500
            ? `${what}: refused with HTTP ${s}: the specification sets no length or script for free text, so this is the profile's to say (contract.freeText: maxLength, or members without it) (${answerText(res)})`
            : `${what}: HTTP ${s}, no evidence (a gateway's or an unavailable back end's answer)`,
        );
      }
    }
    if (crashes.length > 0)
      throw new CheckFailed(`the create of a valid transfer crashed: ${crashes.map((f) => f.message).join('; ')}`, {
        expected: `created (HTTP ${ctx.profile.contract.statuses.create.join(' or ')})`,
        observed: crashes.length === 1 ? crashes[0]!.message : `${crashes.length} crashes`,
        failures: crashes,
      });
    if (unjudged.length > 0) throw new Inconclusive(unjudged.join('; '));
  },
};
