/**
 * JOSE-01: the request body is a sealed envelope: plain JSON is refused.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts structureCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-01'];

export const check: CheckSpec = {
  name: 'sealed-structure',
  requirements: ['JOSE-01'],
  title: 'a request body must be sealed: plain JSON is refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'sealed-structure');
  },
};
