/**
 * The conformance Vitest entry's verdict and exit code (lib/engine/vitest/vitest-verdict.ts) are certify's
 * (lib/engine/verdict.ts, README's exit code table), read from what its tests left: 1 FAIL, 3 NOTHING RAN,
 * 4 UNREACHABLE, 5 INCOMPLETE, 0 PASS. The expected codes are the table's, written out here.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lib/engine/results.ts';
import { entryVerdict, type EntryPrerequisites, type EntryTest } from '../../lib/engine/vitest/vitest-verdict.ts';

const result = (verdict: CheckResult['verdict'], level: 'MUST' | 'SHOULD' = 'MUST', waived?: string): CheckResult =>
  ({
    checkId: 'x.y',
    requirements: ['X-01'],
    level,
    verdict,
    reason: 'why',
    ...(waived ? { waived } : {}),
  }) as CheckResult;
const test = (r: CheckResult | undefined, prerequisites?: EntryPrerequisites, failed = false): EntryTest => ({
  name: 'X-01 a check',
  failed,
  ...(r ? { result: r } : {}),
  ...(prerequisites ? { prerequisites } : {}),
});
const held: EntryPrerequisites = { verdicts: [{ id: 'reach-api', verdict: 'pass' }] };

describe('the Vitest entry exits as certify does', () => {
  it('PASS 0; a broken SHOULD only warns (--fail-on must): 0', () => {
    expect(entryVerdict([test(result('pass'), held), test(result('warn', 'SHOULD'), held)])).toEqual({
      verdict: 'PASS',
      code: 0,
    });
  });

  it('a MUST broken: FAIL, 1 (before any MUST left unverified)', () => {
    expect(entryVerdict([test(result('fail')), test(result('inconclusive'))]).code).toBe(1);
    expect(entryVerdict([test(result('unexpected-pass'))]).code).toBe(1);
  });

  it('a MUST inconclusive, not run or in error, unwaived: INCOMPLETE, 5, with the reason', () => {
    for (const v of ['inconclusive', 'not-run', 'error'] as const) {
      const e = entryVerdict([test(result('pass'), held), test(result(v), held)]);
      expect(e).toMatchObject({ verdict: 'INCOMPLETE', code: 5 });
      expect(e.reason).toMatch(/^INCOMPLETE: .*\(certify says INCOMPLETE, exit 5\)$/);
    }
    // waived by the profile, or a SHOULD: PASS
    expect(entryVerdict([test(result('pass')), test(result('inconclusive', 'MUST', 'by the bank'))]).code).toBe(0);
    expect(entryVerdict([test(result('pass')), test(result('inconclusive', 'SHOULD'))]).code).toBe(0);
  });

  it('a test that failed without a verdict (a harness error), or a suite file that did not load: INCOMPLETE, 5', () => {
    const e = entryVerdict([test(result('pass')), test(undefined, undefined, true)]);
    expect(e).toMatchObject({ verdict: 'INCOMPLETE', code: 5 });
    expect(e.reason).toMatch(/X-01 a check: failed without a verdict \(a harness error\)/);
    expect(entryVerdict([test(result('pass'))], ['suites/x/x.check.ts: SyntaxError']).code).toBe(5);
  });

  it('the target never answered (a prerequisite could not connect), nothing failed: UNREACHABLE, 4', () => {
    const down: EntryPrerequisites = {
      verdicts: [{ id: 'tls-handshake', verdict: 'fail' }],
      unreachable: 'tls-handshake: no TCP connection: ECONNREFUSED',
    };
    const e = entryVerdict([test(result('inconclusive'), down), test(result('not-applicable'), down)]);
    expect(e).toEqual({
      verdict: 'UNREACHABLE',
      code: 4,
      reason: 'UNREACHABLE: tls-handshake: no TCP connection: ECONNREFUSED (certify says UNREACHABLE, exit 4)',
    });
  });

  it('a prerequisite the target answered but did not meet: FAIL, 1', () => {
    const refused: EntryPrerequisites = { verdicts: [{ id: 'client-credentials-token', verdict: 'fail' }] };
    expect(entryVerdict([test(result('inconclusive'), refused)]).code).toBe(1);
  });

  it('nothing ran: NOTHING RAN, 3, with a check’s reason', () => {
    const e = entryVerdict([test(result('not-applicable')), test(undefined)]);
    expect(e.code).toBe(3);
    expect(e.reason).toMatch(
      /^NOTHING RAN: none of the 2 selected checks applies .*; e\.g\. x\.y: not-applicable: why$/,
    );
  });
});
