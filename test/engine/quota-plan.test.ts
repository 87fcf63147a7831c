/**
 * QUOTA-02 against a target whose plan-wide quota is at or under the per-operation one (the mock's planPerHour,
 * declared in the profile as contract.quota.planPerHour): the operations cannot be seen apart, so nothing is
 * judged. The check is not applicable with that reason and the figures found, never a pass.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const apart = allChecks.filter((c) => c.id === 'quota.operations-counted-apart');

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('QUOTA-02 with a plan-wide quota at or under the per-operation one', () => {
  test('planPerHour 100 (per operation 100): not applicable, with the reason and the figures found', async () => {
    expect(apart).toHaveLength(1);
    mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [], planPerHour: 100 });
    const profile = FullProfile.parse(mock.profile('plan'));
    expect(profile.contract.quota.planPerHour).toBe(100);
    expect(profile.contract.quota.perHour).toBe(100);
    const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true }, apart);
    expect(r!.verdict).toBe('not-applicable');
    expect(r!.reason).toMatch(/plan-wide quota \(100 calls an hour\) at or under the per-operation one \(100\)/);
    expect(r!.reason).toMatch(/validate refused after \d+ calls, get then answered HTTP \d{3}/);
  });
});
