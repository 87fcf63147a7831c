/**
 * JOSE-03: the request JWE key management is RSA-OAEP-256.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts jweAlgCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-03'];

export const check: CheckSpec = {
  name: 'jwe-alg-rsa-oaep-256-only',
  requirements: ['JOSE-03'],
  title:
    'the request JWE alg must be RSA-OAEP-256: RSA-OAEP, RSA1_5, PBES2, and a duplicated alg whose last value is RSA-OAEP, are refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'jwe-alg-rsa-oaep-256-only');
  },
};
