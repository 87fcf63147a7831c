/**
 * JOSE-09: a request body has both layers, signed and encrypted.
 * The cases: lib/negative/families.ts, from lib/negative/catalogue.ts layerCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { envelope } from '../../../lib/negative/envelopes.ts';
import { FAMILY_CASES } from '../../../lib/negative/families.ts';
import { caseEnvOf, keysOf } from '../keys.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';

const cases = FAMILY_CASES['JOSE-09'];

export const check: CheckSpec = {
  name: 'signed-and-encrypted',
  requirements: ['JOSE-09'],
  title: 'encrypted-but-unsigned and signed-but-unencrypted request bodies are refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'signed-and-encrypted');
  },
};
