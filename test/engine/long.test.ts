/**
 * --long: a check that needs time to pass and has no test clock waits for real, and its time limit grows by the
 * wait it declares (a wait that follows the profile's lifetimes). Shown against the mock with short token lifetimes
 * (2 s codes, 3 s access tokens), no clock in the profile, and a per-check limit shorter than the waits.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const waiting = allChecks.filter((c) => c.id === 'tokens.code-expires' || c.id === 'tokens.access-token-expires');

let mock: MockBank;
let profile: FullProfile;
beforeAll(async () => {
  mock = await startMockBank({
    mode: 'sandbox',
    pki: await testPki(),
    limits: { codeSeconds: 2, accessTokenSeconds: 3 },
  });
  const described = mock.profile('long');
  const { clock: _clock, ...target } = described.target;
  profile = FullProfile.parse({ ...described, target });
});
afterAll(async () => {
  await mock.close();
});

async function run(long: boolean) {
  const options = { ...defaultRunOptions, long, embedded: true, checkTimeoutMs: 2_000, maxWaitSeconds: 10 };
  return runOn(profile, options, waiting);
}

describe('--long against a target without a test clock', () => {
  test('the checks wait for real, beyond the per-check limit, and reach a verdict', { timeout: 30_000 }, async () => {
    expect(waiting).toHaveLength(2);
    expect(profile.target.clock).toBeUndefined();
    expect(profile.contract.tokens).toMatchObject({ codeSeconds: 2, accessTokenSeconds: 3 });
    const results = await run(true);
    expect(results.map((r) => [r.checkId, r.verdict, r.reason ?? ''])).toEqual([
      ['tokens.code-expires', 'pass', ''],
      ['tokens.access-token-expires', 'pass', ''],
    ]);
  });
  test('without --long they are not run, with the reason', async () => {
    const results = await run(false);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.verdict).toBe('not-run');
      expect(r.reason).toMatch(/--long to wait [34] s/);
    }
  });
});
