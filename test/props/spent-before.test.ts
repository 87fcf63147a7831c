/**
 * A second run at once against the same bank (its ledger knows nothing of the first run's calls): every property
 * verified, no input without evidence. The first run's searches left fresh windows behind them; a window spent by
 * calls the harness never saw is met with the contract's quota answer and a fresh window (control-quota.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { startMockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { FullProfile } from '../../lib/profile/schema.ts';
import { defaultRunOptions } from '../../lib/engine/run/runner.ts';
import { runOn } from '../fixtures/run.ts';
import { allChecks } from '../../suites/index.ts';

// the document-inputs property needs the bank's OpenAPI document (not applicable without one): its windows are
// tested with one in test/openapi/document-property-run.test.ts
const properties = allChecks.filter(
  (c) => c.property === true && !c.id.startsWith('jose.') && !c.requirements.some((id) => id.startsWith('OAS-')),
);

describe('quota windows spent before the run', () => {
  test('sandbox, a second run at once: every property verified, every input judged', { timeout: 120_000 }, async () => {
    expect(properties.length).toBeGreaterThan(2);
    const mock = await startMockBank({ mode: 'sandbox', pki: await testPki(), faults: [] });
    try {
      const profile = FullProfile.parse(mock.profile('spent-before'));
      const options = { ...defaultRunOptions, checkTimeoutMs: 60_000 };
      await runOn(profile, options, properties);
      const second = await runOn(profile, options, properties);
      for (const r of second) {
        expect(r.verdict, `${r.checkId}: ${r.reason ?? ''}`).toBe('pass');
        // no input left without evidence by a window the first run spent
        expect(r.evidence.property?.unclear, r.evidence.property?.summary).toBe(0);
      }
    } finally {
      await mock.close();
    }
  });
});
