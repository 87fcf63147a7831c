/**
 * The mock faults of the property checks (issue 20): each changes the mock's behaviour (its probe, property-probes.ts,
 * sees the faulty behaviour with the fault on and not with it off), in each mode it applies to; and the mock's data
 * keep what those faults rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import { advance, type Profile } from './helpers.ts';
import { PROPERTY_FAULT_PROBES } from './property-probes.ts';

const faults = FAULTS.filter((f) => f.id in PROPERTY_FAULT_PROBES);

it('every probe names a fault of the catalogue', () => {
  expect.hasAssertions();
  expect(Object.keys(PROPERTY_FAULT_PROBES).filter((id) => !FAULTS.some((f) => f.id === id))).toEqual([]);
});

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

    for (const f of faults.filter((x) => x.environments.includes(env))) {
      it(`${f.id}`, async () => {
        expect.hasAssertions();
        const probe = PROPERTY_FAULT_PROBES[f.id]!;
        mock.faults.set([]);
        await advance(p, 3601); // fresh quota windows
        expect(await probe(p), `${f.id} without the fault`).toBe(false);
        mock.faults.set([f.id]);
        try {
          await advance(p, 3601);
          expect(await probe(p), `${f.id} with the fault`).toBe(true);
        } finally {
          mock.faults.set([]);
        }
      });
    }
  });
}
