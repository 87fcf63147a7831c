/**
 * The fault matrix's judgement of a fault case (test/matrix/judge.ts): a fault is caught by the check expected.ts names
 * for it, for its reason; a check of its ids that caught it otherwise is listed; a fault without an expectation fails.
 */
import { describe, expect, it } from 'vitest';
import { expectationProblems, judgeFault, type JudgedResult } from '../matrix/judge.ts';
import { coverage, otherReasons, type CaseRecord } from '../matrix/coverage.ts';

const fault = { id: 'f-broken', requirements: ['R-1'] };
const result = (checkId: string, verdict: string, reason: string, more: Partial<JudgedResult> = {}): JudgedResult => ({
  checkId,
  verdict,
  reason,
  level: 'MUST',
  requirements: ['R-1'],
  ...more,
});

describe('judging a fault case by its expectations', () => {
  it('passes when the expected check fails with a reason holding the fragment', () => {
    const j = judgeFault(
      fault,
      'uat',
      [result('s.one', 'fail', 'a clear id: accepted (HTTP 200)'), result('s.two', 'pass', '')],
      [{ check: 's.one', reason: 'accepted (HTTP 200)' }],
    );
    expect(j).toEqual({ unmet: [], matched: ['s.one'], otherReason: [] });
  });

  it('a SHOULD catches by warning; a MUST that only warns does not', () => {
    const should = judgeFault(
      fault,
      'uat',
      [result('s.one', 'warn', 'weak', { level: 'SHOULD' })],
      [{ check: 's.one', reason: 'weak' }],
    );
    expect(should.matched).toEqual(['s.one']);
    const must = judgeFault(fault, 'uat', [result('s.one', 'warn', 'weak')], [{ check: 's.one', reason: 'weak' }]);
    expect(must.unmet).toEqual(['s.one: expected fail with a reason holding "weak", observed warn: weak']);
  });

  it('the expected check failing for another reason fails the case and is listed with the fragment it lacked', () => {
    const j = judgeFault(
      fault,
      'sandbox',
      [result('s.one', 'fail', 'positive control: HTTP 429')],
      [{ check: 's.one', reason: 'accepted (HTTP 200)' }],
    );
    expect(j.unmet).toEqual([
      's.one: expected fail with a reason holding "accepted (HTTP 200)", observed fail: positive control: HTTP 429',
    ]);
    expect(j.otherReason).toEqual([
      { check: 's.one', verdict: 'fail', reason: 'positive control: HTTP 429', expected: 'accepted (HTTP 200)' },
    ]);
  });

  it("lists another check of the fault's ids that caught it, but no check of other ids nor a pass or an error", () => {
    const j = judgeFault(
      fault,
      'uat',
      [
        result('s.one', 'fail', 'accepted'),
        result('s.two', 'fail', 'blocked by a 500'),
        result('s.three', 'fail', 'other id', { requirements: ['R-2'] }),
        // a check of several ids whose failure broke another id only
        result('s.four', 'fail', 'R-2 broken', { requirements: ['R-1', 'R-2'], failed: ['R-2'] }),
        result('s.five', 'error', 'crashed'),
        result('s.six', 'inconclusive', 'no control'),
      ],
      [{ check: 's.one', reason: 'accepted' }],
    );
    expect(j.unmet).toEqual([]);
    expect(j.otherReason).toEqual([{ check: 's.two', verdict: 'fail', reason: 'blocked by a 500' }]);
  });

  it('an expected check that did not run is unmet, naming it', () => {
    const j = judgeFault(fault, 'uat', [], [{ check: 's.gone', reason: 'x' }]);
    expect(j.unmet).toEqual([
      's.gone: expected to catch the fault, but it did not run (unknown check id, or not selected)',
    ]);
  });

  it('a fault without an expectation (or none in its mode) is unmet, saying what to add and where', () => {
    const message =
      'fault f-broken (uat) has no expectation: add it to test/matrix/expected.ts: check + reason fragment ' +
      '(the check of R-1 that must catch it, and a fragment of its failure reason)';
    expect(judgeFault(fault, 'uat', [result('s.one', 'fail', 'x')], undefined).unmet).toEqual([message]);
    const sandboxOnly = [{ check: 's.one', reason: 'x', env: 'sandbox' as const }];
    expect(judgeFault(fault, 'uat', [result('s.one', 'fail', 'x')], sandboxOnly).unmet).toEqual([message]);
    expect(judgeFault(fault, 'sandbox', [result('s.one', 'fail', 'x')], sandboxOnly).matched).toEqual(['s.one']);
  });
});

describe('the expectation table', () => {
  const checks = [
    { id: 's.one', requirements: ['R-1'] },
    { id: 's.two', requirements: ['R-2'] },
  ];
  const faults = [{ id: 'f-a', requirements: ['R-1', 'R-2', 'R-3'], environments: ['sandbox', 'uat'] as const }];
  // R-3 applies in UAT only
  const applies = (id: string, env: string): boolean => id !== 'R-3' || env === 'uat';

  it('names each problem: a missing fault, an unknown or unrelated check, a blank fragment, an id no check names, a stale entry', () => {
    const problems = expectationProblems(
      [...faults, { id: 'f-new', requirements: ['R-1'], environments: ['uat'] }],
      {
        'f-a': [
          { check: 's.one', reason: 'accepted' },
          { check: 's.two', reason: ' ' },
          { check: 's.nope', reason: 'x' },
        ],
        'f-gone': [{ check: 's.one', reason: 'x' }],
      },
      [...checks, { id: 's.other', requirements: ['R-9'] }],
      applies,
    );
    expect(problems).toEqual([
      'test/matrix/expected.ts names f-gone, which is not a mock fault',
      'f-a (sandbox): s.two: the reason fragment is blank',
      'f-a (sandbox): s.nope is not a check id',
      'f-a (uat): s.two: the reason fragment is blank',
      'f-a (uat): s.nope is not a check id',
      'f-a (uat): no expected check of R-3 (add one to test/matrix/expected.ts)',
      'fault f-new (uat) has no expectation: add it to test/matrix/expected.ts: check + reason fragment (the check of R-1 that must catch it, and a fragment of its failure reason)',
    ]);
  });

  it('a check that names none of the fault ids is refused', () => {
    const problems = expectationProblems(
      [{ id: 'f-b', requirements: ['R-1'], environments: ['uat'] }],
      { 'f-b': [{ check: 's.two', reason: 'x' }] },
      checks,
      applies,
    );
    expect(problems).toEqual([
      'f-b (uat): s.two [R-2] names none of R-1',
      'f-b (uat): no expected check of R-1 (add one to test/matrix/expected.ts)',
    ]);
  });
});

describe('coverage counts a check made to fail as expected only', () => {
  const base = { env: 'uat', applicable: ['s.one', 's.two'] };
  const cases: CaseRecord[] = [
    { ...base, fault: 'f-1', caught: [{ check: 's.one', verdict: 'fail', reason: 'r' }], matched: ['s.one'] },
    {
      ...base,
      fault: 'f-2',
      caught: [{ check: 's.two', verdict: 'fail', reason: 'control: HTTP 429' }],
      matched: [],
      otherReason: [{ check: 's.two', verdict: 'fail', reason: 'control: HTTP 429' }],
    },
  ];
  it('a check caught only for another reason is uncovered, and the catch is listed', () => {
    expect(coverage(cases).uncovered).toEqual(['s.two']);
    expect(otherReasons(cases)).toEqual([
      { fault: 'f-2 (uat)', catch: { check: 's.two', verdict: 'fail', reason: 'control: HTTP 429' } },
    ]);
  });
});
