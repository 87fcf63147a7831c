/**
 * The near-miss masks the masking property sends are never a mask the rule gives to any customer's id: another
 * customer's exact mask is a well-formed mask (an unbound internal token may act on that customer, and the target
 * then judges the beneficiary, not the mask), so it is no near miss and proves nothing either way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../lib/profile/schema.ts';
import { nearMissValue, owners } from '../../suites/masking/near-miss.ts';
import { nearMisses } from '../../suites/masking/near-miss-arb.ts';

// ids written out (not masked here): two customers whose ids differ only in their kept parts, so "another
// customer's kept head, then its kept tail" rebuilds the other one's exact mask
const customers: Customer[] = [
  {
    name: 'A',
    uuid: 'a',
    accountId: '1111222233334',
    emiratesId: '784111122223333',
    beneficiaryId: 'B1',
    workflow: false,
  },
  {
    name: 'B',
    uuid: 'b',
    accountId: '5555222233666',
    emiratesId: '784955552222666',
    beneficiaryId: 'B2',
    workflow: false,
  },
];
const EXACT = new Set(['1111xxxxxx334', '5555xxxxxx666', '7841xxxxxxxx333', '7849xxxxxxxx666']);

describe('near-miss masks', () => {
  it("never send any customer's exact mask", () => {
    const who = owners(customers, [0, 1]);
    // the edit that rebuilds the other customer's mask is sent on purpose, beside what the search draws
    const other = nearMissValue(customers, {
      owner: { customer: 0, id: 'account' },
      edits: [
        { op: 'other', end: 'head', who: 0 },
        { op: 'other', end: 'tail', who: 0 },
      ],
    });
    expect(other).toBe('5555xxxxxx666');
    const drawn = fc.sample(nearMisses(customers, who), { numRuns: 3000, seed: 7 });
    expect(drawn).toHaveLength(3000);
    const exact = drawn.map((n) => nearMissValue(customers, n)).filter((v) => EXACT.has(v));
    expect(exact).toEqual([]);
  });
});
