/**
 * The fast paths' differential guard (fast-path-alterations.ts alteredTaken) counts the ALTERED envelopes a fast
 * path took: a fast path that takes the unaltered base only (and refuses, leaving it to jose, every alteration)
 * shows 0, however often the base itself or an alteration that leaves it unchanged went through it. The former guard
 * (the fast path's count > 0 after the property) was met by such a fast path: the unaltered envelopes counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alteredTaken, type Json } from './fast-path-alterations.ts';

const base: Json = { protected: 'eyJhbGciOiJSUzI1NiJ9', payload: 'QQ', signature: 'QUJD' };
const alteration = fc.oneof(
  fc.constant((o: Json): Json => ({ ...o })),
  fc.constant((o: Json): Json => ({ ...o, payload: 'QR' })),
  fc.constant((o: Json): Json => ({ ...o, signature: 'QUJE' })),
);

/** a fake fast path taking what `takes` says, counting each envelope taken */
function fastPath(takes: (o: Json) => boolean): { agrees: (o: Json) => Promise<boolean>; count: () => number } {
  let n = 0;
  return {
    agrees: async (o) => {
      if (takes(o)) n++;
      return true;
    },
    count: () => n,
  };
}

describe("the fast paths' differential guard", () => {
  it('counts nothing for a fast path that takes only the unaltered base', async () => {
    const f = fastPath((o) => JSON.stringify(o) === JSON.stringify(base));
    await f.agrees(base); // the base taken before the property (as the tests' first case does)
    expect(await alteredTaken(() => base, alteration, f.agrees, f.count, 60)).toBe(0);
    expect(f.count()).toBeGreaterThan(1);
  });

  it('counts the altered envelopes a fast path takes', async () => {
    const f = fastPath((o) => o.payload === 'QR');
    expect(await alteredTaken(() => base, alteration, f.agrees, f.count, 60)).toBeGreaterThan(0);
  });

  it('fails when the fast path and jose disagree', async () => {
    const f = fastPath(() => true);
    await expect(
      alteredTaken(
        () => base,
        alteration,
        async () => false,
        f.count,
        10,
      ),
    ).rejects.toThrow();
  });
});
