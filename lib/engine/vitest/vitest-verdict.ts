/**
 * The Vitest entry's reading of a whole run (lib/engine/vitest/vitest-global-setup.ts), certify's: its verdict from the
 * tests' results (each test's meta: the check's result, the prerequisites as established, a harness error) and the
 * exit code certify gives it (verdict.ts): 1 FAIL, 3 NOTHING RAN (every selected check not applicable or not run, or
 * waived: verdict.ts ranAny), 4 UNREACHABLE, 5 INCOMPLETE, never Vitest's 1 for all of them alike.
 */
import type { CheckResult, PrerequisiteResult } from '../results.ts';
import { exitCodeOfVerdict, profileVerdict, ranAny, type ExitCode, type ProfileVerdict } from '../verdict.ts';

/** why the run verified nothing (certify: NOTHING RAN, exit 3), or undefined when some check ran */
export function nothingRan(results: readonly (CheckResult | undefined)[]): string | undefined {
  const known = results.filter((r): r is CheckResult => r !== undefined);
  if (ranAny(known)) return undefined;
  const first = known[0];
  const example = first ? `; e.g. ${first.checkId}: ${first.verdict}: ${first.reason ?? ''}` : '';
  return (
    `NOTHING RAN: none of the ${results.length} selected checks applies to this target or was run` +
    ` (certify says NOTHING RAN, exit 3)${example}`
  );
}

/** the prerequisites of the run as a test saw them once all were established (a test's meta) */
export interface EntryPrerequisites {
  verdicts: { id: string; verdict: PrerequisiteResult['verdict'] }[];
  /** why the target cannot be reached at all (prerequisites.ts Established.unreachable) */
  unreachable?: string;
}

/** what one test of the entry left: its check's result, the prerequisites, or the harness error it met instead */
export interface EntryTest {
  name: string;
  /** the test ran and failed (Vitest's state) */
  failed: boolean;
  result?: CheckResult;
  prerequisites?: EntryPrerequisites;
}

/**
 * certify's verdict of the tests' results, and its exit code (`--fail-on must`, as the entry judges). A test that
 * failed without a check's result met a harness error (the prerequisites could not be established, a time limit, a
 * suite file that does not load): certify's run error, INCOMPLETE unless something failed.
 */
export function entryVerdict(
  tests: readonly EntryTest[],
  moduleErrors: readonly string[] = [],
): { verdict: ProfileVerdict; code: ExitCode; reason?: string } {
  const results = tests.flatMap((t) => (t.result ? [t.result] : []));
  const errors = [
    ...moduleErrors,
    ...tests.filter((t) => t.failed && !t.result).map((t) => `${t.name}: failed without a verdict (a harness error)`),
  ];
  const seen = tests.find((t) => t.prerequisites)?.prerequisites;
  const verdict = profileVerdict(
    {
      results,
      errors,
      ...(seen ? { prerequisites: seen.verdicts } : {}),
      ...(seen?.unreachable !== undefined ? { unreachable: seen.unreachable } : {}),
    },
    'must',
  );
  const reason =
    verdict === 'NOTHING RAN'
      ? nothingRan(tests.map((t) => t.result))
      : verdict === 'UNREACHABLE'
        ? `UNREACHABLE: ${seen?.unreachable ?? ''} (certify says UNREACHABLE, exit 4)`
        : verdict === 'INCOMPLETE'
          ? `INCOMPLETE: ${errors[0] ?? 'a MUST that applies was not verified and is not waived'} (certify says INCOMPLETE, exit 5)`
          : undefined;
  return { verdict, code: exitCodeOfVerdict(verdict), ...(reason ? { reason } : {}) };
}
