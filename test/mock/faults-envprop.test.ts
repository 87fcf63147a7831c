/**
 * The mock fault of the tampered-envelope property (docs/properties.md): jose-tag-unchecked-other-recipient. Under it
 * the mock accepts several recipients and checks the authentication tag only when the content key comes from the
 * first one. A tampered tag in an envelope whose bank recipient comes second then passes; the fixed-input
 * tamper case (one recipient, a flipped tag: JOSE-08's T4) is still refused, so only the generated inputs find it.
 * Without the fault the clean mock refuses both shapes, the lenient mock (several recipients allowed) the
 * tampered one.
 */
import { describe, expect, it } from 'vitest';
import { cleanAndLenientUat } from '../fixtures/clean-and-lenient.ts';
import { validateShape as validate } from './tamper-probe.ts';

const FAULT = 'jose-tag-unchecked-other-recipient';

const m = cleanAndLenientUat('envprop');

describe(`${FAULT}: caught by two recipients, missed by one`, () => {
  it('clean mock: two recipients refused (HARD-03), tampered or not; one recipient with a flipped tag refused', async () => {
    m.clean.faults.set([]);
    expect([
      await validate(m.pc, 'two-recipients', false),
      await validate(m.pc, 'two-recipients', true),
      await validate(m.pc, 'single', true),
      await validate(m.pc, 'single', false),
    ]).toEqual([400, 400, 400, 200]);
  });

  it('with the fault: two recipients accepted, the flipped tag too; one recipient with a flipped tag still refused (T4 misses it)', async () => {
    m.clean.faults.set([FAULT]);
    try {
      expect([
        await validate(m.pc, 'two-recipients', false),
        await validate(m.pc, 'two-recipients', true),
        await validate(m.pc, 'single', true),
      ]).toEqual([200, 200, 400]);
    } finally {
      m.clean.faults.set([]);
    }
  });

  it('lenient mock (several recipients allowed by the RFC): the unmutated envelope accepted, the flipped tag refused', async () => {
    expect([await validate(m.pl, 'two-recipients', false), await validate(m.pl, 'two-recipients', true)]).toEqual([
      200, 400,
    ]);
  });
});
