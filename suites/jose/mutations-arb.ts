/**
 * The fast-check arbitraries of the tampered-envelopes property (JOSE-06/08/14): single mutations of the bases a
 * target accepted (mutations.ts has the mutations themselves and how they apply). A module of its own so that the
 * check's definition and its judge do not load fast-check: the property check loads this when it runs.
 */
import fc from 'fast-check';
import {
  JWE_MEMBERS,
  JWS_MEMBERS,
  SPLICE_MEMBERS,
  SWAP_MEMBERS,
  type Member,
  type Mutation,
  type SealedBase,
  type Tampering,
} from '../../lib/negative/mutations.ts';

/** a fast-check arbitrary of the mutations of one base (every one applicable to it, deterministic given its shape) */
function mutationsOf(base: SealedBase): fc.Arbitrary<Mutation> {
  const member = fc.constantFrom<Member>(...JWE_MEMBERS, ...JWS_MEMBERS);
  const at = fc.nat({ max: 1 << 16 });
  const arbs: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), member, at, bit: fc.nat({ max: 7 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), member, at }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('splice' as const),
        member: fc.constantFrom(...SPLICE_MEMBERS),
      }),
    },
  ];
  if (base.shape === 'two-signatures')
    arbs.push({
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('swap' as const),
        member: fc.constantFrom(...SWAP_MEMBERS),
      }),
    });
  return fc.oneof(...arbs);
}

/** the generated inputs over the bases a target accepts (shapes shrink towards the first base given) */
export function tamperings(bases: readonly SealedBase[]): fc.Arbitrary<Tampering> {
  if (bases.length === 0) throw new Error('tamperings: no base envelope to mutate');
  return fc
    .nat({ max: bases.length - 1 })
    .chain((i) => mutationsOf(bases[i]!).map((mutation): Tampering => ({ shape: bases[i]!.shape, mutation })));
}
