/**
 * The fault matrix: every check can fail, and none fails without cause.
 *  - the clean mock, in both modes: every applicable check passes (nothing fails, nothing is inconclusive);
 *  - each fault of the mock, in each mode where it has an effect: the checks of the fault's requirement ids
 *    fail (or warn, for a SHOULD) and no check of any other id fails.
 * Checks run through runChecks (the same verdict logic as certify) against one mock per case, several at once.
 */
import { describe, expect, test } from 'vitest';
import { FAULTS } from '../../lib/mock/faults.ts';
import { requirement } from '../../lib/catalogue/index.ts';
import { EmbeddedProfile, type Environment } from '../../lib/profile/schema.ts';
import { prepare } from '../../lib/engine/prepare.ts';
import { createSession } from '../../lib/engine/session.ts';
import { runChecks } from '../../lib/engine/runner.ts';
import type { CheckResult } from '../../lib/engine/results.ts';
import { allChecks } from '../../suites/index.ts';

const BROKEN = new Set(['fail', 'warn', 'error', 'unexpected-pass']);

async function runAgainstMock(env: Environment, faults: string[]): Promise<CheckResult[]> {
  const profile = EmbeddedProfile.parse({ name: `matrix-${env}`, environment: env, embedded: { faults } });
  const prepared = await prepare(profile, { checkTimeoutMs: 30_000 });
  const session = await createSession(prepared.runtime);
  try {
    return await runChecks(allChecks, session, prepared.runtime.options);
  } finally {
    await session.close();
    await prepared.close();
  }
}

function summary(results: CheckResult[], keep: (r: CheckResult) => boolean): string[] {
  return results.filter(keep).map((r) => `${r.checkId} [${r.requirements.join(' ')}] ${r.verdict}: ${r.reason ?? ''}`);
}

const cases = FAULTS.flatMap((f) => f.environments.map((env) => ({ fault: f, env })));

describe.concurrent('fault matrix', () => {
  for (const env of ['sandbox', 'uat'] as const) {
    test(`clean mock (${env}): every applicable check passes`, async () => {
      const results = await runAgainstMock(env, []);
      expect(summary(results, (r) => r.verdict !== 'pass' && r.verdict !== 'not-applicable')).toEqual([]);
      expect(results.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(0);
    });
  }

  for (const { fault, env } of cases) {
    test(`${fault.id} (${env}) fails ${fault.requirements.join(' ')} and nothing else`, async () => {
      const results = await runAgainstMock(env, [fault.id]);
      const expected = fault.requirements.filter((id) => requirement(id).applies.includes(env));
      const broken = results.filter((r) => BROKEN.has(r.verdict));
      const brokenIds = new Set(broken.flatMap((r) => r.requirements));
      // the fault's ids: at least one check of each fails
      expect(expected.filter((id) => !brokenIds.has(id)), `not caught; results for these ids:\n${summary(results, (r) => r.requirements.some((id) => expected.includes(id))).join('\n')}`).toEqual([]);
      // no other id: every broken check names one of the fault's ids
      expect(summary(broken, (r) => !r.requirements.some((id) => expected.includes(id)))).toEqual([]);
    });
  }
});
