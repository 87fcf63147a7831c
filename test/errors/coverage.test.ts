/**
 * The coverage list of the invalid-documents property (suites/errors/coverage.ts): every class of document the
 * generator can make is in it, whatever the seed, and each of its entries is a document of its class by an oracle
 * written apart from both (oracle.ts): a valid one breaks nothing, a defective one exactly its defects' members, a
 * cut one is no JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentClass, documentCoverage } from '../../suites/errors/coverage.ts';
import { transferDocument } from '../../suites/errors/documents.ts';
import { BASE, brokenMembers } from './oracle.ts';

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();
const coverage = documentCoverage(BASE);
const covered = new Set(coverage.map(documentClass));

describe('the coverage list of the invalid-documents property', () => {
  it('holds every class the generator makes (8 seeds of 1000 documents)', () => {
    expect.hasAssertions();
    const made = new Set<string>();
    for (let seed = 1; seed <= 8; seed++)
      for (const d of fc.sample(transferDocument(BASE), { seed, numRuns: 1000 })) made.add(documentClass(d));
    expect(sorted([...made].filter((c) => !covered.has(c)))).toEqual([]);
    // and the generator makes every class of the list (no class of the list is one the property never draws)
    expect(sorted([...covered].filter((c) => !made.has(c)))).toEqual([]);
  });

  it('names every member missing and sent as each other JSON type, and the text classes of the forbidden values', () => {
    expect.hasAssertions();
    for (const m of ['beneficiary_id', 'amount', 'amount.value', 'amount.currency', 'account_id']) {
      expect(covered).toContain(`${m} missing`);
      for (const t of ['number', 'boolean', 'null', 'array']) expect(covered).toContain(`${m} wrong-type ${t}`);
    }
    expect(covered).toContain('amount wrong-type string (a decimal)');
    expect(covered).toContain('amount.value wrong-type number');
    for (const t of ['empty', 'blank', 'inner whitespace', 'other characters', 'mixed-case letters'])
      expect(covered).toContain(`amount.value not-decimal string (${t})`);
    for (const t of ['non-ASCII', 'three capitals', 'capitals, not three'])
      expect(covered).toContain(`amount.currency unknown-currency string (${t})`);
    for (const c of ['valid', 'malformed', 'several defects']) expect(covered).toContain(c);
  });

  it('each entry is a document of its class: valid breaks nothing, a defect exactly its members, cut text no JSON', () => {
    expect.hasAssertions();
    const wrong = coverage.flatMap((d) => {
      if (d.kind === 'malformed') {
        let json = true;
        try {
          JSON.parse(d.text);
        } catch {
          json = false;
        }
        return json || d.text.length === 0 ? [d.label] : [];
      }
      const want = d.kind === 'valid' ? [] : sorted(d.defects.map((x) => x.member));
      return JSON.stringify(sorted(brokenMembers(d.body))) === JSON.stringify(want) ? [] : [d.label];
    });
    expect(wrong).toEqual([]);
  });

  it('sends each document once, and the profile’s invalid currency among them', () => {
    expect.hasAssertions();
    const keys = coverage.map((d) => (d.kind === 'malformed' ? d.text : JSON.stringify(d.body)));
    expect(new Set(keys).size).toBe(keys.length);
    const own = documentCoverage({ ...BASE, invalidCurrency: 'ABC' });
    expect(own.some((d) => d.kind === 'invalid' && d.defects.some((x) => x.value === 'ABC'))).toBe(true);
    expect(coverage.length).toBeLessThan(80);
  });
});
