/**
 * Issue 19 item 9: a non-destructive run against a real target (here the UAT mock seen as one: not embedded, no
 * test clock, so no quota window passes during the run) states the calls it spends per operation and never
 * exhausts a quota: no call is refused for the quota (before: ~107 validate calls, the JOSE cases most of them,
 * against a quota of 100, so the run's own last calls, and a second run, met 429s).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { defaultRunOptions } from '../../lib/engine/runner.ts';
import { runChecks } from '../../lib/engine/runner.ts';
import { createSession } from '../../lib/engine/session.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank | undefined;
afterAll(async () => {
  await mock?.close();
});

describe('the quota spend of a non-destructive run', () => {
  test(
    'UAT: at most the quota less one call per operation, no 429, the spend stated',
    { timeout: 240_000 },
    async () => {
      mock = await startMockBank({ mode: 'uat', pki: await testPki() });
      const described = mock.profile('real-uat') as { target: Record<string, unknown>; run?: Record<string, unknown> };
      delete described.target.clock;
      const profile = FullProfile.parse({ ...described, run: { ...described.run, concurrency: 32 } });
      const options = { ...defaultRunOptions, embedded: false, destructive: false };
      const session = await createSession({ profile, options, faults: [] });
      let results;
      try {
        results = await runChecks(allChecks, session, options);
      } finally {
        await session.close();
      }
      const refused = results.flatMap((r) =>
        r.evidence.exchanges.filter((e) => e.response?.status === 429).map((e) => `${r.checkId}: ${e.label ?? ''}`),
      );
      expect(refused).toEqual([]);
      const calls = session.traffic().calls;
      const limit = profile.contract.quota.perHour;
      for (const op of ['validate', 'create', 'get']) expect(calls[op] ?? 0).toBeLessThanOrEqual(limit - 1);
      // the checks the budget stopped say so
      for (const r of results.filter((x) => /quota budget of a non-destructive run/.test(x.reason ?? '')))
        expect(r.verdict).toBe('not-run');
    },
  );
});
