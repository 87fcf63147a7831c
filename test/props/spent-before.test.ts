/**
 * A bank whose quota windows calls the harness never saw had spent (a run just before this one, another profile's
 * run against the same bank): the property searches meet the contract's quota answer on their positive control and
 * inputs, and with the test clock go on in a fresh window; they neither end inconclusive nor take a 429 for a verdict.
 */
import { describe, expect, test } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

const properties = allChecks.filter((c) => c.property === true && !c.id.startsWith('jose.'));

describe('quota windows spent before the run', () => {
  test('sandbox, a second run at once: every property verified in fresh windows', { timeout: 120_000 }, async () => {
    expect(properties.length).toBeGreaterThan(2);
    const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
    try {
      const profile = FullProfile.parse(mock.profile('spent-before'));
      const options = { ...defaultRunOptions, checkTimeoutMs: 60_000 };
      await runOn(profile, options, properties);
      const second = await runOn(profile, options, properties);
      for (const r of second) {
        expect(r.verdict, `${r.checkId}: ${r.reason ?? ''}`).toBe('pass');
        // no input left without evidence by the quota's answer: each sent again in a fresh window
        expect(r.evidence.property?.unclear, r.evidence.property?.summary).toBe(0);
      }
      const answered = second.reduce(
        (n, r) => n + ((r.evidence.property as { quotaAnswers?: number } | undefined)?.quotaAnswers ?? 0),
        0,
      );
      expect(answered).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
