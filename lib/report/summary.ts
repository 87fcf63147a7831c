/**
 * Shared arithmetic over results: verdict labels, counts, the verdict of a profile and its one-line
 * summary. JUnit, HTML, the progress printer and compare all use these so that they never disagree.
 */
import { profileVerdict, runVerdict, type ProfileVerdict } from '../engine/verdict.ts';
import { VerdictSchema } from './results-schema.ts';
import type { CheckResult, ProfileRun, Verdict } from '../engine/results.ts';

/** every verdict, in the order reports list them (the results schema's enum is the one list) */
export const VERDICTS: readonly Verdict[] = VerdictSchema.options;

/** Words a reader of the certification report sees. */
export const VERDICT_LABEL: Record<Verdict, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warning',
  'not-applicable': 'not applicable',
  'not-run': 'not run',
  inconclusive: 'inconclusive',
  'expected-fail': 'expected failure',
  'unexpected-pass': 'unexpected pass',
  error: 'harness error',
};

/**
 * Worst first: when several checks name one requirement, the matrix cell shows the worst of them.
 * A requirement with one passing and one not-run check is not fully verified, so not-run ranks above pass.
 */
const SEVERITY: Verdict[] = [
  'error',
  'fail',
  'unexpected-pass',
  'warn',
  'inconclusive',
  'expected-fail',
  'not-run',
  'pass',
  'not-applicable',
];
export function worstVerdict(verdicts: readonly Verdict[]): Verdict | undefined {
  let best: Verdict | undefined;
  for (const v of verdicts) if (best === undefined || SEVERITY.indexOf(v) < SEVERITY.indexOf(best)) best = v;
  return best;
}

export type Counts = Record<Verdict, number>;
export function countVerdicts(results: readonly CheckResult[]): Counts {
  const c = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Counts;
  for (const r of results) c[r.verdict]++;
  return c;
}

// the verdicts are decided in the engine (lib/engine/verdict.ts), with the exit code; reports only show them
export { profileVerdict, runVerdict, type ProfileVerdict };

/** "mock-uat: 58 passed, 0 failed, 2 warnings, 3 not run, 1 n/a — PASS" (rarer outcomes appended when present). */
export function summaryLine(run: ProfileRun, failOn: 'must' | 'should'): string {
  const c = countVerdicts(run.results);
  const parts = [
    `${c.pass} passed`,
    `${c.fail} failed`,
    `${c.warn} ${c.warn === 1 ? 'warning' : 'warnings'}`,
    `${c['not-run']} not run`,
    `${c['not-applicable']} n/a`,
  ];
  if (c.inconclusive) parts.push(`${c.inconclusive} inconclusive`);
  if (c['expected-fail'])
    parts.push(`${c['expected-fail']} expected ${c['expected-fail'] === 1 ? 'failure' : 'failures'}`);
  if (c['unexpected-pass'])
    parts.push(`${c['unexpected-pass']} unexpected ${c['unexpected-pass'] === 1 ? 'pass' : 'passes'}`);
  if (c.error) parts.push(`${c.error} harness ${c.error === 1 ? 'error' : 'errors'}`);
  const waived = run.results.filter((r) => r.waived !== undefined).length;
  if (waived) parts.push(`${waived} waived`);
  if (run.unreachable) parts.push('target unreachable');
  if (run.errors.length) parts.push(`${run.errors.length} run ${run.errors.length === 1 ? 'error' : 'errors'}`);
  const failedPre = (run.prerequisites ?? []).filter((q) => q.verdict === 'fail').map((q) => q.id);
  if (failedPre.length) parts.push(`prerequisite failed: ${failedPre.join(', ')}`);
  // a gateway throttled the run (lib/engine/session/throttle/throttle.ts): what stayed unverified may be its doing
  const t = run.traffic?.throttle;
  if (t) parts.push(`throttled by a gateway ${t.throttled} times${t.gaveUp ? ` (${t.gaveUp} calls gave up)` : ''}`);
  return `${run.profile}: ${parts.join(', ')} — ${profileVerdict(run, failOn)}`;
}

/** Suites in first-seen order, each with its results. */
export function bySuite(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const m = new Map<string, CheckResult[]>();
  for (const r of results) {
    const list = m.get(r.suite);
    if (list) list.push(r);
    else m.set(r.suite, [r]);
  }
  return m;
}
