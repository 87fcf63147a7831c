/** lib/data: seeded, replayable, and inside the contract's rules for a transfer body. */
import { describe, expect, test } from 'vitest';
import { createTestData, decimalsOf, PURPOSE_CODES, REMARKS_MAX, runSeed } from '../../lib/data/index.ts';

const sample = (seed: number): unknown[] => {
  const d = createTestData(seed);
  return Array.from({ length: 30 }, () => [d.payeeName(), d.transferFields('AED'), d.amount('JPY')]);
};

describe('test data', () => {
  test('one seed, one sequence; another seed, another sequence', () => {
    expect(sample(42)).toEqual(sample(42));
    expect(sample(42)).not.toEqual(sample(43));
  });

  test('amounts: positive decimal strings with the currency decimals (at most 2), within the range', () => {
    const d = createTestData(7);
    for (let i = 0; i < 200; i++) {
      const a = d.amount('AED', { min: 0.01, max: 100 });
      expect(a.value).toMatch(/^\d+\.\d{2}$/);
      expect(Number(a.value)).toBeGreaterThan(0);
      expect(Number(a.value)).toBeLessThanOrEqual(100);
      expect(d.amount('JPY').value).toMatch(/^[1-9]\d*$/);
    }
    expect(decimalsOf('JPY')).toBe(0);
    expect(decimalsOf('KWD')).toBe(2);
    expect(() => d.amount('AED', { min: 10, max: 1 })).toThrow(/below min/);
  });

  test('remarks and payee names: bounded free text, some of it beyond ASCII; purpose codes from the list', () => {
    const d = createTestData(11);
    const texts = Array.from({ length: 200 }, () => [d.remarks(), d.payeeName()]).flat();
    for (const t of texts) {
      expect([...t].length).toBeLessThanOrEqual(REMARKS_MAX);
      expect(t.trim().length).toBeGreaterThan(0);
    }
    expect(texts.some((t) => /[^\u0000-\u007f]/.test(t))).toBe(true);
    for (let i = 0; i < 50; i++) expect(PURPOSE_CODES).toContain(d.purposeCode());
  });

  test('a run seed: the fixed one when given, else a fresh non-negative integer', () => {
    expect(runSeed(5)).toBe(5);
    const s = runSeed();
    expect(Number.isInteger(s) && s >= 0).toBe(true);
  });
});
