/**
 * JOSE-02: the request JWS is RS256.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts jwsAlgCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-02'];

export const check: CheckSpec = {
  name: 'jws-alg-rs256-only',
  requirements: ['JOSE-02'],
  title:
    'the request JWS must be RS256: none, HS256 key confusion, RS512, PS256, and a duplicated alg whose last value is RS512, are refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'jws-alg-rs256-only');
  },
};
