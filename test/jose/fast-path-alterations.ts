/**
 * What the two fast paths' differential tests share (test/jose/open-fast.test.ts for the harness's opener,
 * test/mock/open-fast.test.ts for the mock's): the one-place alterations of a base64url member, and jose pinned to
 * the profile's algorithms, the judge both fast paths must agree with.
 */
import fc from 'fast-check';

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
