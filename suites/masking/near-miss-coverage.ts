/**
 * The coverage phase of the masking properties (docs/properties.md): every class of near miss the generators
 * (near-miss-arb.ts) can make, for every owner (customer and kind of id) they draw for, at least once, sent before
 * the random ones: a target that gets one class wrong for one customer fails in every run whatever the seed.
 * A near miss's class is its owner and its edit (the kind, the end of the id it touches, the character it writes;
 * two edits are one class); a clear form's class is its owner and its form (the character and end, not the place).
 * Pure data, no fast-check; unit-tested in test/mask/coverage.test.ts.
 */
import { mask } from '../../lib/mask/index.ts';
import type { Customer } from '../../lib/profile/schema.ts';
import {
  nearMissValue,
  NOT_X,
  SPACES,
  type ClearForm,
  type ClearNearMiss,
  type Edit,
  type NearMiss,
  type Owner,
} from './near-miss.ts';

const ownerKey = (o: Owner): string => `customer ${o.customer} ${o.id}`;

/** the class of one edit: its kind, the end it touches or the character it writes */
export function editClass(e: Edit): string {
  switch (e.op) {
    case 'change':
    case 'drop':
    case 'double':
    case 'other':
      return `${e.op} ${e.end}`;
    case 'x':
      return e.by > 0 ? 'x more' : 'x less';
    case 'not-x':
      return `not-x ${e.ch}`;
    case 'space':
      return `space ${e.ch}`;
  }
}

/** a near miss's class: its owner, and its edit's class (two edits: one class of their own) */
export function nearMissClass(n: NearMiss): string {
  return `${ownerKey(n.owner)}: ${n.edits.length > 1 ? 'two edits' : editClass(n.edits[0]!)}`;
}

/** the edits of every class, one each (every x written another way once more, all of them at once) */
function oneOfEach(): Edit[][] {
  const ends = ['head', 'tail'] as const;
  return [
    ...ends.map((end): Edit[] => [{ op: 'change', end, at: 0, shift: 1 }]),
    ...ends.map((end): Edit[] => [{ op: 'drop', end, at: 0 }]),
    ...ends.map((end): Edit[] => [{ op: 'double', end, at: 0 }]),
    [{ op: 'x', by: 1 }],
    [{ op: 'x', by: -1 }],
    ...NOT_X.map((ch): Edit[] => [{ op: 'not-x', ch, all: false, at: 0 }]),
    [{ op: 'not-x', ch: 'X', all: true, at: 0 }],
    ...SPACES.map((ch): Edit[] => [{ op: 'space', ch, at: 3 }]),
    [
      { op: 'change', end: 'tail', at: 2, shift: 1 },
      { op: 'x', by: 1 },
    ],
  ];
}

/**
 * The near misses of every class for every owner, never an exact mask of a customer (as the generator: such a value
 * names a real account). "Another customer's kept part" is tried with each other customer until one is no exact mask.
 */
export function nearMissCoverage(customers: readonly Customer[], who: readonly Owner[]): NearMiss[] {
  const exact = new Set(
    customers.flatMap((c) => [c.accountId, c.emiratesId ?? '']).flatMap((id) => (id ? [mask(id)] : [])),
  );
  const fits = (n: NearMiss): boolean => !exact.has(nearMissValue(customers, n));
  const out: NearMiss[] = [];
  for (const owner of who) {
    for (const edits of oneOfEach()) {
      const n = { owner, edits };
      if (fits(n)) out.push(n);
    }
    for (const end of ['head', 'tail'] as const) {
      const tries = Array.from({ length: Math.max(1, customers.length) }, (_, w): NearMiss => ({
        owner,
        edits: [{ op: 'other', end, who: w }],
      }));
      const first = tries.find(fits);
      if (first) out.push(first);
    }
  }
  return out;
}

/** a clear form's class: its owner and form, without the place of a space inside */
export function clearClass(n: ClearNearMiss): string {
  const f = n.form;
  const form = f.op === 'space' ? `space ${f.ch}` : f.op === 'pad' ? `pad ${f.ch} ${f.end}` : f.op;
  return `${ownerKey(n.owner)}: ${form}`;
}

/** the clear ids of every owner in every form the generator makes (the space inside at its first place) */
export function clearCoverage(who: readonly Owner[]): ClearNearMiss[] {
  const forms: ClearForm[] = [
    { op: 'clear' },
    ...([' ', '\u00a0', '\u200b'] as const).map((ch): ClearForm => ({ op: 'space', ch, at: 0 })),
    ...([' ', '\t'] as const).flatMap((ch) =>
      (['head', 'tail'] as const).map((end): ClearForm => ({ op: 'pad', ch, end })),
    ),
    { op: 'dashes' },
  ];
  return who.flatMap((owner) => forms.map((form) => ({ owner, form })));
}
