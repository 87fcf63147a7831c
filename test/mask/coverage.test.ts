/**
 * The coverage lists of the masking properties (suites/masking/near-miss-coverage.ts): every class of near miss
 * and of clear form the generators make, for every owner (customer and kind of id) they draw for, whatever the
 * seed; each entry a value of its class: a near miss is no customer's exact mask and breaks the rule for its owner's
 * id (by an oracle written from the specification's words, oracle.ts, not the harness's mask or judge), a clear form
 * carries the clear id's digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../lib/profile/schema.ts';
import { clearNearMisses, nearMisses } from '../../suites/masking/near-miss-arb.ts';
import { clearClass, clearCoverage, nearMissClass, nearMissCoverage } from '../../suites/masking/near-miss-coverage.ts';
import { clearValue, idOf, nearMissValue, owners } from '../../suites/masking/near-miss.ts';
import { followsRule, maskByRule } from './oracle.ts';

/** as the mock makes them: two 13-digit accounts and a 19-digit one, emirates ids 784 and 12 digits */
const customer = (name: string, accountId: string, emiratesId: string): Customer => ({
  name,
  uuid: name,
  accountId,
  emiratesId,
  beneficiaryId: 'BEN-0001',
  workflow: false,
});
const CUSTOMERS = [
  customer('alice', '1234567890123', '784198512345671'),
  customer('bob', '9876543210987654321', '784199012345682'),
  customer('carol', '5555666677778', '784200112345693'),
];
const WHO = owners(CUSTOMERS, [0]);
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

/** the classes the arbitrary makes over 8 seeds, and those of the list */
function classes<T>(arb: fc.Arbitrary<T>, list: readonly T[], classOf: (x: T) => string): string[][] {
  const made = new Set<string>();
  for (let seed = 1; seed <= 8; seed++) for (const x of fc.sample(arb, { seed, numRuns: 1500 })) made.add(classOf(x));
  const covered = new Set(list.map(classOf));
  return [sorted([...made].filter((c) => !covered.has(c))), sorted([...covered].filter((c) => !made.has(c)))];
}

describe('the coverage lists of the masking properties', () => {
  it('the oracle keeps the rule’s numbers: 6 `x` in a 13-character id, 12 in a 19-character one', () => {
    expect(maskByRule('1234567890123')).toBe('1234xxxxxx123');
    expect(maskByRule('9876543210987654321')).toBe('9876xxxxxxxxxxxx321');
  });

  it('near misses: every class of edit for every owner the generator draws for, and no other', () => {
    expect.hasAssertions();
    const list = nearMissCoverage(CUSTOMERS, WHO);
    expect(classes(nearMisses(CUSTOMERS, WHO), list, nearMissClass)).toEqual([[], []]);
    // 21 classes an owner (4 owners: three account ids, one emirates id)
    expect(new Set(list.map(nearMissClass)).size).toBe(21 * WHO.length);
    expect(list.some((n) => n.edits.some((e) => e.op === 'change' && e.end === 'head'))).toBe(true);
  });

  it('each near miss is no exact mask of any customer and breaks the rule for its owner', () => {
    expect.hasAssertions();
    const exact = new Set(CUSTOMERS.flatMap((c) => [maskByRule(c.accountId), maskByRule(c.emiratesId!)]));
    const wrong = nearMissCoverage(CUSTOMERS, WHO).filter((n) => {
      const v = nearMissValue(CUSTOMERS, n);
      return exact.has(v) || followsRule(idOf(CUSTOMERS, n.owner), v);
    });
    expect(wrong).toEqual([]);
  });

  it("another customer's kept part is tried with each other customer: shared heads still give the class", () => {
    expect.hasAssertions();
    // every emirates id starts 7841: another customer's head is this one's, the generator changes its last character
    const same = [customer('a', '1234567890123', '784112345678901'), customer('b', '1234567890999', '784112345678912')];
    const who = owners(same, [0, 1]);
    const list = nearMissCoverage(same, who);
    expect(classes(nearMisses(same, who), list, nearMissClass)).toEqual([[], []]);
  });

  it('clear forms: every form for every owner, each carrying the clear id', () => {
    expect.hasAssertions();
    const list = clearCoverage(WHO);
    expect(classes(clearNearMisses(WHO), list, clearClass)).toEqual([[], []]);
    expect(list).toHaveLength(9 * WHO.length);
    const digits = (s: string): string => s.replace(/\D/g, '');
    const wrong = list.filter(
      (n) =>
        digits(clearValue(CUSTOMERS, n)) !== digits(idOf(CUSTOMERS, n.owner)) || clearValue(CUSTOMERS, n).includes('x'),
    );
    expect(wrong).toEqual([]);
  });
});
