/** The masking rule (seed §2) as properties of the harness's own `mask` (lib/mask): selftests only. */
import fc from 'fast-check';
import { looksMasked, mask, MASK_MIN_LENGTH } from '../../lib/mask/index.ts';
import { countX, ruleViolation } from '../../suites/masking/rule.ts';

/**
 * one character: a digit, an x (to catch a rule that counts x), or any code point (astral included, lone
 * surrogates excluded). Built from an integer rather than fast-check's 'binary' string unit, whose set-up maps
 * every code point and costs about a second of CPU in each process that loads this module.
 */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCodePoint(c));
const unit = fc.oneof(fc.constantFrom(...'0123456789xX'), anyCodePoint);

/** ids of at least 8 characters (code points), any alphabet */
export const anyId = (minLength = MASK_MIN_LENGTH, maxLength = 40): fc.Arbitrary<string> =>
  fc.string({ unit, minLength, maxLength });

/** digit ids of an exact length (the seed's examples are account numbers) */
export const digitId = (length: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });

/** MASK-01 over arbitrary ids; throws fast-check's report (with seed and counterexample) when it breaks */
export function assertMaskRule(numRuns = 300): void {
  fc.assert(
    fc.property(anyId(), (id) => {
      const m = mask(id);
      const why = ruleViolation(id, m);
      if (why) throw new Error(why);
      return looksMasked(m);
    }),
    { numRuns, includeErrorInReport: true },
  );
  // shorter ids cannot be masked without showing them whole: mask refuses them
  fc.assert(
    fc.property(anyId(0, MASK_MIN_LENGTH - 1), (id) => {
      try {
        mask(id);
        return false;
      } catch (e) {
        return e instanceof RangeError;
      }
    }),
    { numRuns: 50, includeErrorInReport: true },
  );
}

/** MASK-02: the seed's examples (13 characters -> 6 x, 19 -> 12), literally and over digit ids of those lengths */
export const SEED_EXAMPLES: readonly { length: number; xs: number }[] = [
  { length: 13, xs: 6 },
  { length: 19, xs: 12 },
];
export function assertSeedExamples(numRuns = 100): void {
  for (const { length, xs } of SEED_EXAMPLES) {
    const literal = '1234567890123456789'.slice(0, length);
    const m = mask(literal);
    if (countX(m) !== xs || Array.from(m).length !== length)
      throw new Error(
        `mask of a ${length}-character id has ${countX(m)} x and length ${Array.from(m).length}, expected ${xs} x`,
      );
    fc.assert(
      fc.property(digitId(length), (id) => countX(mask(id)) === xs && Array.from(mask(id)).length === length),
      { numRuns, includeErrorInReport: true },
    );
  }
}
