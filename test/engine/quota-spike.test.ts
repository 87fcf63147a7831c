/**
 * A gateway's spike arrest in front of the quota (the mock's spikeArrest option: 60 calls of a client pass, the next
 * are refused with 429 and Retry-After: 1, not counted, until one comes a second after the refusal; by count, so a
 * slow machine meets it too) is not the quota: the quota checks wait it out and pass, a wave of refusals counting as
 * one spike; and the arrest does not hide a quota that is missing. The waits are the test's (TestWaits, handed to the
 * run and to the mock's spike arrest): each is recorded, not spent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import { TestWaits } from '../fixtures/waits.ts';

const quotaChecks = allChecks.filter((c) => c.suite === 'quota');

let mock: MockBank | undefined;
/** one clock for the run's waits and the spike arrest's windows: each wait recorded and the clock moved, not spent */
let waits = new TestWaits();
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  waits = new TestWaits();
});

/** the quota checks `checks` (all four unless the test's point needs fewer) against a mock behind a spike arrest */
async function certifyQuota(faults: string[] = [], checks = quotaChecks) {
  mock = await startMockBank({
    mode: 'sandbox',
    pki: await testPki(),
    spikeArrest: { perSecond: 60, refill: 'after-refusal' },
    faults,
    waits,
  });
  const profile = FullProfile.parse(mock.profile('spike'));
  const options = { ...defaultRunOptions, embedded: true, waits };
  return runOn(profile, options, checks);
}

describe('quota checks behind a spike arrest', () => {
  test('every quota check passes; the arrest is waited out and said', { timeout: 60_000 }, async () => {
    expect(quotaChecks).toHaveLength(4);
    const results = await certifyQuota();
    expect(results.map((r) => [r.checkId, r.verdict, r.reason ?? ''])).toEqual(
      quotaChecks.map((c) => [c.id, 'pass', '']),
    );
    const limit = results.find((r) => r.checkId === 'quota.per-operation-limit')!;
    expect(limit.evidence.notes.join('\n')).toMatch(/a spike arrest; waited, went on one call at a time/);
    expect(limit.evidence.notes.join('\n')).toMatch(/100 calls accepted, then refused with HTTP 429/);
    // each wait as long as the arrest's Retry-After asked (1 s), one for each the notes say
    const said = results.flatMap((r) => r.evidence.notes).filter((n) => /a spike arrest; waited/.test(n)).length;
    expect(waits.asked).toEqual(Array<number>(said).fill(1000));
  });

  test('without a quota behind it, QUOTA-01 still fails', { timeout: 60_000 }, async () => {
    const perOperation = quotaChecks.filter((c) => c.id === 'quota.per-operation-limit');
    const [limit] = await certifyQuota(['quota-off'], perOperation);
    expect(limit?.checkId).toBe('quota.per-operation-limit');
    expect(limit?.verdict).toBe('fail');
  });
});
