/** The fault matrix's per-check coverage (test/matrix/coverage.ts): a check that applies but never fails is named. */
import { describe, expect, it } from 'vitest';
import { catchesOf, coverage, FULL_MATRIX_CASES, type Catch } from '../matrix/coverage.ts';
import { FAULTS } from '../../lib/mock/faults.ts';

const caught = (check: string, verdict = 'fail', reason = 'broke'): Catch => ({ check, verdict, reason });

describe('per-check fault coverage', () => {
  it('names the applicable checks no fault made fail, per check id (not per requirement id)', () => {
    const cases = [
      { fault: 'clean', env: 'sandbox', caught: [], applicable: ['a.one', 'a.two', 'b.three'], matched: [] },
      {
        fault: 'f1',
        env: 'sandbox',
        caught: [caught('a.one')],
        applicable: ['a.one', 'a.two', 'b.three'],
        matched: ['a.one'],
      },
      {
        fault: 'f2',
        env: 'uat',
        caught: [caught('b.three', 'warn', 'weak | key'), caught('a.one')],
        applicable: ['a.one', 'b.three', 'c.uat-only'],
        matched: ['b.three', 'a.one'],
      },
    ];
    const { table, uncovered } = coverage(cases);
    expect(uncovered).toEqual(['a.two', 'c.uat-only']);
    // how each check was made to fail: the fault, its mode, the verdict and the reason (no table breaks)
    expect(table.get('a.one')).toEqual(['f1 (sandbox): fail: broke', 'f2 (uat): fail: broke']);
    expect(table.get('b.three')).toEqual(['f2 (uat): warn: weak \\| key']);
  });
  it('a clean case never counts as a fault that fails a check', () => {
    const { uncovered } = coverage([
      { fault: 'clean', env: 'uat', caught: [caught('x.y')], applicable: ['x.y'], matched: ['x.y'] },
    ]);
    expect(uncovered).toEqual(['x.y']);
  });
  it('only fail, warn and unexpected-pass catch a fault: an error (a crash) or inconclusive is no catch', () => {
    const verdicts = ['fail', 'warn', 'unexpected-pass', 'error', 'inconclusive', 'not-run', 'pass', 'expected-fail'];
    const results = verdicts.map((verdict, i) => ({ checkId: `c.${i}`, verdict, reason: `r${i}` }));
    expect(catchesOf(results)).toEqual([
      { check: 'c.0', verdict: 'fail', reason: 'r0' },
      { check: 'c.1', verdict: 'warn', reason: 'r1' },
      { check: 'c.2', verdict: 'unexpected-pass', reason: 'r2' },
    ]);
  });
  it('a catch names the kinds of its failure records (and the ids a record breaks), the table shows them', () => {
    const record = (kind: 'value' | 'generic', requirements?: string[]) => ({
      kind,
      title: 't',
      message: 'm',
      ...(requirements ? { requirements } : {}),
      ...(kind === 'value' ? { name: 'n' } : {}),
    });
    const results = [
      { checkId: 'a.one', verdict: 'fail', reason: 'r', failures: [record('value'), record('value')] },
      { checkId: 'a.two', verdict: 'warn', reason: 'r', failures: [record('value', ['HARD-02']), record('generic')] },
      // a lone generic record only repeats the reason: no tag
      { checkId: 'a.three', verdict: 'fail', reason: 'r', failures: [record('generic')] },
    ] as Parameters<typeof catchesOf>[0];
    const caughtHere = catchesOf(results);
    expect(caughtHere).toEqual([
      { check: 'a.one', verdict: 'fail', reason: 'r', records: ['value ×2'] },
      { check: 'a.two', verdict: 'warn', reason: 'r', records: ['value {HARD-02}', 'generic'] },
      { check: 'a.three', verdict: 'fail', reason: 'r' },
    ]);
    const { table } = coverage([
      { fault: 'f', env: 'uat', caught: caughtHere, applicable: ['a.one', 'a.two', 'a.three'], matched: [] },
    ]);
    expect(table.get('a.one')).toEqual(['f (uat): fail [value ×2]: r']);
    expect(table.get('a.two')).toEqual(['f (uat): warn [value {HARD-02}, generic]: r']);
    expect(table.get('a.three')).toEqual(['f (uat): fail: r']);
  });
  it('knows how many cases a full matrix runs', () => {
    expect(FULL_MATRIX_CASES).toBe(2 + FAULTS.flatMap((f) => f.environments).length);
  });
});
