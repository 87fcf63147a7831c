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

/** one alteration of a b64url string member: a character, one too few or too many, padding, a space */
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
  fc.constant((v: string) => v.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))),
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

/**
 * the two properties both differential tests hold their fast path to: whatever it still opens of an altered JWE, or
 * verifies of an altered JWS, jose opens to the same bytes; and some alterations kept the envelope valid (a spare bit
 * in the last character), so that neither property is vacuous
 */
export function agreesWithJose(a: Agreement): void {
  it('whatever it still opens of an altered JWE, jose opens to the same plaintext', async () => {
    expect.hasAssertions();
    await fc.assert(
      fc.asyncProperty(a.jweAlteration, (alter) => a.jweAgrees(alter(a.jwe()))),
      { numRuns: 150 },
    );
    expect(a.counts.jweFast).toBeGreaterThan(0);
  });

  it('whatever it still verifies of an altered JWS, jose verifies to the same payload', async () => {
    expect.hasAssertions();
    await fc.assert(
      fc.asyncProperty(a.jwsAlteration, (alter) => a.jwsAgrees(alter(a.jws()))),
      { numRuns: 150 },
    );
    expect(a.counts.jwsFast).toBeGreaterThan(0);
  });
}
