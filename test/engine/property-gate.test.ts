/**
 * Property checks behind a gateway's spike arrest (the mock's spikeArrest option: 60 calls of a client pass, the next
 * are refused with 429, not counted, until one comes a second after the refusal; by count, so a slow machine meets
 * it): the searches wait the gate out with narrower batches and judge their inputs, never pass on the few that got
 * through (lib/engine/property/property-search.ts, property-gate.ts; property.ts evidenceShortfall).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import type { PropertyEvidence } from '../../lib/engine/results.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import { TestWaits } from '../fixtures/waits.ts';

const properties = allChecks.filter((c) => c.property === true);

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('property checks behind a spike arrest', () => {
  test('every search waits the gate out and judges most of its inputs, saying so', { timeout: 120_000 }, async () => {
    // one clock for the run's waits and the spike arrest's windows: each wait recorded and the clock moved, not spent
    const waits = new TestWaits();
    mock = await startMockBank({
      mode: 'uat',
      pki: await testPki(),
      spikeArrest: { perSecond: 60, refill: 'after-refusal' },
      waits,
    });
    const profile = FullProfile.parse(mock.profile('spike'));
    const results = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, properties);
    const searched = results.filter((r) => r.evidence.property !== undefined);
    // every property got to its search (a control a gate refused is sent again after the wait)
    expect(
      results
        .filter((r) => !r.evidence.property && r.verdict !== 'not-applicable')
        .map((r) => `${r.checkId} ${r.verdict}: ${r.reason}`),
    ).toEqual([]);
    expect(searched.length).toBeGreaterThanOrEqual(4);
    for (const r of searched) {
      const p = r.evidence.property as PropertyEvidence;
      expect([r.checkId, r.verdict], r.reason).toEqual([r.checkId, 'pass']);
      // judged, not passed on the few that got through (before: 2 of 138 tampered envelopes, 136 no evidence)
      expect(p.held, `${r.checkId}: ${p.summary}`).toBeGreaterThan(p.unclear);
    }
    expect(
      searched.some((r) => /a gate refused calls with a short Retry-After: waited/.test(r.evidence.property!.summary)),
    ).toBe(true);
    // each wait as long as the gate's Retry-After asked (1 s), none spent
    expect(waits.asked.length).toBeGreaterThan(0);
    expect(new Set(waits.asked)).toEqual(new Set([1000]));
  });
});
