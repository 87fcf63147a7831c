/**
 * What the two fast paths' differential tests share (test/jose/open-fast.test.ts for the harness's opener,
 * test/mock/open-fast.test.ts for the mock's): the one-place alterations of a base64url member, and jose pinned to
 * the profile's algorithms, the judge both fast paths must agree with.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';

export type Json = Record<string, unknown>;

export const b64 = (s: string): string => Buffer.from(s).toString('base64url');
export const first = (o: Json, list: string): Json => (o[list] as Json[])[0]!;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * one alteration of a b64url string member: a character, one too few or too many, padding, a space, or the lowest
 * bit of the last character flipped (a spare bit where 2 or 3 characters are left over: the same bytes, the one
 * alteration a fast path may take, weighted so that every run has some)
 */
export const alterString = fc.oneof(
  fc.nat().map((i) => (v: string) => {
    const at = i % Math.max(1, v.length);
    const c = v[at] === 'A' ? 'B' : 'A';
    return `${v.slice(0, at)}${c}${v.slice(at + 1)}`;
  }),
  fc.constant((v: string) => v.slice(0, -1)),
  fc.constant((v: string) => `${v}=`),
  fc.constant((v: string) => ` ${v}`),
  fc.constant((v: string) => `${v}AAAA`),
  {
    weight: 5,
    arbitrary: fc.constant((v: string) => v.replace(/.$/, (c) => ALPHABET[ALPHABET.indexOf(c) ^ 1] ?? c)),
  },
);

export const JWE_MEMBERS = ['protected', 'encrypted_key', 'iv', 'ciphertext', 'tag'] as const;

/** what a fast path's differential test gives the shared properties: its envelopes, alterations and agreements */
export interface Agreement {
  /** the envelope and the signed document the fast path opens (made in the test's beforeAll) */
  jwe: () => Json;
  jws: () => Json;
  jweAlteration: fc.Arbitrary<(o: Json) => Json>;
  jwsAlteration: fc.Arbitrary<(o: Json) => Json>;
  /** true when the fast path opened nothing, or jose opens the same bytes; each counts what the fast path opened */
  jweAgrees: (o: Json) => Promise<boolean>;
  jwsAgrees: (o: Json) => Promise<boolean>;
  counts: { jweFast: number; jwsFast: number };
}

/** the seed of the differential properties: the same alterations every run, so that the guard below never flakes */
export const DIFFERENTIAL_SEED = 4648;

/**
 * a differential property over one layer: every alteration of the base that the fast path still opens, jose opens
 * to the same bytes (`agrees`); answers how many ALTERED envelopes (another text than the base's) the fast path
 * took (`taken` counts every envelope it took, read before and after each call), so that a guard proves the fast
 * path was exercised by the alterations, not by the unaltered base
 */
export async function alteredTaken(
  base: () => Json,
  alteration: fc.Arbitrary<(o: Json) => Json>,
  agrees: (o: Json) => Promise<boolean>,
  taken: () => number,
  numRuns = 150,
): Promise<number> {
  let altered = 0;
  await fc.assert(
    fc.asyncProperty(alteration, async (alter) => {
      const b = base();
      const o = alter(b);
      const before = taken();
      const ok = await agrees(o);
      if (taken() > before && JSON.stringify(o) !== JSON.stringify(b)) altered++;
      return ok;
    }),
    { numRuns, seed: DIFFERENTIAL_SEED },
  );
  return altered;
}

/**
 * the two properties both differential tests hold their fast path to: whatever it still opens of an altered JWE, or
 * verifies of an altered JWS, jose opens to the same bytes; and the fast path took some ALTERED envelopes (a spare
 * bit in the last character keeps one valid), so that neither property is vacuous
 */
export function agreesWithJose(a: Agreement): void {
  it('whatever it still opens of an altered JWE, jose opens to the same plaintext', async () => {
    expect.hasAssertions();
    expect(await alteredTaken(a.jwe, a.jweAlteration, a.jweAgrees, () => a.counts.jweFast)).toBeGreaterThan(0);
  });

  it('whatever it still verifies of an altered JWS, jose verifies to the same payload', async () => {
    expect.hasAssertions();
    expect(await alteredTaken(a.jws, a.jwsAlteration, a.jwsAgrees, () => a.counts.jwsFast)).toBeGreaterThan(0);
  });
}
