/**
 * Seeded test data (faker): payee names, remarks, purpose codes and amounts that a bank's validation accepts, varied
 * from one run to the next but replayable from the seed (printed in the report's run info). Unicode only where the
 * contract allows free text (remarks); identifiers stay ASCII. Used by the suites where a realistic body matters
 * and by the load scripts' data file (scripts/load.ts).
 */
import type { Faker } from '@faker-js/faker';
export { runSeed } from './seed.ts';
// per-locale entry points: the package's main entry loads every locale (~0.6 s), these a few (~0.1 s)
import { faker as arFaker } from '@faker-js/faker/locale/ar';
import { faker as enFaker } from '@faker-js/faker/locale/en';
import { faker as frFaker } from '@faker-js/faker/locale/fr';

/** a Faker of its own (the locale modules export shared singletons: two sessions must not share a sequence) */
function own(shared: Faker, seed: number): Faker {
  const FakerClass = shared.constructor as new (o: { locale: Faker['rawDefinitions'] }) => Faker;
  const f = new FakerClass({ locale: shared.rawDefinitions });
  f.seed(seed);
  return f;
}

/** ISO 4217 minor units of the currencies the mock lists; the contract allows at most 2 decimals on the wire */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  AED: 2,
  USD: 2,
  EUR: 2,
  GBP: 2,
  SAR: 2,
  INR: 2,
  JPY: 0,
  CHF: 2,
};
const WIRE_MAX_DECIMALS = 2;

/** purpose codes (UAE central bank style, as the contract's example "FAM") */
export const PURPOSE_CODES = ['FAM', 'SAL', 'RNT', 'EDU', 'MED', 'GDS', 'SRV', 'CHC', 'UTL', 'TRV'] as const;

/** free text limit used for remarks (the contract's default, `contract.freeText`, is 140 characters; kept well under) */
export const REMARKS_MAX = 60;

export interface Amount {
  value: string;
  currency: string;
}

export interface TestData {
  readonly seed: number;
  payeeName(): string;
  /** free text, sometimes in Arabic or with accents (unicode where the contract allows it) */
  remarks(): string;
  purposeCode(): string;
  /** a positive amount with the currency's decimals (at most 2 on the wire), between min and max */
  amount(currency: string, range?: { min?: number; max?: number }): Amount;
  /** a transfer body's free parts: amount, purpose_code, remarks */
  transferFields(currency: string): { amount: Amount; purpose_code: string; remarks: string };
}

export function decimalsOf(currency: string): number {
  // a currency outside the table: the wire's limit (the contract allows 2 decimals whatever the currency)
  return Math.min(MINOR_UNITS[currency] ?? WIRE_MAX_DECIMALS, WIRE_MAX_DECIMALS);
}

function clipText(s: string, n: number): string {
  const chars = [...s];
  return chars.length > n ? chars.slice(0, n).join('').trimEnd() : s;
}

export function createTestData(seed: number): TestData {
  const latin = own(enFaker, seed);
  const arabic = own(arFaker, seed + 1);
  const accented = own(frFaker, seed + 2);
  const pick = (): Faker =>
    latin.helpers.weightedArrayElement([
      { weight: 6, value: latin },
      { weight: 2, value: arabic },
      { weight: 2, value: accented },
    ]);
  const data: TestData = {
    seed,
    payeeName: () => clipText(pick().person.fullName(), REMARKS_MAX),
    remarks: () => {
      const f = pick();
      const text = latin.helpers.arrayElement([
        () => `${f.commerce.productName()} ${f.date.month()}`,
        () => `${latin.helpers.arrayElement(['rent', 'invoice', 'gift', 'fees'])} ${f.person.firstName()}`,
        () => f.lorem.words({ min: 2, max: 5 }),
      ])();
      return clipText(text, REMARKS_MAX);
    },
    purposeCode: () => latin.helpers.arrayElement(PURPOSE_CODES),
    amount: (currency, range = {}) => {
      const decimals = decimalsOf(currency);
      const step = 10 ** -decimals;
      const min = Math.max(range.min ?? 1, step);
      const max = range.max ?? 5_000;
      if (!(max >= min)) throw new Error(`lib/data: amount range max ${max} is below min ${min}`);
      const v = latin.number.float({ min, max, fractionDigits: decimals });
      return { value: v.toFixed(decimals), currency };
    },
    transferFields: (currency) => ({
      amount: data.amount(currency),
      purpose_code: data.purposeCode(),
      remarks: data.remarks(),
    }),
  };
  return data;
}
