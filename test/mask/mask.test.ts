/**
 * lib/mask against the specification's rule (§2): properties over arbitrary ids, the specification's examples, and the
 * helpers; and the masking suite's judge (suites/masking/rule.ts) against literal vectors. Both are judged with figures
 * written out here (test/mask/properties.ts), never with lib/mask's MASK_KEEP_* constants or the suite's own judge.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMaskOf, looksMasked, mask } from '../../lib/mask/index.ts';
import { ruleViolation } from '../../suites/masking/rule.ts';
import { anyId, assertMaskRule, assertSeedExamples, digitId, xCount } from './properties.ts';

describe('mask (MASK-01)', () => {
  it('keeps the first 4 and last 3 code points, x between, same length: any id of 8+ code points, astral included', () => {
    expect(() => assertMaskRule(500)).not.toThrow();
  });

  it('never splits an astral character', () => {
    const id = '\u{1F600}\u{1F601}\u{1F602}\u{1F603}abcdef\u{10FFFF}\u{1F604}\u{1F605}';
    const m = mask(id);
    expect(Array.from(m)).toHaveLength(Array.from(id).length);
    expect(m).toBe('\u{1F600}\u{1F601}\u{1F602}\u{1F603}xxxxxx\u{10FFFF}\u{1F604}\u{1F605}');
  });

  it('refuses ids shorter than 8 code points (they cannot be masked without showing them whole)', () => {
    for (const id of ['', '1234567', '\u{1F600}'.repeat(7)]) expect(() => mask(id)).toThrow(RangeError);
    expect(mask('12345678')).toBe('1234x678');
  });

  it('is idempotent and recognised by looksMasked / isMaskOf', () => {
    expect(() =>
      fc.assert(
        fc.property(anyId(), (id) => {
          const m = mask(id);
          return mask(m) === m && looksMasked(m) && isMaskOf(m, id);
        }),
      ),
    ).not.toThrow();
  });
});

describe('the masking suite’s judge (ruleViolation), on literal vectors', () => {
  it('accepts exactly the rule’s mask, and names each way a value can break the rule', () => {
    const id = '1234567890123';
    expect(ruleViolation(id, '1234xxxxxx123')).toBeUndefined();
    expect(ruleViolation('12345678', '1234x678')).toBeUndefined();
    expect(ruleViolation('AE070331234567890123456', 'AE07xxxxxxxxxxxxxxxx456')).toBeUndefined();
    expect(ruleViolation(id, '1234XXXXXX123')).toMatch(/not "x"/);
    expect(ruleViolation(id, '1234*****123')).toMatch(/length 12/);
    expect(ruleViolation(id, '9234xxxxxx123')).toMatch(/first 4/);
    expect(ruleViolation(id, '1234xxxxxx129')).toMatch(/last 3/);
    // a judge keeping 3 or 5 at the head, or 2 or 4 at the tail, gets one of these wrong
    expect(ruleViolation(id, '123xxxxxxx123')).toMatch(/first 4/);
    expect(ruleViolation(id, '12345xxxxx123')).toMatch(/not "x"/);
    expect(ruleViolation(id, '1234xxxxxxx23')).toMatch(/last 3/);
    expect(ruleViolation(id, '1234xxxxx0123')).toMatch(/not "x"/);
  });
});

describe("mask: the specification's examples (MASK-02)", () => {
  it('a 13-character id has 6 x, a 19-character id has 12', () => {
    expect(mask('1234567890123')).toBe('1234xxxxxx123');
    expect(xCount(mask('1234567890123'))).toBe(6);
    expect(mask('1234567890123456789')).toBe('1234xxxxxxxxxxxx789');
    expect(xCount(mask('1234567890123456789'))).toBe(12);
    expect(() => assertSeedExamples(200)).not.toThrow();
  });

  it('literal vectors written out by hand from the rule (not computed by the code under test)', () => {
    const vectors: [string, string][] = [
      ['12345678', '1234x678'],
      ['1234567890', '1234xxx890'],
      ['AE070331234567890123456', 'AE07xxxxxxxxxxxxxxxx456'],
      ['784-1990-1234567-1', '784-xxxxxxxxxxx7-1'],
      ['xxxx12345xxx', 'xxxxxxxxxxxx'],
    ];
    for (const [id, want] of vectors) expect(mask(id), id).toBe(want);
  });

  it('holds for every digit id of those lengths', () => {
    expect(() => fc.assert(fc.property(digitId(13), (id) => xCount(mask(id)) === 6))).not.toThrow();
    expect(() => fc.assert(fc.property(digitId(19), (id) => xCount(mask(id)) === 12))).not.toThrow();
  });
});

describe('the property catches a wrong mask (the check can fail)', () => {
  it('a mask that drops one character, or keeps 3 at the head, breaks the property', () => {
    const drops = (id: string): string => {
      const a = Array.from(id);
      return a.slice(0, 4).join('') + 'x'.repeat(a.length - 8) + a.slice(-3).join('');
    };
    const head3 = (id: string): string => {
      const a = Array.from(id);
      return a.slice(0, 3).join('') + 'x'.repeat(a.length - 6) + a.slice(-3).join('');
    };
    expect(() => assertMaskRule(20, drops)).toThrow(/mask of/);
    expect(() => assertMaskRule(20, head3)).toThrow(/mask of/);
  });
});
