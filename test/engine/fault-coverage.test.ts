/** The fault matrix's per-check coverage (test/matrix/coverage.ts): a check that applies but never fails is named. */
import { describe, expect, it } from 'vitest';
import { coverage, FULL_MATRIX_CASES } from '../matrix/coverage.ts';
import { FAULTS } from '../../lib/mock/faults.ts';

describe('per-check fault coverage', () => {
  it('names the applicable checks no fault made fail, per check id (not per requirement id)', () => {
    const cases = [
      { fault: 'clean', env: 'sandbox', broken: [], applicable: ['a.one', 'a.two', 'b.three'] },
      { fault: 'f1', env: 'sandbox', broken: ['a.one'], applicable: ['a.one', 'a.two', 'b.three'] },
      { fault: 'f2', env: 'uat', broken: ['b.three', 'a.one'], applicable: ['a.one', 'b.three', 'c.uat-only'] },
    ];
    const { table, uncovered } = coverage(cases);
    expect(uncovered).toEqual(['a.two', 'c.uat-only']);
    expect(table.get('a.one')).toEqual(['f1 (sandbox)', 'f2 (uat)']);
  });
  it('a clean case never counts as a fault that fails a check', () => {
    const { uncovered } = coverage([{ fault: 'clean', env: 'uat', broken: ['x.y'], applicable: ['x.y'] }]);
    expect(uncovered).toEqual(['x.y']);
  });
  it('knows how many cases a full matrix runs', () => {
    expect(FULL_MATRIX_CASES).toBe(2 + FAULTS.flatMap((f) => f.environments).length);
  });
});
