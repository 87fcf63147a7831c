/**
 * HARD-02: hardening: a compressed JWE is refused.
 * The cases: catalogue.ts zipCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { zipCases } from '../catalogue.ts';
import { envelope, keysOf } from '../envelopes.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';
import { caseEnvOf, type Family } from './family.ts';

const cases: Family['cases'] = (_env, k, doc) => zipCases(k, doc);

export const check: CheckSpec = {
  name: 'zip-refused',
  requirements: ['HARD-02'],
  title: 'hardening: a compressed (zip DEF) JWE is refused',
  async run(ctx) {
    const s = await partnerSender(ctx);
    const k = await keysOf(ctx);
    await positiveControl(ctx, s, envelope(k, s.doc), 'sealed by the negative builder, no deviation');
    judge(ctx, await sendCases(ctx, s, cases(caseEnvOf(ctx), k, s.doc)), 'zip-refused');
  },
};

/** the family as lib/workbench builds it */
export const family: Family = { requirement: 'HARD-02', cases };
