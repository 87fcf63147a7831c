/**
 * The generated transfer documents of property 2 (suites/errors/documents.ts), against an oracle written from
 * docs/contract.md ("Transfers"): a single-defect document breaks exactly its defect's member, a multi-defect one
 * exactly its defects' members, a valid one none; a malformed one is never JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  malformedDocument,
  multiDefectDocument,
  oneDefectDocument,
  transferDocument,
  validAmount,
  validDocument,
} from '../../suites/errors/documents.ts';
import { MEMBERS, mayName, type GeneratedDocument, type Json } from '../../suites/errors/defects.ts';
import { BASE, brokenMembers } from './oracle.ts';

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();
const invalidOf = (d: GeneratedDocument) => {
  if (d.kind !== 'invalid') throw new Error(`not an invalid document: ${d.kind}`);
  return d;
};

describe('generated transfer documents (property 2)', () => {
  it('a valid amount is a decimal string above zero with at most two decimals', () => {
    expect.hasAssertions();
    fc.assert(
      fc.property(validAmount, (v) => {
        expect(/^[1-9]\d*(\.\d{1,2})?$/.test(v)).toBe(true);
      }),
    );
  });

  it('a valid document breaks no member', () => {
    expect.hasAssertions();
    fc.assert(
      fc.property(validDocument(BASE), (d) => {
        expect(sorted(brokenMembers((d as { body: Json }).body))).toEqual([]);
      }),
    );
  });

  it('a single-defect document breaks exactly its defect member', () => {
    expect.hasAssertions();
    fc.assert(
      fc.property(oneDefectDocument(BASE), (g) => {
        const d = invalidOf(g);
        expect(d.defects).toHaveLength(1);
        expect(sorted(brokenMembers(d.body))).toEqual([d.defects[0]!.member]);
      }),
      { numRuns: 500 },
    );
  });

  it('every member and every kind of defect is generated', () => {
    expect.hasAssertions();
    const seen = new Set<string>();
    fc.assert(
      fc.property(oneDefectDocument(BASE), (g) => {
        const d = invalidOf(g).defects[0]!;
        seen.add(`${d.member}/${d.kind}`);
      }),
      { numRuns: 800, seed: 20 },
    );
    for (const m of MEMBERS) expect(seen).toContain(`${m}/missing`);
    for (const m of MEMBERS) expect(seen).toContain(`${m}/wrong-type`);
    for (const k of ['non-positive', 'over-precise', 'not-decimal']) expect(seen).toContain(`amount.value/${k}`);
    expect(seen).toContain('amount.currency/unknown-currency');
  });

  it('a multi-defect document breaks exactly its defects members, each named acceptably', () => {
    expect.hasAssertions();
    fc.assert(
      fc.property(multiDefectDocument(BASE), (g) => {
        const d = invalidOf(g);
        const members = d.defects.map((x) => x.member);
        expect(new Set(members).size).toBe(members.length);
        expect(members.length).toBeGreaterThanOrEqual(2);
        expect(sorted(brokenMembers(d.body))).toEqual(sorted(members));
        for (const m of members) expect(mayName(d.defects, m)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('the amount sent as another type may be named amount or a member inside it; nothing else', () => {
    expect.hasAssertions();
    const wrong = [{ member: 'amount' as const, kind: 'wrong-type' as const, value: '150.00', label: '' }];
    expect([mayName(wrong, 'amount'), mayName(wrong, 'amount.value'), mayName(wrong, 'amounts')]).toEqual([
      true,
      true,
      false,
    ]);
    const missing = [{ member: 'amount.value' as const, kind: 'missing' as const, label: '' }];
    expect([mayName(missing, 'amount.value'), mayName(missing, 'amount'), mayName(missing, undefined)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('a malformed document is never JSON and never empty', () => {
    expect.hasAssertions();
    fc.assert(
      fc.property(malformedDocument(BASE), (d) => {
        const text = (d as { text: string }).text;
        expect(text.trim().length).toBeGreaterThan(0);
        expect(() => JSON.parse(text) as unknown).toThrow();
      }),
    );
  });

  it('200 runs try the string/number confusions several times over, whatever the seed', () => {
    expect.hasAssertions();
    const counts = Array.from({ length: 30 }, (_, seed) => {
      const docs = fc.sample(transferDocument(BASE), { numRuns: 200, seed });
      const one = docs.flatMap((d) => (d.kind === 'invalid' && d.defects.length === 1 ? d.defects : []));
      return {
        amountString: one.filter((d) => d.member === 'amount' && typeof d.value === 'string' && /^\d/.test(d.value))
          .length,
        valueNumber: one.filter((d) => d.member === 'amount.value' && typeof d.value === 'number').length,
      };
    });
    // about 9 each on average (4.5 % of the documents): at least 2 on every one of 30 seeds
    expect(Math.min(...counts.map((c) => Math.min(c.amountString, c.valueNumber)))).toBeGreaterThanOrEqual(2);
  });

  it('a failing document with several defects shrinks to the one defect that fails alone', () => {
    expect.hasAssertions();
    // a target that crashes on an amount sent as a string, whatever else is wrong
    const crashes = (d: GeneratedDocument): boolean => d.kind === 'invalid' && typeof d.body.amount === 'string';
    const runs = Array.from({ length: 12 }, (_, seed) => {
      const firstFound = fc.sample(transferDocument(BASE), { seed, numRuns: 300 }).find(crashes);
      const r = fc.check(
        fc.property(transferDocument(BASE), (d) => !crashes(d)),
        { seed, numRuns: 300 },
      );
      const shrunk = r.counterexample?.[0];
      return {
        firstDefects: firstFound?.kind === 'invalid' ? firstFound.defects.length : 0,
        shrunk: shrunk?.kind === 'invalid' ? shrunk.defects.map((d) => `${d.member}/${d.kind}`) : [],
      };
    });
    // some searches first met the crash in a document with several defects: every one ended on the single defect
    expect(runs.some((r) => r.firstDefects > 1)).toBe(true);
    expect(runs.map((r) => r.shrunk)).toEqual(runs.map(() => ['amount/wrong-type']));
  });

  it('a seed gives the same documents again (replay: the arbitrary depends on the base only)', () => {
    expect.hasAssertions();
    const again = (seed: number) => fc.sample(transferDocument(structuredClone(BASE)), { seed, numRuns: 50 });
    expect(again(123)).toEqual(again(123));
    expect(again(123)).not.toEqual(again(124));
  });

  it('the mix holds every kind of document', () => {
    expect.hasAssertions();
    const kinds = new Set(fc.sample(transferDocument(BASE), { numRuns: 300, seed: 7 }).map((d) => d.kind));
    expect(sorted(kinds)).toEqual(['invalid', 'malformed', 'valid']);
  });
});
