/**
 * A property's positive control refused by a gate (a spike arrest: the quota's status with a Retry-After of a second)
 * has its refused call sent again after the wait, a few times at most (lib/engine/property/property.ts controlOnce): the
 * search then runs, where a control the gate refused once made the whole property inconclusive before it sent an
 * input ("positive control … HTTP 429"). The masking property proves its control for every owner it draws inputs for: four calls at once, past
 * a spike arrest of two calls a second. The tampered envelopes' shape controls, sent before the search
 * (suites/jose/tamper-judge.ts shapeControls), wait the gate out the same way (lib/engine/property/property-gate.ts
 * waitingOutGates).
 */
import { afterEach, expect, test } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';
import { TestWaits } from '../fixtures/waits.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/**
 * `checkId` run alone against a mock in `mode` behind a spike arrest of two calls, refilled a second after a refusal:
 * its search ran, no control ended it, and a note says a control call met the gate and was sent again
 */
async function expectControlWaitsGateOut(mode: 'sandbox' | 'uat', checkId: string): Promise<void> {
  // refilled only once a refusal's second has passed: the third call is refused however slowly the machine sends
  // (a gate of two calls in each real second lets every call of a slow machine through: nothing to wait out)
  // one clock for the run's waits and the spike arrest's windows: each wait recorded and the clock moved, not spent
  const waits = new TestWaits();
  const spikeArrest = { perSecond: 2, refill: 'after-refusal' } as const;
  mock = await startMockBank({ mode, pki: await testPki(), spikeArrest, waits });
  const profile = FullProfile.parse({ ...mock.profile(`control-gate-${mode}`), run: { properties: { runs: 1 } } });
  const checks = allChecks.filter((c) => c.id === checkId);
  const [r] = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, checks);
  expect(r?.reason ?? '').not.toMatch(/positive control/);
  expect(r?.evidence.property, r?.reason).toBeDefined();
  expect(r?.evidence.notes.some((n) => /a call of the positive control met a gate's refusal/.test(n))).toBe(true);
  // each wait as long as the gate's Retry-After asked (1 s), none spent
  expect(waits.asked.length).toBeGreaterThan(0);
  expect(new Set(waits.asked)).toEqual(new Set([1000]));
}

test('a control a spike arrest refused is sent again after its wait, and the search runs', { timeout: 120_000 }, () =>
  expectControlWaitsGateOut('sandbox', 'masking.near-miss-masks-refused-property'),
);

// two calls, then the gate: the GET of an id never used, the PUT and its GET of the first shape meet it
test(
  "the tampered envelopes' shape controls (a PUT and its GET per shape) wait a spike arrest out too",
  { timeout: 120_000 },
  () => expectControlWaitsGateOut('uat', 'jose.tampered-envelopes-property'),
);
