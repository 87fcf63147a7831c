/**
 * A filling that a spike arrest stopped (the mock's spikeArrest: 20 calls of a client pass, the next are refused
 * with 429 and Retry-After: 1, not counted, until one comes a second after the refusal; by count, so a slow machine
 * meets it too) shows nothing of the quota: QUOTA-02 and QUOTA-03 must not pass on it.
 * The filling goes on after each wait while it makes progress, so the quota is reached and the rule judged: a bank
 * that shares its counters is warned of under QUOTA-02 (a SHOULD), one whose window reopens late fails QUOTA-03, a conformant one passes.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const ids = ['quota.operations-counted-apart', 'quota.window-reopens'];
const checks = allChecks.filter((c) => ids.includes(c.id));

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function run(faults: string[]): Promise<Record<string, string>> {
  mock = await startMockBank({
    mode: 'sandbox',
    pki: await testPki(),
    spikeArrest: { perSecond: 20, refill: 'after-refusal' },
    faults,
  });
  const profile = FullProfile.parse(mock.profile('spike-20'));
  const results = await runOn(profile, { ...defaultRunOptions, embedded: true }, checks);
  return Object.fromEntries(results.map((r) => [r.checkId, `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`]));
}

describe('quota checks behind a spike arrest that stops the filling many times', { timeout: 120_000 }, () => {
  test('counters shared: QUOTA-02 does not pass', async () => {
    const v = await run(['quota-shared-window']);
    // QUOTA-02 is a SHOULD: its finding is a warning
    expect(v['quota.operations-counted-apart']).toMatch(/^(fail|warn): get is refused for the quota once validate/);
  });
  test('a window that reopens late: QUOTA-03 does not pass', async () => {
    const v = await run(['quota-window-reopens-late']);
    expect(v['quota.window-reopens']).toMatch(/^fail: get is still refused/);
  });
  test('a conformant bank: both pass', async () => {
    const v = await run([]);
    expect(v).toEqual({ 'quota.operations-counted-apart': 'pass', 'quota.window-reopens': 'pass' });
  });
});
