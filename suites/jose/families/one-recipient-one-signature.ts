/**
 * HARD-03: hardening: one recipient and one signature only.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts multiplicityCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['HARD-03'];

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
