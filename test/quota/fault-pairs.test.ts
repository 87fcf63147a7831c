/**
 * Two quota faults on together: each still breaks its own rule. Under quota-early-long-wait the window refuses from
 * the middle of the quota on; quota-window-reopens-late must still keep that exhausted window closed for a second
 * hour (before, "exhausted" meant the full count, which the early refusals never reach, and QUOTA-03 passed).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function reopens(faults: string[]): Promise<{ verdict: string; reason: string }> {
  mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults });
  const profile = FullProfile.parse(mock.profile('quota-pair'));
  const checks = allChecks.filter((c) => c.id === 'quota.window-reopens');
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
  return { verdict: r!.verdict, reason: r!.reason ?? '' };
}

describe('quota faults side by side', () => {
  test('quota-early-long-wait alone: the window reopens after its hour (QUOTA-03 holds)', async () => {
    expect((await reopens(['quota-early-long-wait'])).verdict).toBe('pass');
  });
  test('quota-window-reopens-late beside quota-early-long-wait: QUOTA-03 still fails', async () => {
    const r = await reopens(['quota-early-long-wait', 'quota-window-reopens-late']);
    expect(r.verdict, r.reason).toBe('fail');
    expect(r.reason).toMatch('is still refused 3601 s after the window opened');
  });
});
