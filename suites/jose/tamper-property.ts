/**
 * Tampered envelopes, a property: from valid sealed requests (one recipient and one signature; two recipients; two
 * signatures, where the target accepts them), fast-check generates single mutations (mutations.ts), each a change
 * of the bytes of one member, and each is sent as a PUT with a fresh transfer id: every one is refused with the
 * JOSE refusal and leaves nothing behind (GET of its id is not visible). Its coverage phase sends one input of every
 * class (shape, kind, member: mutationClasses) before the random ones. It extends the fixed cases of JOSE-06
 * (signature-key-pinned), JOSE-08 (tampering-refused) and JOSE-14 (refusal-no-side-effect). A second spelling of
 * the same bytes is no tampering: HARD-07's check (spellings.ts) judges it.
 */
import { type CheckSpec } from '../../lib/engine/check.ts';
import { checkProperty, PROPERTY_CHECK } from '../../lib/engine/property/property.ts';
import {
  applyMutation,
  mutationClasses,
  type Mutated,
  type SealedBase,
  type Tampering,
} from '../../lib/negative/mutations.ts';
import { judgeTampered, shapeControls, tamperSender, type JudgedTrial } from './tamper-judge.ts';

/** the mutation of an input on the bases the controls kept (an input always fits: tamperings() draws from them) */
function mutated(bases: readonly SealedBase[], t: Tampering): Mutated {
  const base = bases.find((b) => b.shape === t.shape);
  const m = base && applyMutation(base, t.mutation);
  if (!m) throw new Error(`tampered-envelopes: ${JSON.stringify(t)} does not fit the envelopes built`);
  return m;
}

export const tamperedEnvelopesProperty: CheckSpec = {
  name: 'tampered-envelopes-property',
  requirements: ['JOSE-06', 'JOSE-08', 'JOSE-14'],
  title:
    'generated single mutations of a valid sealed PUT (a byte flipped or dropped in any JWE or JWS member, members spliced from another envelope or swapped between signatures) are each refused with no transfer created (property)',
  ...PROPERTY_CHECK,
  async run(ctx) {
    const s = tamperSender(ctx);
    // the controls first: the arbitrary draws only from the shapes the target accepts unmutated (a PUT and a GET
    // each, in a quota window of those operations: on the run's timeline no move ages the partner token between
    // them, and no quota check counts them)
    const bases = await ctx.clock.window(
      { calls: ['create', 'get'] },
      'the tampered envelopes’ positive controls',
      () => shapeControls(ctx, s),
    );
    await checkProperty<Tampering>(ctx, {
      what: 'tampered envelopes',
      held: 'refused',
      // the generator (fast-check) is loaded by this check, not by every run
      arbitrary: (await import('./mutations-arb.ts')).tamperings(bases),
      coverage: () => mutationClasses(bases),
      show: (t) => mutated(bases, t).description,
      spends: { as: 'partner', op: 'create' },
      // each input's GET of the id its PUT named
      alsoCalls: ['get'],
      expected: `HTTP ${ctx.profile.contract.statuses.joseRefused.join(' or ')}, and GET of the transfer id not visible`,
      control: async () => {
        // done above (shapeControls): one PUT + GET per shape, and GET of an id never used
      },
      trial: (sctx, t) => judgeTampered(sctx, 'create', mutated(bases, t)),
      failure: (t, trial) => {
        const m = mutated(bases, t);
        const rule = (trial as JudgedTrial).rule ?? m.demand;
        return `${trial.observed} for ${m.description.replace(/; refusal demanded.*$/, '')} (${rule})`;
      },
    });
  },
};
