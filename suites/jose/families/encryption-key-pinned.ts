/**
 * JOSE-07: the request JWE is encrypted to the bank's API-domain key, and only that key opens it.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts encryptionKeyCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-07'];

export const check: CheckSpec = {
  name: 'encryption-key-pinned',
  requirements: ['JOSE-07'],
  title:
    "a request JWE must be encrypted to the bank's API-domain key: an attacker key, the bank's TLS key, the client's own key are refused",
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'encryption-key-pinned');
  },
};
