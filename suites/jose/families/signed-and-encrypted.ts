/**
 * JOSE-09: a request body has both layers, signed and encrypted.
 * The cases: catalogue.ts layerCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { layerCases } from '../catalogue.ts';
import { envelope, keysOf } from '../envelopes.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';
import { caseEnvOf, type Family } from './family.ts';

const cases: Family['cases'] = (_env, k, doc) => layerCases(k, doc);

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

/** the family as lib/workbench builds it */
export const family: Family = { requirement: 'JOSE-09', cases };
