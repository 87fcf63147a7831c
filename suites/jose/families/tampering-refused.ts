/**
 * JOSE-08: a changed JWE protected header, iv, ciphertext or tag is refused.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts tamperCases.
 * The positive control: the same document sealed by lib/jose seal() (its cases start from that envelope),
 * accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { tamperBase } from '../../../lib/negative/catalogue.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-08'];

export const check: CheckSpec = {
  name: 'tampering-refused',
  requirements: ['JOSE-08'],
  title:
    'a tampered JWE protected header, iv, ciphertext or tag (or a duplicated ciphertext whose last value is junk) is refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, await tamperBase(k, s.doc), 'sealed by lib/jose seal()');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'tampering-refused');
  },
};
