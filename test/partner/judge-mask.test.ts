/**
 * MASK-05's judge itself, property-checked (docs/partner.md): for random identifiers and random partial reveals, it
 * finds exactly those that show a character the mask hides; the exact mask, a value that hides more, and values
 * unrelated to the identifier are never found; a mask of another length always is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mask } from '../../lib/mask/index.ts';
import { describeFinding, maskFindings } from '../../lib/partner/judge/judge-mask.ts';

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));
/** an identifier and, per character, whether a client's "mask" keeps it */
const idAndReveal = digits(8, 20).chain((id) =>
  fc.tuple(fc.constant(id), fc.array(fc.boolean(), { minLength: id.length, maxLength: id.length })),
);
const hiddenAt = (i: number, n: number) => i >= 4 && i < n - 3;
const body = (v: string) => JSON.stringify({ account_id: v, amount: { value: '150.00', currency: 'AED' } });

describe('MASK-05 judge (judge-mask.ts)', () => {
  it('finds a partial reveal exactly when it shows a character the mask hides', () => {
    fc.assert(
      fc.property(idAndReveal, ([id, keep]) => {
        const sent = [...id].map((c, i) => (keep[i] ? c : 'x')).join('');
        const revealsHidden = keep.some((k, i) => k && hiddenAt(i, id.length));
        const found = maskFindings(body(sent), [id]);
        expect(found.length > 0).toBe(revealsHidden);
        // a partial reveal (not the clear id itself) is named as such, with the count of hidden characters shown
        const partial = revealsHidden && sent !== id;
        expect(partial ? { kind: found[0]?.kind, revealed: found[0]?.revealed } : null).toEqual(
          partial ? { kind: 'reveals', revealed: keep.filter((k, i) => k && hiddenAt(i, id.length)).length } : null,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('never finds the exact mask, or an unrelated identifier-shaped value', () => {
    fc.assert(
      fc.property(digits(8, 20), digits(8, 20), (id, other) => {
        fc.pre(!other.includes(id) && !id.includes(other));
        expect(maskFindings(body(mask(id)), [id])).toEqual([]);
        expect(maskFindings(body(other), [id])).toEqual([]);
        expect(maskFindings(body(mask(other)), [id]).filter((f) => f.kind !== 'wrong-length')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('always finds a mask of the wrong length, and says the expected mask beside what was sent', () => {
    fc.assert(
      fc.property(digits(8, 20), fc.integer({ min: -3, max: 3 }), (id, delta) => {
        fc.pre(delta !== 0 && id.length - 7 + delta >= 1);
        const sent = id.slice(0, 4) + 'x'.repeat(id.length - 7 + delta) + id.slice(-3);
        const found = maskFindings(body(sent), [id]);
        expect(found.map((f) => f.kind)).toEqual(['wrong-length']);
        expect(describeFinding(found[0]!)).toContain(`the mask is ${mask(id)}`);
        expect(describeFinding(found[0]!)).not.toContain(id);
      }),
      { numRuns: 300 },
    );
  });

  it('six leading characters instead of four: found, with the mask beside it and never the clear id', () => {
    const id = '1234567890123';
    const [f] = maskFindings(`/v1/x?a=${'123456'}xxxx123`, [id]);
    expect(describeFinding(f!)).toBe('"123456xxxx123" shows 2 character(s) the mask hides (the mask is 1234xxxxxx123)');
  });
});
