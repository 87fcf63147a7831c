/**
 * The fault matrix's judgement of one fault case against its expectations (expected.ts), and the checks of the
 * expectation table itself. Pure functions of results and data: unit-tested in test/engine/fault-expected.test.ts.
 */
import type { Environment } from '../../lib/profile/schema.ts';
import { failureText, type Failure } from '../../lib/engine/failure.ts';
import type { Expectation } from './expected.ts';
import { CATCHES, recordTags } from './coverage.ts';

/** what the judgement reads of a check result */
export interface JudgedResult {
  checkId: string;
  verdict: string;
  reason?: string | undefined;
  level: string;
  requirements: readonly string[];
  /** the ids a failure broke, when fewer than `requirements` */
  failed?: readonly string[] | undefined;
  /** what the failure found wrong, as records (lib/engine/failure.ts) */
  failures?: readonly Failure[] | undefined;
}

/** a check of the fault's ids that caught it, but not as expected (another check, or another reason) */
export interface OtherReason {
  check: string;
  verdict: string;
  reason: string;
  /** the kinds of its failure records (coverage.ts recordTags) */
  records?: string[];
  /** the fragment expected of this check, if it is one of the fault's expected checks */
  expected?: string;
}

export interface Judgement {
  /** expectations not met, one line each (what was expected, what the check said): the case fails */
  unmet: string[];
  /** the checks that caught the fault as expected */
  matched: string[];
  /** checks of the fault's ids that caught it otherwise (.tmp/fault-coverage.md lists them) */
  otherReason: OtherReason[];
}

/** the line a fault without an expectation fails with */
export function missingExpectation(fault: string, ids: readonly string[], env: Environment): string {
  return (
    `fault ${fault} (${env}) has no expectation: add it to test/matrix/expected.ts: check + reason fragment ` +
    `(the check of ${ids.join(' ')} that must catch it, and a fragment of its failure reason)`
  );
}

/** the expectations of a fault in a mode (undefined: the fault has no entry) */
export function expectationsIn(
  expected: readonly Expectation[] | undefined,
  env: Environment,
): readonly Expectation[] | undefined {
  return expected?.filter((e) => e.env === undefined || e.env === env);
}

/** the verdict a check must end with to catch a fault: a MUST fails, a SHOULD warns */
export const catchVerdict = (level: string): string => (level === 'SHOULD' ? 'warn' : 'fail');

/**
 * A fault case: each expected check must end `fail` (a MUST) or `warn` (a SHOULD) with a reason holding its fragment;
 * every other catch by a check of the fault's ids (or an expected check's catch for another reason) is listed.
 */
export function judgeFault(
  fault: { id: string; requirements: readonly string[] },
  env: Environment,
  results: readonly JudgedResult[],
  expected: readonly Expectation[] | undefined,
): Judgement {
  const mine = expectationsIn(expected, env);
  const unmet: string[] = [];
  const matched: string[] = [];
  if (!mine || mine.length === 0) unmet.push(missingExpectation(fault.id, fault.requirements, env));
  const byId = new Map(results.map((r) => [r.checkId, r] as const));
  for (const e of mine ?? []) {
    const r = byId.get(e.check);
    if (!r) {
      unmet.push(`${e.check}: expected to catch the fault, but it did not run (unknown check id, or not selected)`);
      continue;
    }
    const want = catchVerdict(r.level);
    const why = r.verdict === want ? causeOf(r, e.reason, fault.requirements) : undefined;
    if (why === 'caught') matched.push(e.check);
    else
      unmet.push(
        why === 'other-rule'
          ? `${e.check}: the failure holding "${e.reason}" breaks ${idsOf(r, e.reason).join(' ')}, none of ${fault.requirements.join(' ')}`
          : `${e.check}: expected ${want} with a reason holding "${e.reason}", observed ${r.verdict}: ${r.reason ?? ''}`,
      );
  }
  const fragment = new Map((mine ?? []).map((e) => [e.check, e.reason] as const));
  const otherReason = results
    .filter((r) => CATCHES.has(r.verdict) && !matched.includes(r.checkId))
    .filter((r) => (r.failed ?? r.requirements).some((id) => fault.requirements.includes(id)))
    .map((r): OtherReason => {
      const records = recordTags(r);
      const k: OtherReason = {
        check: r.checkId,
        verdict: r.verdict,
        reason: r.reason ?? '',
        ...(records.length ? { records } : {}),
      };
      const f = fragment.get(r.checkId);
      return f === undefined ? k : { ...k, expected: f };
    });
  return { unmet, matched, otherReason };
}

/** the records of a result whose text (title, message, case, observed) holds `fragment` */
const recordsHolding = (r: JudgedResult, fragment: string): readonly Failure[] =>
  (r.failures ?? []).filter((f) => failureText(f).some((t) => t.includes(fragment)));

/** the ids the records holding `fragment` break (a record without its own: the result's failed ids, or all) */
const idsOf = (r: JudgedResult, fragment: string): string[] => [
  ...new Set(recordsHolding(r, fragment).flatMap((f) => f.requirements ?? r.failed ?? r.requirements)),
];

/**
 * Did a failing result catch the fault for the expected cause? Read from its failure records where one holds the
 * fragment: caught when that record breaks one of the fault's ids ('other-rule' when it breaks only others); with
 * no such record, from the reason's text.
 */
export function causeOf(
  r: JudgedResult,
  fragment: string,
  faultIds: readonly string[],
): 'caught' | 'other-rule' | 'not-caught' {
  if (recordsHolding(r, fragment).length > 0)
    return idsOf(r, fragment).some((id) => faultIds.includes(id)) ? 'caught' : 'other-rule';
  return (r.reason ?? '').includes(fragment) ? 'caught' : 'not-caught';
}

/** a check as the table's lint sees it: its id and requirement ids */
export interface KnownCheck {
  id: string;
  requirements: readonly string[];
}

/**
 * The expectation table against the faults and checks: each fault has an entry for each of its modes; each entry
 * names a known check of one of the fault's ids, with a non-blank fragment; together an entry's checks name every id
 * of the fault that applies in that mode; no entry names a fault that does not exist. One line per problem.
 */
export function expectationProblems(
  faults: readonly { id: string; requirements: readonly string[]; environments: readonly Environment[] }[],
  table: Readonly<Record<string, readonly Expectation[]>>,
  checks: readonly KnownCheck[],
  applies: (id: string, env: Environment) => boolean,
): string[] {
  const problems: string[] = [];
  const checkById = new Map(checks.map((k) => [k.id, k] as const));
  const faultIds = new Set(faults.map((f) => f.id));
  for (const name of Object.keys(table))
    if (!faultIds.has(name)) problems.push(`test/matrix/expected.ts names ${name}, which is not a mock fault`);
  for (const f of faults) {
    for (const env of f.environments) {
      const mine = expectationsIn(table[f.id], env);
      if (!mine || mine.length === 0) {
        problems.push(missingExpectation(f.id, f.requirements, env));
        continue;
      }
      for (const e of mine) {
        const k = checkById.get(e.check);
        if (!k) problems.push(`${f.id} (${env}): ${e.check} is not a check id`);
        else if (!k.requirements.some((id) => f.requirements.includes(id)))
          problems.push(
            `${f.id} (${env}): ${e.check} [${k.requirements.join(' ')}] names none of ${f.requirements.join(' ')}`,
          );
        if (e.reason.trim() === '') problems.push(`${f.id} (${env}): ${e.check}: the reason fragment is blank`);
      }
      const named = new Set(mine.flatMap((e) => checkById.get(e.check)?.requirements ?? []));
      const unnamed = f.requirements.filter((id) => applies(id, env) && !named.has(id));
      if (unnamed.length > 0)
        problems.push(
          `${f.id} (${env}): no expected check of ${unnamed.join(' ')} (add one to test/matrix/expected.ts)`,
        );
    }
  }
  return problems;
}
