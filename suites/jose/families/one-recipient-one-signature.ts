/**
 * HARD-03: hardening: one recipient and one signature only.
 * The cases: catalogue.ts multiplicityCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { multiplicityCases } from '../catalogue.ts';
import { envelope, keysOf } from '../envelopes.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';
import { caseEnvOf, type Family } from './family.ts';

const cases: Family['cases'] = (_env, k, doc) => multiplicityCases(k, doc);

export const check: CheckSpec = {
  name: 'one-recipient-one-signature',
  requirements: ['HARD-03'],
  title: 'hardening: an envelope with two recipients or two signatures is refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'one-recipient-one-signature');
  },
};

/** the family as lib/workbench builds it */
export const family: Family = { requirement: 'HARD-03', cases };
