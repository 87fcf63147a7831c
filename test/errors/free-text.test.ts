/**
 * The free-text and boundary classes of the invalid-documents property (suites/errors/free-text.ts, coverage.ts):
 * the texts hold what they are named for (read with Unicode properties, not with the module's own helpers), at the
 * profile's length (`contract.freeText`), for each member it names; no member, no free-text document.
 */
import { describe, expect, it } from 'vitest';
import { documentClass, documentCoverage } from '../../suites/errors/coverage.ts';
import { freeTextOf } from '../../suites/errors/free-text.ts';
import { BASE } from './oracle.ts';

const cps = (s: string): number => Array.from(s).length;

describe('free text a core system may choke on', () => {
  it('the non-ASCII text (and its short form) holds Arabic, accented Latin, a character past U+FFFF, a combining mark', () => {
    const kinds = [/\p{Script=Arabic}/u, /[À-ɏ]/u, /[\u{10000}-\u{10FFFF}]/u, /\p{M}/u];
    for (const n of [140, 35]) {
      const t = freeTextOf('non-ASCII', n);
      expect(kinds.map((re) => re.test(t))).toEqual([true, true, true, true]);
      expect(cps(t)).toBeLessThanOrEqual(n);
    }
  });

  it('the longest text is exactly the length, non-ASCII, one UTF-16 unit a character, not ending in a space', () => {
    for (const n of [1, 35, 140, 500]) {
      const t = freeTextOf('longest', n);
      expect([cps(t), t.length, /[^\x20-\x7e]/u.test(t), /\s$/u.test(t)]).toEqual([n, n, true, false]);
      expect(Buffer.byteLength(t, 'utf8')).toBeGreaterThan(n);
    }
  });

  it('the profile’s members and length decide the free-text documents', () => {
    const own = documentCoverage({ ...BASE, freeText: { members: ['remarks', 'purpose_code'], maxLength: 35 } });
    const free = own.flatMap((d) => (d.kind === 'valid' && d.of?.kind === 'free-text' ? [d] : []));
    expect(free.map(documentClass)).toEqual([
      'valid, remarks non-ASCII',
      'valid, remarks longest',
      'valid, purpose_code non-ASCII',
      'valid, purpose_code longest',
    ]);
    for (const d of free) {
      const member = d.of?.kind === 'free-text' ? d.of.member : '';
      expect(cps(d.body[member] as string)).toBeLessThanOrEqual(35);
    }
    expect(cps(free[1]!.body.remarks as string)).toBe(35);
    const own2 = documentCoverage({ ...BASE, smallestAmount: '10' });
    expect(own2.filter((d) => d.kind === 'valid' && d.of?.kind === 'smallest-amount').map((d) => d.label)).toEqual([
      'amount.value "10", the smallest amount',
    ]);
    const none = documentCoverage({ ...BASE, freeText: { members: [], maxLength: 140 } });
    expect(none.filter((d) => d.kind === 'valid' && d.of?.kind === 'free-text')).toEqual([]);
  });

  it('a zero in every spelling the format admits, -0.01 and 0.001 are in the list; 0.01 is a valid one', () => {
    const values = documentCoverage(BASE).map((d) =>
      d.kind === 'malformed' ? undefined : (d.body.amount as { value?: unknown } | undefined)?.value,
    );
    for (const v of ['0', '0.0', '0.00', '00', '00.0', '00.00', '000', '-0', '-0.0', '-0.00', '-0.01', '0.001', '0.01'])
      expect(values).toContain(v);
  });
});
