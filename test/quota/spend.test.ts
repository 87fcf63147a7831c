/**
 * What a run spends (lib/engine/session/spend.ts): a non-destructive run against a real target (here the UAT mock seen as one:
 * not embedded, no test clock, so no quota window passes during the run) states the calls it spends per operation and
 * never exhausts a quota: the calls past the quota less one are not sent (their checks are not run, saying why), so no
 * call is refused for the quota and the target keeps a call. The mock has a plan-wide quota of 60 calls an hour
 * (declared by its profile), which a full non-destructive UAT run (over 100 validate, create and get calls) passes:
 * before, its last calls met 429s and their checks ended inconclusive, and the next run met nothing else.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { defaultRunOptions, runChecks } from '../../lib/engine/run/runner.ts';
import { createSession } from '../../lib/engine/session/session.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank | undefined;
afterAll(async () => {
  await mock?.close();
});

describe('the quota spend of a non-destructive run', () => {
  test('UAT: no call refused for the quota, the budget said, the spend stated', { timeout: 240_000 }, async () => {
    mock = await startMockBank({ mode: 'uat', pki: await testPki(), planPerHour: 60 });
    const described = mock.profile('real-uat') as { target: Record<string, unknown>; run?: Record<string, unknown> };
    delete described.target.clock;
    const profile = FullProfile.parse({ ...described, run: { ...described.run, concurrency: 32 } });
    expect(profile.contract.quota.planPerHour).toBe(60);
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
    // the checks the budget stopped are not run, and say why
    const stopped = results.filter((x) => /quota budget of a non-destructive run/.test(x.reason ?? ''));
    expect(stopped.length).toBeGreaterThan(0);
    for (const r of stopped)
      expect([r.checkId, r.verdict, r.blockedBy, r.reason]).toEqual([r.checkId, 'not-run', undefined, r.reason]);
    // the spend is stated per operation (results.json traffic.calls)
    const calls = session.traffic().calls;
    expect(calls.validate).toBeGreaterThan(0);
    expect(calls.get).toBeGreaterThan(0);
  });
});
