/**
 * The fast-check arbitraries of the masking properties (docs/properties.md): near-miss masks (MASK-01/02) and clear ids
 * and their look-alikes (MASK-03), as the plain data near-miss.ts turns into values and words. A module of its own so
 * that the checks' definitions do not load fast-check: the property checks load this when they run.
 */
import fc from 'fast-check';
import { mask } from '../../lib/mask/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import {
  nearMissValue,
  NOT_X,
  SPACES,
  type ClearForm,
  type ClearNearMiss,
  type Edit,
  type End,
  type NearMiss,
  type Owner,
} from './near-miss.ts';

const end = fc.constantFrom<End>('head', 'tail');
const at = fc.nat({ max: 40 });

/** the edits, the simplest first (fast-check shrinks towards the first) */
const edit: fc.Arbitrary<Edit> = fc.oneof(
  // a failing input shrinks towards the first kinds of edit, not only within its own
  { withCrossShrink: true },
  fc.record({ op: fc.constant('change' as const), end, at, shift: fc.integer({ min: 1, max: 35 }) }),
  fc.record({ op: fc.constant('drop' as const), end, at }),
  fc.record({ op: fc.constant('double' as const), end, at }),
  fc.record({ op: fc.constant('x' as const), by: fc.constantFrom<-1 | 1>(-1, 1) }),
  fc.record({ op: fc.constant('not-x' as const), ch: fc.constantFrom(...NOT_X), all: fc.boolean(), at }),
  fc.record({ op: fc.constant('space' as const), ch: fc.constantFrom(...SPACES), at }),
  fc.record({ op: fc.constant('other' as const), end, who: fc.nat({ max: 10 }) }),
);

/**
 * near-miss masks of the owners' ids: one or two edits, never an exact mask. Not the owner's, and not another
 * customer's either ("another customer's kept head, then its kept tail" can rebuild it): that is a well-formed mask
 * of a real account, which an unbound token may name, so the target judges what follows (the beneficiary, the
 * binding) and the answer says nothing of the masking rule.
 */
export function nearMisses(customers: readonly Customer[], who: readonly Owner[]): fc.Arbitrary<NearMiss> {
  const exact = new Set(
    customers.flatMap((c) => [c.accountId, c.emiratesId ?? '']).flatMap((id) => (id ? [mask(id)] : [])),
  );
  return fc
    .record({ owner: fc.constantFrom(...who), edits: fc.array(edit, { minLength: 1, maxLength: 2 }) })
    .filter((n) => !exact.has(nearMissValue(customers, n)));
}

/** the clear ids of the owners and their look-alikes (whitespace inside or around, printed with dashes) */
export function clearNearMisses(who: readonly Owner[]): fc.Arbitrary<ClearNearMiss> {
  // a small space (a clear id is refused or not, wherever the space goes): about 12 forms per id, each sent once
  const space = fc.constantFrom<(typeof SPACES)[number]>(' ', '\u00a0', '\u200b');
  const form: fc.Arbitrary<ClearForm> = fc.oneof(
    fc.constant({ op: 'clear' as const }),
    fc.record({ op: fc.constant('space' as const), ch: space, at: fc.nat({ max: 1 }).map((n) => n * 5) }),
    fc.record({ op: fc.constant('pad' as const), ch: fc.constantFrom<(typeof SPACES)[number]>(' ', '\t'), end }),
    fc.constant({ op: 'dashes' as const }),
  );
  return fc.record({ owner: fc.constantFrom(...who), form });
}
