/**
 * The mock's data keep what the property checks' faults rely on (docs/properties.md; their probes are in
 * probes-properties.ts and probes-docprop.ts, run by faults.test.ts without and with each fault).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { Profile } from './helpers.ts';

for (const env of ['sandbox', 'uat'] as const) {
  describe(`property faults (${env})`, () => {
    let mock: MockBank;
    let p: Profile;
    beforeAll(async () => {
      mock = await startMockBank({ mode: env, pki: await testPki() });
      p = mock.profile();
    });
    afterAll(async () => {
      await mock.close();
    });

    it('the customers differ in the last three characters of every id (mask-last-three-only breaks masking only)', () => {
      expect.hasAssertions();
      const tails = p.customers.flatMap((c) => [c.accountId.slice(-3), (c.emiratesId ?? '').slice(-3)]);
      expect(new Set(tails).size).toBe(tails.length);
    });
  });
}
