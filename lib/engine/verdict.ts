/**
 * The verdict of a profile and of a run, and the exit code that carries it. One place, so that the console, the
 * reports and the exit code never disagree.
 *
 *  FAIL         the target broke a rule: a MUST failed (a SHOULD too with --fail-on should), or a known deviation
 *               now holds (the deviation list is stale)
 *  INCOMPLETE   nothing failed, but a rule that counts (MUST; SHOULD too with --fail-on should) was not verified:
 *               not run, inconclusive or a harness error, unless the profile waives its id with a reason; or the
 *               run itself hit errors, or the target could not be reached
 *  NOTHING RAN  no check produced an outcome (all not applicable or not run), and nothing went wrong
 *  PASS         every rule that counts and applies was verified and held (waived ones are listed in the report)
 *  INTERRUPTED  the run was stopped by SIGINT or SIGTERM before it ended (exit 130 or 143): the reports hold what
 *               was verified until then; a profile that had ended before keeps its own verdict
 */
import type { CheckResult, PrerequisiteResult, ProfileRun, RunResults } from './results.ts';

export type ProfileVerdict = 'PASS' | 'FAIL' | 'UNREACHABLE' | 'INCOMPLETE' | 'NOTHING RAN' | 'INTERRUPTED';
export type FailOn = 'must' | 'should';

/** the target broke a rule that fails the run */
export function breaksRule(r: CheckResult, failOn: FailOn): boolean {
  return r.verdict === 'fail' || r.verdict === 'unexpected-pass' || (failOn === 'should' && r.verdict === 'warn');
}

/** a rule that counts was not verified (and is not waived): the run cannot be PASS */
export function unverified(r: CheckResult, failOn: FailOn): boolean {
  if (r.level !== 'MUST' && failOn !== 'should') return false;
  if (r.verdict === 'error') return true;
  return (r.verdict === 'not-run' || r.verdict === 'inconclusive') && r.waived === undefined;
}

/** some check produced an outcome; a waived check verified nothing: a run of waived checks only ran nothing */
export function ranAny(results: readonly CheckResult[]): boolean {
  return results.some((r) => r.verdict !== 'not-run' && r.verdict !== 'not-applicable' && !r.waived);
}

/** what a profile's verdict is read from: its run (certify), or what the Vitest entry gathered of it (vitest-verdict.ts) */
export type VerdictInputs = Pick<ProfileRun, 'results' | 'errors' | 'unreachable' | 'interrupted'> & {
  prerequisites?: readonly Pick<PrerequisiteResult, 'verdict'>[];
};

export function profileVerdict(run: VerdictInputs, failOn: FailOn): ProfileVerdict {
  if (run.interrupted !== undefined) return 'INTERRUPTED';
  if (run.results.some((r) => breaksRule(r, failOn))) return 'FAIL';
  // a prerequisite the target answered but did not meet (a token refused, a response that does not open, a handshake
  // refused for the server certificate: TLS-05) is a failure; one that could not connect at all, no TCP or TLS
  // answer, is the unreachable headline (exit 4)
  if (!run.unreachable && run.prerequisites?.some((q) => q.verdict === 'fail')) return 'FAIL';
  if (run.unreachable) return 'UNREACHABLE';
  if (run.errors.length > 0) return 'INCOMPLETE';
  if (!ranAny(run.results)) return 'NOTHING RAN';
  return run.results.some((r) => unverified(r, failOn)) ? 'INCOMPLETE' : 'PASS';
}

export function runVerdict(results: RunResults): ProfileVerdict {
  if (results.interrupted) return 'INTERRUPTED';
  const vs = results.profiles.map((p) => profileVerdict(p, results.options.failOn));
  if (vs.includes('FAIL')) return 'FAIL';
  if (vs.includes('UNREACHABLE')) return 'UNREACHABLE';
  if (vs.includes('INCOMPLETE')) return 'INCOMPLETE';
  if (vs.length === 0 || vs.every((v) => v === 'NOTHING RAN')) return 'NOTHING RAN';
  return 'PASS';
}

/**
 * 0 PASS, 1 FAIL, 3 NOTHING RAN, 4 a target was unreachable (and nothing failed), 5 INCOMPLETE, 130 INTERRUPTED by
 * SIGINT, 143 INTERRUPTED by SIGTERM (the shell's 128 + signal number).
 * (2, a configuration error, is decided before any traffic and never reaches here.)
 */
export type ExitCode = 0 | 1 | 2 | 3 | 4 | 5 | 130 | 143;
export function exitCodeOf(results: RunResults): ExitCode {
  if (results.interrupted) return results.interrupted.signal === 'SIGINT' ? 130 : 143;
  return exitCodeOfVerdict(runVerdict(results));
}

/** the exit code of a verdict (INTERRUPTED: SIGINT's; exitCodeOf reads the signal of a run) */
export function exitCodeOfVerdict(verdict: ProfileVerdict): ExitCode {
  if (verdict === 'INTERRUPTED') return 130;
  if (verdict === 'FAIL') return 1;
  if (verdict === 'UNREACHABLE') return 4;
  if (verdict === 'INCOMPLETE') return 5;
  return verdict === 'NOTHING RAN' ? 3 : 0;
}

/** the profile's waivers, on the results they excuse (a not-run or inconclusive check naming a waived id) */
export function applyWaivers(
  results: CheckResult[],
  waivers: readonly { id: string; reason: string }[] | undefined,
): CheckResult[] {
  if (!waivers?.length) return results;
  return results.map((r) => {
    if (r.verdict !== 'not-run' && r.verdict !== 'inconclusive') return r;
    const w = waivers.find((w) => w.id === r.checkId || r.requirements.includes(w.id.toUpperCase()));
    return w ? { ...r, waived: w.reason } : r;
  });
}
