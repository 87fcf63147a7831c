/**
 * The TLS checks' probes open connections of their own (suites/tls), past the session's calls: a gateway that
 * throttles with 503 and its HTML page answered the call without a client certificate, which TLS-02 took for the
 * bank serving it ("a call without a client certificate was answered HTTP 503"). Probed again after a wait now
 * (lib/engine/session/throttle/throttled-calls.ts probeWhileThrottled), never judged.
 */
import { afterEach, expect, test } from 'vitest';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { allChecks } from '../../suites/index.ts';
import { runOn } from '../fixtures/run.ts';
import { TestWaits } from '../fixtures/waits.ts';

let mock: MockBank | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('behind a 503 throttle, the client certificate checks give no FAIL', { timeout: 120_000 }, async () => {
  // one clock for the run's waits (the probes' back-off too) and the gateway's bucket: waits recorded, not spent
  const waits = new TestWaits();
  const throttle = { perSecond: 10, status: 503 } as const;
  mock = await startMockBank({ mode: 'uat', pki: await testPki(), throttle, waits });
  const profile = FullProfile.parse(mock.profile('throttled-503'));
  const checks = allChecks.filter(
    (c) => c.suite === 'tls' && c.requirements.some((r) => ['TLS-02', 'TLS-04'].includes(r)),
  );
  expect(checks.length).toBeGreaterThan(0);
  const results = await runOn(profile, { ...defaultRunOptions, embedded: true, waits }, checks);
  const verdicts = results.map((r) => `${r.checkId} ${r.verdict}${r.reason ? `: ${r.reason}` : ''}`);
  expect(verdicts.filter((v) => / (fail|error)/.test(v))).toEqual([]);
  expect(verdicts.filter((v) => / pass$/.test(v)).length).toBeGreaterThan(0);
  // the probes the gateway answered were probed again after a wait asked of the test's clock
  const probedAgain = results.flatMap((r) => r.evidence.notes).filter((n) => /probed again after \d+ ms/.test(n));
  expect(probedAgain.length).toBeGreaterThan(0);
  expect(waits.asked.length).toBeGreaterThanOrEqual(probedAgain.length);
});
