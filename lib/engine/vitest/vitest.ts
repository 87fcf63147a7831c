/**
 * Vitest glue: one Vitest test per check, named with its requirement ids so every report shows them, with the
 * check id and ids in the test's meta. Verdicts come from runCheck, after the run's prerequisites (as certify
 * establishes them: a check whose prerequisite failed is blocked by it, never failed by its own traffic), and a
 * test's outcome says what certify says of its check (verdict.ts):
 *  - passed: the rule was verified and held (a broken SHOULD passes with a warning annotation, as in certify's
 *    default --fail-on must);
 *  - failed: a MUST broke (fail, unexpected-pass), or an applicable MUST was not verified and the profile does not
 *    waive it (not-run, inconclusive, blocked, error): certify's INCOMPLETE, which is never a green;
 *  - skipped, at run time with the verdict and reason (never it.skip in code): not applicable, a known deviation
 *    (expected-fail), a SHOULD not verified, or a waived MUST.
 * The run exits as certify does (1 FAIL, 3 NOTHING RAN, 4 UNREACHABLE, 5 INCOMPLETE) with the reason: the project's
 * global setup reads the results and the prerequisites from the tests' meta when the run ends (vitest-global-setup.ts,
 * vitest-verdict.ts).
 */
import { describe, inject, test } from 'vitest';
import '../run/runtime.ts';
import type { CheckDefinition, SuiteDefinition } from '../check.ts';
import type { CheckResult } from '../results.ts';
import { runCheck, type ContextFactory } from '../run/runner.ts';
import { createSession, type Session } from '../session/session.ts';
import { establishPrerequisites } from '../session/prerequisites.ts';
import { selects } from '../run/select.ts';
import { applyWaivers, breaksRule, unverified } from '../verdict.ts';
import type { EntryPrerequisites } from './vitest-verdict.ts';

interface Started {
  session: Session;
  /** why establishing the prerequisites itself failed (a harness error), once it did */
  broken?: string;
  /** the prerequisites once all are established (undefined when establishing them failed: broken) */
  established: Promise<EntryPrerequisites | undefined>;
}

let started: Promise<Started> | undefined;
/** one session per worker (the project keeps modules across files), its prerequisites established once */
function currentSession(): Promise<Started> {
  started ??= createSession(inject('harness')).then((session) => {
    // in the background, as in certify: runCheck waits for the prerequisites a check needs (board.settled)
    const established = establishPrerequisites(session, session.prerequisites).then(
      (e): EntryPrerequisites => ({
        verdicts: e.results.map((r) => ({ id: r.id, verdict: r.verdict })),
        ...(e.unreachable !== undefined ? { unreachable: e.unreachable } : {}),
      }),
      (e: unknown) => {
        s.broken = `the prerequisites could not be established: ${e instanceof Error ? e.message : String(e)}`;
        return undefined;
      },
    );
    const s: Started = { session, established };
    return s;
  });
  return started;
}

export function testName(def: CheckDefinition): string {
  return `${def.requirements.join(' ')} ${def.title}`;
}

/** the message of a failed test: certify's verdict, its reason, and what was expected and observed */
function failure(r: CheckResult, what: string): Error {
  const lines = [`${what}: ${r.reason ?? ''}`];
  if (r.blockedBy !== undefined) lines.push(`blocked by prerequisite: ${r.blockedBy}`);
  if (r.expected !== undefined) lines.push(`expected: ${r.expected}`);
  if (r.observed !== undefined) lines.push(`observed: ${r.observed}`);
  const e = new Error(lines.join('\n'));
  // the verdict is the message: no stack of the glue's own frames
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

/** what a test does with a check's result (certify's reading, verdict.ts); undefined: the test passes */
export function outcomeOf(r: CheckResult): { fail: Error } | { skip: string } | { warn: string } | undefined {
  if (breaksRule(r, 'must')) return { fail: failure(r, r.verdict) };
  if (unverified(r, 'must')) return { fail: failure(r, `${r.level} not verified (${r.verdict})`) };
  switch (r.verdict) {
    case 'pass':
      return undefined;
    case 'warn':
      return { warn: `SHOULD not met: ${r.reason ?? ''}` };
    default: {
      const waived = r.waived !== undefined ? ` (waived by the profile: ${r.waived})` : '';
      return { skip: `${r.verdict}: ${r.reason ?? ''}${waived}` };
    }
  }
}

/**
 * After a property check, the quota windows it spent are not left to the next file's checks: here files run one after
 * another without certify's timeline (runner.ts, windows.ts), so the next checks would meet 429s this one caused. With a
 * test clock, one move to a fresh window (not part of the check's evidence).
 */
async function freshWindows(def: CheckDefinition, factory: ContextFactory): Promise<void> {
  const ctx = factory.context(def, { exchanges: [], notes: [], tls: [] });
  if (ctx.clock.available) await ctx.clock.advance(factory.profile.contract.quota.windowSeconds + 1);
}

function register(def: CheckDefinition): void {
  test(testName(def), { meta: { checkId: def.id, requirements: [...def.requirements] } }, async (t) => {
    const s = await currentSession();
    const runtime = inject('harness');
    const [result] = applyWaivers([await runCheck(def, s.session, runtime.options)], runtime.profile.waivers);
    // only after a search that sent its inputs; a move that fails (the target gone) changes no verdict: the next
    // checks judge what they meet
    if (result?.evidence.property !== undefined) await freshWindows(def, s.session).catch(() => undefined);
    // the run's prerequisites beside the result: the entry's exit code is certify's (UNREACHABLE, a failed one)
    const prerequisites = await s.established;
    if (s.broken !== undefined) throw new Error(s.broken);
    t.task.meta.result = result!;
    if (prerequisites) t.task.meta.prerequisites = prerequisites;
    const outcome = outcomeOf(result!);
    if (outcome === undefined) return;
    if ('fail' in outcome) throw outcome.fail;
    if ('warn' in outcome) t.annotate(outcome.warn, 'warning');
    else t.skip(outcome.skip);
  });
}

export function registerSuite(suite: SuiteDefinition): void {
  const selection = inject('harness').selection;
  const chosen = suite.checks.filter((c) => selects(selection, c));
  if (chosen.length === 0) return;
  describe(suite.name, () => {
    const shared = chosen.filter((c) => !c.exclusive);
    const exclusive = chosen.filter((c) => c.exclusive);
    if (shared.length > 0) describe.concurrent('independent', () => shared.forEach(register));
    if (exclusive.length > 0) describe.sequential('exclusive (clock, quota)', () => exclusive.forEach(register));
  });
}
