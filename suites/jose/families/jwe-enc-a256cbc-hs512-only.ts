/**
 * JOSE-04: the request JWE content encryption is A256CBC-HS512.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts jweEncCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-04'];

export const check: CheckSpec = {
  name: 'jwe-enc-a256cbc-hs512-only',
  requirements: ['JOSE-04'],
  title:
    'the request JWE enc must be A256CBC-HS512: GCM, A128CBC-HS256, and a duplicated enc whose last value is A128GCM, are refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'jwe-enc-a256cbc-hs512-only');
  },
};
