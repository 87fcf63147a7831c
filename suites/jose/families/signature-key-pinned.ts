/**
 * JOSE-06: the request JWS verifies with the client's registered certificate key, and only with it.
 * The cases: catalogue.ts signatureKeyCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { signatureKeyCases } from '../catalogue.ts';
import { envelope, keysOf } from '../envelopes.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';
import { caseEnvOf, type Family } from './family.ts';

const cases: Family['cases'] = (_env, k, doc) => signatureKeyCases(k, doc);

export const check: CheckSpec = {
  name: 'signature-key-pinned',
  requirements: ['JOSE-06'],
  title:
    "a request JWS must verify with the client's registered certificate key: another key, a swapped payload are refused",
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'signature-key-pinned');
  },
};

/** the family as lib/workbench builds it */
export const family: Family = { requirement: 'JOSE-06', cases };
