/**
 * A filling that a spike arrest stopped (the mock's spikeArrest: 20 calls of a client pass, the next are refused
 * with 429 and Retry-After: 1, not counted, until one comes a second after the refusal; by count, so a slow machine
 * meets it too) shows nothing of the quota: QUOTA-02 and QUOTA-03 must not pass on it.
 * The filling goes on after each wait while it makes progress, so the quota is reached and the rule judged: a bank
 * that shares its counters is warned of under QUOTA-02 (a SHOULD), one whose window reopens late fails QUOTA-03, a conformant one passes.
 * The waits are the test's (TestWaits, handed to the run and to the mock's spike arrest): each is recorded, not spent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import { TestWaits } from '../fixtures/waits.ts';

type CheckId = 'quota.operations-counted-apart' | 'quota.window-reopens';
const ids: readonly CheckId[] = ['quota.operations-counted-apart', 'quota.window-reopens'];

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** the verdicts of the checks `ids` (the checks a test's point needs) and each one's notes */
async function run(
  faults: string[],
  ids: readonly CheckId[],
): Promise<{ v: Record<string, string>; notes: Record<string, string[]>; asked: number[] }> {
  // one clock for the run's waits and the spike arrest's windows: a wait is recorded and the clock moved, not spent
  const waits = new TestWaits();
  mock = await startMockBank({
    mode: 'sandbox',
    pki: await testPki(),
    spikeArrest: { perSecond: 20, refill: 'after-refusal' },
    faults,
    waits,
  });
  const profile = FullProfile.parse(mock.profile('spike-20'));
  const checks = allChecks.filter((c) => ids.includes(c.id as CheckId));
  const results = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, checks);
  return {
    v: Object.fromEntries(results.map((r) => [r.checkId, `${r.verdict}${r.reason ? `: ${r.reason}` : ''}`])),
    notes: Object.fromEntries(results.map((r) => [r.checkId, r.evidence.notes])),
    asked: waits.asked,
  };
}

/** the filling's waits for the spike arrest, as the check's notes say them */
function arrests(notes: string[] | undefined): number {
  return (notes ?? []).filter((n) => /a spike arrest; waited, went on one call at a time/.test(n)).length;
}

/** every wait the run said it made for a spike arrest (the filling's and a decisive call's) */
function waitsSaid(notes: Record<string, string[]>): number {
  return Object.values(notes)
    .flat()
    .filter((n) => /a spike arrest; waited/.test(n)).length;
}

describe('quota checks behind a spike arrest that stops the filling many times', { timeout: 120_000 }, () => {
  test('counters shared: QUOTA-02 does not pass', async () => {
    const { v, notes, asked } = await run(['quota-shared-window'], ['quota.operations-counted-apart']);
    // QUOTA-02 is a SHOULD: its finding is a warning
    expect(v['quota.operations-counted-apart']).toMatch(/^warn: get is refused for the quota once validate/);
    // more arrests than the filling waits out in a row: it went on after each, while it made progress
    expect(arrests(notes['quota.operations-counted-apart'])).toBeGreaterThan(3);
    // each wait as long as the spike arrest's Retry-After asked (1 s), one for each the notes say
    expect(asked).toEqual(Array<number>(waitsSaid(notes)).fill(1000));
  });
  test('a window that reopens late: QUOTA-03 does not pass', async () => {
    const { v, notes, asked } = await run(['quota-window-reopens-late'], ['quota.window-reopens']);
    expect(v['quota.window-reopens']).toMatch(/^fail: get is still refused/);
    expect(arrests(notes['quota.window-reopens'])).toBeGreaterThan(3);
    expect(asked).toEqual(Array<number>(waitsSaid(notes)).fill(1000));
  });
  test('a conformant bank: both pass', async () => {
    const { v, notes, asked } = await run([], ids);
    expect(v).toEqual({ 'quota.operations-counted-apart': 'pass', 'quota.window-reopens': 'pass' });
    expect(asked).toEqual(Array<number>(waitsSaid(notes)).fill(1000));
    expect(asked.length).toBeGreaterThan(6);
  });
});
