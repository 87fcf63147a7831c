/**
 * JOSE-01: the request body is a sealed envelope: plain JSON is refused.
 * The cases: catalogue.ts structureCases.
 * The positive control: the same document sealed by the same builder with no deviation, accepted with 200.
 * The verdict: negatives.ts judge().
 */
import type { CheckSpec } from '../../../lib/engine/check.ts';
import { structureCases } from '../catalogue.ts';
import { envelope, keysOf } from '../envelopes.ts';
import { judge, partnerSender, positiveControl, sendCases } from '../negatives.ts';
import { caseEnvOf, type Family } from './family.ts';

const cases: Family['cases'] = (_env, _k, doc) => structureCases(doc);

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

/** the family as lib/workbench builds it */
export const family: Family = { requirement: 'JOSE-01', cases };
