/**
 * The mock opener's fast path (lib/mock/jose/open-fast.ts) only ever accepts what jose accepts, with the same bytes:
 * the harness's own envelopes take it, and of a canonical envelope altered in any one place (a byte, padding, a
 * space, a header, an extra member) whatever the fast path still opens, jose (pinned as the opener pins it) opens
 * to the same plaintext or payload. Refusals are never the fast path's: it answers undefined and jose decides.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { flattenedDecrypt, flattenedVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { seal } from '../../lib/jose/seal.ts';
import { decryptCanonical, verifyCanonical } from '../../lib/mock/jose/open-fast.ts';
import { DOC, makeWorld, type World } from '../jose/helpers.ts';
import { agreesWithJose, alterString, b64, first, JWE_MEMBERS, type Json } from '../jose/fast-path-alterations.ts';

let w: World;
let bankKey: KeyObject;
let clientKey: KeyObject;
let jwe: Json;
let jws: Json;

beforeAll(async () => {
  w = makeWorld();
  bankKey = createPrivateKey(w.bank.priv);
  clientKey = createPublicKey(w.client.pub);
  jwe = (await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub })) as unknown as Json;
  const plaintext = await flattenedDecrypt(flat(jwe), bankKey);
  jws = JSON.parse(Buffer.from(plaintext.plaintext).toString('utf8')) as Json;
});

/** the general JSON object as jose's flattened form (what the opener hands to jose) */
function flat(o: Json): Parameters<typeof flattenedDecrypt>[0] {
  const r = first(o, 'recipients');
  const { recipients: _, ...rest } = o;
  return { ...rest, ...r } as unknown as Parameters<typeof flattenedDecrypt>[0];
}
function flatJws(o: Json): Parameters<typeof flattenedVerify>[0] {
  const s = first(o, 'signatures');
  return { payload: o.payload, ...s } as unknown as Parameters<typeof flattenedVerify>[0];
}

const JWE_HEADERS = [
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' },
  { enc: 'A256CBC-HS512', alg: 'RSA-OAEP-256' },
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', kid: 'k' },
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', zip: 'DEF' },
  { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' },
  { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' },
];
const jweAlteration = fc.oneof(
  fc.tuple(fc.constantFrom(...JWE_MEMBERS), alterString).map(([m, f]) => (o: Json): Json => {
    const r = { ...first(o, 'recipients') };
    if (m === 'encrypted_key') return { ...o, recipients: [{ ...r, encrypted_key: f(r.encrypted_key as string) }] };
    return { ...o, [m]: f(o[m] as string) };
  }),
  fc.constantFrom(...JWE_HEADERS).map((h) => (o: Json): Json => ({ ...o, protected: b64(JSON.stringify(h)) })),
  fc
    .constantFrom<[string, unknown]>(['aad', b64('x')], ['unprotected', { kid: 'k' }], ['extra', 1])
    .map(([k, v]) => (o: Json): Json => ({ ...o, [k]: v })),
  fc.constant((o: Json): Json => ({ ...o, recipients: [{ ...first(o, 'recipients'), header: { kid: 'k' } }] })),
  fc.constant((o: Json): Json => ({ ...o, recipients: [first(o, 'recipients'), first(o, 'recipients')] })),
);
const jwsAlteration = fc.oneof(
  fc.tuple(fc.constantFrom('payload', 'protected', 'signature'), alterString).map(([m, f]) => (o: Json): Json => {
    const s = { ...first(o, 'signatures') };
    if (m === 'payload') return { ...o, payload: f(o.payload as string) };
    return { ...o, signatures: [{ ...s, [m]: f(s[m] as string) }] };
  }),
  fc
    .constantFrom({ alg: 'RS256', kid: 'k' }, { alg: 'RS512' }, { alg: 'RS256', b64: false }, { alg: 'PS256' })
    .map((h) => (o: Json): Json => ({
      ...o,
      signatures: [{ ...first(o, 'signatures'), protected: b64(JSON.stringify(h)) }],
    })),
  fc.constant((o: Json): Json => ({ ...o, signatures: [{ ...first(o, 'signatures'), header: { kid: 'k' } }] })),
  fc.constant((o: Json): Json => ({ ...o, extra: 1 })),
);

const JWE_PIN = { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] };
const counts = { jweFast: 0, jwsFast: 0 };

/** true when the fast path opened nothing, or jose opens the same bytes */
async function jweAgrees(o: Json): Promise<boolean> {
  const fast = await decryptCanonical(o, first(o, 'recipients'), bankKey);
  if (fast === undefined) return true;
  counts.jweFast++;
  const out = await flattenedDecrypt(flat(o), bankKey, JWE_PIN).catch(() => undefined);
  return out !== undefined && Buffer.from(out.plaintext).equals(Buffer.from(fast));
}
async function jwsAgrees(o: Json): Promise<boolean> {
  const fast = verifyCanonical(o, first(o, 'signatures'), clientKey);
  if (fast === undefined) return true;
  counts.jwsFast++;
  const out = await flattenedVerify(flatJws(o), clientKey, { algorithms: ['RS256'] }).catch(() => undefined);
  return out !== undefined && Buffer.from(out.payload).equals(Buffer.from(fast));
}

describe('the fast path accepts only what jose accepts, to the same bytes', () => {
  it("opens the harness's own envelope (lib/jose seal) as jose does", async () => {
    expect.hasAssertions();
    const plaintext = await decryptCanonical(jwe, first(jwe, 'recipients'), bankKey);
    const payload = verifyCanonical(jws, first(jws, 'signatures'), clientKey);
    expect(Buffer.from(plaintext!).toString('utf8')).toBe(JSON.stringify(jws));
    expect(JSON.parse(Buffer.from(payload!).toString('utf8'))).toEqual(DOC);
    expect(await jweAgrees(jwe)).toBe(true);
    expect(await jwsAgrees(jws)).toBe(true);
  });

  agreesWithJose({
    jwe: () => jwe,
    jws: () => jws,
    jweAlteration,
    jwsAlteration,
    jweAgrees: (o) => jweAgrees(o),
    jwsAgrees: (o) => jwsAgrees(o),
    counts,
  });

  it('refuses nothing itself: a tampered tag or signature is left to jose', async () => {
    expect.hasAssertions();
    const tag = jwe.tag as string;
    const tampered = { ...jwe, tag: `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}` };
    expect(await decryptCanonical(tampered, first(tampered, 'recipients'), bankKey)).toBeUndefined();
    const s = first(jws, 'signatures');
    const sig = s.signature as string;
    const forged = { ...jws, signatures: [{ ...s, signature: `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}` }] };
    expect(verifyCanonical(forged, first(forged, 'signatures'), clientKey)).toBeUndefined();
  });
});
