/**
 * The mock fault of the tampered-envelope property (docs/properties.md): jose-tag-unchecked-other-recipient. Under it
 * the mock accepts several recipients and checks the authentication tag only when the content key comes from the
 * first one. A tampered tag in an envelope whose bank recipient comes second then passes; the fixed-input
 * tamper case (one recipient, a flipped tag: JOSE-08's T4) is still refused, so only the generated inputs find it.
 * Without the fault the clean mock refuses both shapes, the lenient mock (several recipients allowed) the
 * tampered one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBank, type MockBank } from '../../lib/mock/index.ts';
import { testPki } from '../../lib/pki/index.ts';
import type { Profile } from './helpers.ts';
import { validateShape as validate } from './tamper-probe.ts';

const FAULT = 'jose-tag-unchecked-other-recipient';

let clean: MockBank;
let lenient: MockBank;
let pc: Profile;
let pl: Profile;

beforeAll(async () => {
  const pki = await testPki();
  [clean, lenient] = await Promise.all([
    startMockBank({ mode: 'uat', pki }),
    startMockBank({ mode: 'uat', pki, lenient: true }),
  ]);
  pc = clean.profile('envprop-clean');
  pl = lenient.profile('envprop-lenient');
}, 60_000);
afterAll(() => Promise.all([clean.close(), lenient.close()]));

describe(`${FAULT}: caught by two recipients, missed by one`, () => {
  it('clean mock: two recipients refused (HARD-03), tampered or not; one recipient with a flipped tag refused', async () => {
    clean.faults.set([]);
    expect([
      await validate(pc, 'two-recipients', false),
      await validate(pc, 'two-recipients', true),
      await validate(pc, 'single', true),
      await validate(pc, 'single', false),
    ]).toEqual([400, 400, 400, 200]);
  });

  it('with the fault: two recipients accepted, the flipped tag too; one recipient with a flipped tag still refused (T4 misses it)', async () => {
    clean.faults.set([FAULT]);
    try {
      expect([
        await validate(pc, 'two-recipients', false),
        await validate(pc, 'two-recipients', true),
        await validate(pc, 'single', true),
      ]).toEqual([200, 200, 400]);
    } finally {
      clean.faults.set([]);
    }
  });

  it('lenient mock (several recipients allowed by the RFC): the unmutated envelope accepted, the flipped tag refused', async () => {
    expect([await validate(pl, 'two-recipients', false), await validate(pl, 'two-recipients', true)]).toEqual([
      200, 400,
    ]);
  });
});
