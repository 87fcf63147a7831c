/** PASS / FAIL / INCOMPLETE / NOTHING RAN per profile and per run, and the exit code that carries them. */
import { describe, expect, it } from 'vitest';
import type { CheckResult, ProfileRun, RunResults, Verdict } from '../../lib/engine/results.ts';
import { applyWaivers, exitCodeOf, profileVerdict, runVerdict } from '../../lib/engine/verdict.ts';
import { failureLines } from '../../lib/cli/progress.ts';
import { summaryLine } from '../../lib/report/summary.ts';
import { fixtureResults } from '../fixtures/results.ts';

const base = fixtureResults();
const one = (verdict: Verdict, over: Partial<CheckResult> = {}): CheckResult => ({
  checkId: `x.${verdict}`,
  suite: 'x',
  title: verdict,
  requirements: ['XFER-01'],
  level: 'MUST',
  verdict,
  evidence: { exchanges: [], notes: [], tls: [] },
  durationMs: 1,
  ...over,
});
const run = (results: CheckResult[], over: Partial<ProfileRun> = {}): ProfileRun => ({
  ...base.profiles[0]!,
  results,
  errors: [],
  ...over,
});
const runs = (profiles: ProfileRun[], failOn: 'must' | 'should' = 'must'): RunResults => ({
  ...base,
  options: { ...base.options, failOn },
  profiles,
});

describe('verdicts', () => {
  it('every MUST verified and held: PASS, exit 0', () => {
    const r = runs([run([one('pass'), one('not-applicable'), one('warn', { level: 'SHOULD' })])]);
    expect(runVerdict(r)).toBe('PASS');
    expect(exitCodeOf(r)).toBe(0);
  });

  it.each(['not-run', 'inconclusive', 'error'] as const)('a MUST %s and nothing failed: INCOMPLETE, exit 5', (v) => {
    const r = runs([run([one('pass'), one(v)])]);
    expect(profileVerdict(r.profiles[0]!, 'must')).toBe('INCOMPLETE');
    expect(exitCodeOf(r)).toBe(5);
  });

  it('a SHOULD not run or inconclusive counts only with --fail-on should', () => {
    const results = [one('pass'), one('inconclusive', { level: 'SHOULD' })];
    expect(exitCodeOf(runs([run(results)]))).toBe(0);
    expect(exitCodeOf(runs([run(results)], 'should'))).toBe(5);
  });

  it('a failure beats everything: FAIL, exit 1 (also in another profile)', () => {
    const r = runs([run([one('not-run')]), run([one('pass'), one('fail')], { profile: 'b' })]);
    expect(runVerdict(r)).toBe('FAIL');
    expect(exitCodeOf(r)).toBe(1);
    expect(exitCodeOf(runs([run([one('unexpected-pass')])]))).toBe(1);
  });

  it('a waiver excuses a MUST not run or inconclusive, never a failure or a harness error', () => {
    const waivers = [{ id: 'XFER-01', reason: 'shared sandbox: no destructive checks' }];
    const excused = applyWaivers([one('pass'), one('not-run'), one('inconclusive')], waivers);
    expect(excused.filter((x) => x.waived).map((x) => x.verdict)).toEqual(['not-run', 'inconclusive']);
    expect(exitCodeOf(runs([run(excused)]))).toBe(0);
    expect(exitCodeOf(runs([run(applyWaivers([one('pass'), one('fail')], waivers))]))).toBe(1);
    expect(exitCodeOf(runs([run(applyWaivers([one('pass'), one('error')], waivers))]))).toBe(5);
    // by check id too, and only the ids named
    const byCheck = applyWaivers(
      [one('not-run', { checkId: 'quota.a' }), one('not-run', { checkId: 'quota.b' })],
      [{ id: 'quota.a', reason: 'r' }],
    );
    expect(byCheck.map((x) => x.waived)).toEqual(['r', undefined]);
    // waived checks alone verified nothing
    expect(exitCodeOf(runs([run(applyWaivers([one('inconclusive')], waivers))]))).toBe(3);
  });

  it('nothing produced an outcome: NOTHING RAN, exit 3; run errors make it INCOMPLETE', () => {
    expect(exitCodeOf(runs([run([one('not-run'), one('not-applicable')])]))).toBe(3);
    expect(exitCodeOf(runs([run([one('pass')], { errors: ['the conformance run failed: x'] })]))).toBe(5);
  });

  it('a target unreachable: UNREACHABLE, exit 4 unless something failed', () => {
    const down = run([], { unreachable: 'connect ECONNREFUSED 127.0.0.1:1' });
    expect(profileVerdict(down, 'must')).toBe('UNREACHABLE');
    expect(exitCodeOf(runs([down]))).toBe(4);
    expect(exitCodeOf(runs([down, run([one('fail')], { profile: 'b' })]))).toBe(1);
    expect(summaryLine(down, 'must')).toMatch(/target unreachable — UNREACHABLE$/);
    expect(failureLines(runs([down]))[0]).toMatch(/target unreachable: connect ECONNREFUSED/);
  });
});

describe('INTERRUPTED', () => {
  it('a run stopped by a signal is INTERRUPTED (exit 130 on SIGINT, 143 on SIGTERM); a profile done before keeps its verdict', () => {
    const done = run([one('pass')]);
    const stopped = run([one('pass')], {
      profile: 'stopped',
      interrupted: 'SIGTERM',
      errors: ['interrupted by SIGTERM'],
    });
    const r = { ...runs([done, stopped]), interrupted: { signal: 'SIGTERM', at: '2026-01-01T00:00:00.000Z' } };
    expect(profileVerdict(done, 'must')).toBe('PASS');
    expect(profileVerdict(stopped, 'must')).toBe('INTERRUPTED');
    expect(runVerdict(r)).toBe('INTERRUPTED');
    expect(exitCodeOf(r)).toBe(143);
    expect(exitCodeOf({ ...r, interrupted: { signal: 'SIGINT', at: r.interrupted.at } })).toBe(130);
    expect(summaryLine(stopped, 'must')).toMatch(/— INTERRUPTED$/);
  });
});
