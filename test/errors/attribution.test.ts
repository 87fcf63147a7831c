/**
 * A failure names the rule it breaks: a check's CheckFailed may carry the ids it broke (a subset of the check's);
 * the result marks only those failed, at their level, and the traceability matrix shows the others without this
 * check's failure. A check that judges part of a rule (CheckDefinition.partial) may fail it, but its pass does not
 * verify it. The invalid-documents property: one document answered 500 breaks ERR-03 (not ERR-01 … ERR-05), and
 * its pass does not credit ERR-02 (whose message half it does not judge).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailed, type CheckDefinition } from '../../lib/engine/check.ts';
import type { CheckContext } from '../../lib/engine/session/context.ts';
import { prepare, type PreparedTarget } from '../../lib/engine/run/prepare.ts';
import { requirementVerdict, type CheckResult, type RunResults } from '../../lib/engine/results.ts';
import { runCheck, runChecks, type ContextFactory } from '../../lib/engine/run/runner.ts';
import { listRun } from '../../lib/engine/run/list.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { EmbeddedProfile } from '../../lib/profile/schema.ts';
import { checksSection } from '../../lib/report/html/checks.ts';
import { matrixSection } from '../../lib/report/html/matrix.ts';
import { fixtureResults } from '../fixtures/results.ts';
import { allChecks } from '../../suites/index.ts';

let prepared: PreparedTarget;
beforeAll(async () => {
  prepared = await prepare(EmbeddedProfile.parse({ name: 'attribution', environment: 'sandbox', embedded: {} }));
});
afterAll(async () => {
  await prepared.close();
});

/** a factory whose check needs no target (the check throws at once) */
const bare = (): ContextFactory => ({
  profile: prepared.runtime.profile,
  redact: (t) => t,
  context: () => ({ dispose: () => undefined }) as unknown as CheckContext,
});

const failing = (requirements: string[], broke?: string[]): CheckDefinition => ({
  id: 'x.failing',
  suite: 'x',
  title: 'fails',
  requirements,
  run: () => Promise.reject(new CheckFailed('broken', broke ? { requirements: broke } : {})),
});

const runOf = (results: CheckResult[]): RunResults =>
  ({
    options: { filters: {} },
    profiles: [{ profile: 'p', environment: 'sandbox', assumptions: {}, results }],
  }) as unknown as RunResults;

/** the verdict the matrix's cell shows for `id` (one profile) */
function cell(results: CheckResult[], id: string): string | undefined {
  const html = String(matrixSection(runOf(results)));
  const row = new RegExp(`<th scope="row" class="rid">${id}</th>.*?data-verdict="([a-z-]+)"`).exec(html);
  return row?.[1];
}

describe('a failure names the rule it breaks', () => {
  it('CheckFailed with a subset: only those ids fail, at their level; without one, every id', async () => {
    expect.hasAssertions();
    const opts = prepared.runtime.options;
    const subset = await runCheck(failing(['ERR-01', 'ERR-03'], ['ERR-03']), bare(), opts);
    const should = await runCheck(failing(['ERR-01', 'HARD-05'], ['HARD-05']), bare(), opts);
    const all = await runCheck(failing(['ERR-01', 'ERR-03']), bare(), opts);
    expect([subset.verdict, subset.failed, subset.level]).toEqual(['fail', ['ERR-03'], 'MUST']);
    expect([should.verdict, should.failed, should.level]).toEqual(['warn', ['HARD-05'], 'SHOULD']);
    expect([all.verdict, all.failed]).toEqual(['fail', undefined]);
    // the report's check section says which ids it broke
    const page = fixtureResults();
    page.profiles[0]!.results.push(subset);
    expect(String(checksSection(page))).toContain('ERR-01, ERR-03 — failed: ERR-03 (the others not verified');
    expect([cell([subset], 'ERR-01'), cell([subset], 'ERR-03'), cell([all], 'ERR-01')]).toEqual([
      'none',
      'fail',
      'fail',
    ]);
  });

  it("a known deviation of one id does not excuse a failure that broke another, nor turn a partial pass into 'unexpected'", async () => {
    expect.hasAssertions();
    const opts = prepared.runtime.options;
    const deviating = (id: string): ContextFactory => ({
      ...bare(),
      profile: { ...prepared.runtime.profile, knownDeviations: [{ id, reason: 'known' }] },
    });
    const passing: CheckDefinition = {
      ...failing(['ERR-01', 'ERR-02']),
      partial: ['ERR-02'],
      run: () => Promise.resolve(),
    };
    const results = await Promise.all([
      runCheck(failing(['ERR-01', 'ERR-03'], ['ERR-03']), deviating('ERR-01'), opts),
      runCheck(failing(['ERR-01', 'ERR-03'], ['ERR-03']), deviating('ERR-03'), opts),
      runCheck(passing, deviating('ERR-02'), opts),
      runCheck(passing, deviating('ERR-01'), opts),
    ]);
    expect(results.map((r) => r.verdict)).toEqual(['fail', 'expected-fail', 'pass', 'unexpected-pass']);
  });

  it('--list shows the documents property under ERR-02 as judging it in part', async () => {
    expect.hasAssertions();
    const text = await listRun(allChecks, [], { only: [], suites: [] }, {});
    expect(text).toMatch(/^ {2}ERR-02 .*errors\.invalid-documents-property \(in part\)/m);
    expect(text).not.toMatch(/^ {2}ERR-03 .*\(in part\)/m);
  });

  it('an id judged in part: a failure breaks it, a pass does not verify it', () => {
    expect.hasAssertions();
    const r = { requirements: ['ERR-01', 'ERR-02'], partial: ['ERR-02'] };
    expect([
      requirementVerdict({ ...r, verdict: 'pass' }, 'ERR-01'),
      requirementVerdict({ ...r, verdict: 'pass' }, 'ERR-02'),
      requirementVerdict({ ...r, verdict: 'fail', failed: ['ERR-02'] }, 'ERR-02'),
      requirementVerdict({ ...r, verdict: 'fail', failed: ['ERR-02'] }, 'ERR-01'),
      requirementVerdict({ ...r, verdict: 'inconclusive' }, 'ERR-02'),
    ]).toEqual(['pass', undefined, 'fail', undefined, 'inconclusive']);
  });

  it('the invalid-documents property: a 500 to the amount sent flat fails ERR-03 only; a pass credits no ERR-02', async () => {
    expect.hasAssertions();
    const run = async (faults: string[]): Promise<CheckResult> => {
      const p = await prepare(
        EmbeddedProfile.parse({ name: 'docs', environment: 'sandbox', embedded: { faults }, run: { dataSeed: 7 } }),
      );
      const session = await createSession(p.runtime);
      try {
        const defs = allChecks.filter((c) => c.id === 'errors.invalid-documents-property');
        return (await runChecks(defs, session, p.runtime.options))[0]!;
      } finally {
        await session.close();
        await p.close();
      }
    };
    const [broken, clean] = await Promise.all([run(['amount-string-500']), run([])]);
    expect([broken.verdict, broken.failed]).toEqual(['fail', ['ERR-03']]);
    expect(broken.reason).toMatch(/^amount as a string \(.+\): HTTP 500, a crash/);
    expect(['ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05'].map((id) => cell([broken], id))).toEqual([
      'none',
      'none',
      'fail',
      'none',
      'none',
    ]);
    expect(clean.verdict).toBe('pass');
    expect(['ERR-01', 'ERR-02', 'ERR-03'].map((id) => cell([clean], id))).toEqual(['pass', 'none', 'pass']);
  });
});
