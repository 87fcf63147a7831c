/**
 * The masking rule (specification §2) as properties of the harness's own `mask` (lib/mask): selftests only. The rule is
 * written out here with its own literal figures (first 4 and last 3 code points kept, `x` between, the length
 * kept, ids under 8 refused), never with lib/mask's constants nor the masking suite's judge (suites/masking/rule.ts):
 * a wrong constant there must make these properties fail, not pass along with it.
 */
import fc from 'fast-check';
import { looksMasked, mask } from '../../lib/mask/index.ts';

/** the specification's rule, independently: the expected mask of an id of 8 or more code points */
export function seedMask(id: string): string {
  const cps = Array.from(id);
  return `${cps.slice(0, 4).join('')}${'x'.repeat(cps.length - 7)}${cps.slice(-3).join('')}`;
}

/** the number of `x` characters (code points) */
export const xCount = (s: string): number => Array.from(s).filter((c) => c === 'x').length;

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
export const anyId = (minLength = 8, maxLength = 40): fc.Arbitrary<string> => fc.string({ unit, minLength, maxLength });

/** digit ids of an exact length (the specification's examples are account numbers) */
export const digitId = (length: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });

/**
 * MASK-01 over arbitrary ids for a masking function (default: lib/mask's); throws fast-check's report (with seed
 * and counterexample) when it breaks
 */
export function assertMaskRule(numRuns = 300, masker: (id: string) => string = mask): void {
  fc.assert(
    fc.property(anyId(), (id) => {
      const m = masker(id);
      if (m !== seedMask(id)) throw new Error(`mask of ${JSON.stringify(id)} is ${JSON.stringify(m)}`);
      return looksMasked(m);
    }),
    { numRuns, includeErrorInReport: true },
  );
  // shorter ids cannot be masked without showing them whole: mask refuses them
  fc.assert(
    fc.property(anyId(0, 7), (id) => {
      try {
        masker(id);
        return false;
      } catch (e) {
        return e instanceof RangeError;
      }
    }),
    { numRuns: 50, includeErrorInReport: true },
  );
}

/**
 * MASK-02: the specification's examples (13 characters -> 6 x, 19 -> 12), literally and over digit ids of those lengths
 */
export const SEED_EXAMPLES: readonly { length: number; xs: number }[] = [
  { length: 13, xs: 6 },
  { length: 19, xs: 12 },
];
export function assertSeedExamples(numRuns = 100): void {
  for (const { length, xs } of SEED_EXAMPLES) {
    const literal = '1234567890123456789'.slice(0, length);
    const m = mask(literal);
    if (xCount(m) !== xs || Array.from(m).length !== length)
      throw new Error(
        `mask of a ${length}-character id has ${xCount(m)} x and length ${Array.from(m).length}, expected ${xs} x`,
      );
    fc.assert(
      fc.property(digitId(length), (id) => xCount(mask(id)) === xs && Array.from(mask(id)).length === length),
      { numRuns, includeErrorInReport: true },
    );
  }
}
