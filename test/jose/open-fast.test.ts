/**
 * The harness opener's fast path (lib/jose/open-fast.ts) only ever accepts what jose accepts, with the same bytes:
 * the envelopes lib/jose seal makes take it, and of a canonical layer altered in any one place (a byte, padding, a
 * space, a header, an extra member) whatever the fast path still opens, jose (pinned as open.ts pins it) opens to the
 * same plaintext or payload. Refusals are never the fast path's: it answers undefined and jose decides.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { flattenedDecrypt, flattenedVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/open.ts';
import { decryptCanonical, verifyCanonical } from '../../lib/jose/open-fast.ts';
import { seal } from '../../lib/jose/seal.ts';
import { DOC, makeWorld, rsaPair, type World } from './helpers.ts';
import { agreesWithJose, alterString, b64, first, JWE_MEMBERS, type Json } from './fast-path-alterations.ts';

let w: World;
let bankKey: KeyObject;
let clientKey: KeyObject;
/** the canonical layers as open.ts hands them to jose: flattened members of the one recipient / signature */
let jwe: Json;
let jws: Json;

function flatJwe(o: Json): Json {
  const { recipients: _, ...rest } = o;
  return { ...rest, ...first(o, 'recipients') };
}
function flatJws(o: Json): Json {
  return { payload: o.payload, ...first(o, 'signatures') };
}

beforeAll(async () => {
  w = makeWorld();
  bankKey = createPrivateKey(w.bank.priv);
  clientKey = createPublicKey(w.client.pub);
  const general = (await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub })) as unknown as Json;
  jwe = flatJwe(general);
  const plaintext = await flattenedDecrypt(jwe as unknown as Parameters<typeof flattenedDecrypt>[0], bankKey);
  jws = flatJws(JSON.parse(Buffer.from(plaintext.plaintext).toString('utf8')) as Json);
});

const JWE_HEADERS = [
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' },
  { enc: 'A256CBC-HS512', alg: 'RSA-OAEP-256' },
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', kid: 'k' },
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', zip: 'DEF' },
  { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', crit: ['x'], x: 1 },
  { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' },
  { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' },
];
const jweAlteration = fc.oneof(
  fc.tuple(fc.constantFrom(...JWE_MEMBERS), alterString).map(([m, f]) => (o: Json): Json => ({
    ...o,
    [m]: f(o[m] as string),
  })),
  fc.constantFrom(...JWE_HEADERS).map((h) => (o: Json): Json => ({ ...o, protected: b64(JSON.stringify(h)) })),
  fc
    .constantFrom<[string, unknown]>(
      ['aad', b64('x')],
      ['unprotected', { kid: 'k' }],
      ['header', { kid: 'k' }],
      ['extra', 1],
      ['iv', 1],
    )
    .map(([k, v]) => (o: Json): Json => ({ ...o, [k]: v })),
  fc.constantFrom(...JWE_MEMBERS).map((m) => (o: Json): Json => {
    const { [m]: _, ...rest } = o;
    return rest;
  }),
);
const jwsAlteration = fc.oneof(
  fc.tuple(fc.constantFrom('payload', 'protected', 'signature'), alterString).map(([m, f]) => (o: Json): Json => ({
    ...o,
    [m]: f(o[m] as string),
  })),
  fc
    .constantFrom(
      { alg: 'RS256', kid: 'k' },
      { alg: 'RS512' },
      { alg: 'RS256', b64: false, crit: ['b64'] },
      { alg: 'PS256' },
      { alg: 'none' },
    )
    .map((h) => (o: Json): Json => ({ ...o, protected: b64(JSON.stringify(h)) })),
  fc.constant((o: Json): Json => ({ ...o, header: { kid: 'k' } })),
  fc.constant((o: Json): Json => ({ ...o, extra: 1 })),
);

const JWE_PIN = { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] };
const counts = { jweFast: 0, jwsFast: 0 };

/** true when the fast path opened nothing, or jose opens the same bytes */
async function jweAgrees(o: Json, key = bankKey): Promise<boolean> {
  const fast = await decryptCanonical(o, key);
  if (fast === undefined) return true;
  counts.jweFast++;
  const out = await flattenedDecrypt(o as unknown as Parameters<typeof flattenedDecrypt>[0], key, JWE_PIN).catch(
    () => undefined,
  );
  return out !== undefined && Buffer.from(out.plaintext).equals(Buffer.from(fast));
}
async function jwsAgrees(o: Json, key = clientKey): Promise<boolean> {
  const fast = verifyCanonical(o, key);
  if (fast === undefined) return true;
  counts.jwsFast++;
  const out = await flattenedVerify(o as unknown as Parameters<typeof flattenedVerify>[0], key, {
    algorithms: ['RS256'],
  }).catch(() => undefined);
  return out !== undefined && Buffer.from(out.payload).equals(Buffer.from(fast));
}

describe('the fast path accepts only what jose accepts, to the same bytes', () => {
  it("opens the harness's own envelope (lib/jose seal) as jose does", async () => {
    expect.hasAssertions();
    const plaintext = await decryptCanonical(jwe, bankKey);
    const payload = verifyCanonical(jws, clientKey);
    expect(JSON.parse(Buffer.from(plaintext!).toString('utf8'))).toMatchObject({ payload: jws.payload });
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

  it('refuses nothing itself: a tampered tag or signature, a wrong or short key, is left to jose', async () => {
    expect.hasAssertions();
    const tag = jwe.tag as string;
    expect(await decryptCanonical({ ...jwe, tag: `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}` }, bankKey)).toBe(
      undefined,
    );
    const sig = jws.signature as string;
    expect(verifyCanonical({ ...jws, signature: `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}` }, clientKey)).toBe(
      undefined,
    );
    expect(await decryptCanonical(jwe, createPrivateKey(w.client.priv))).toBeUndefined();
    expect(verifyCanonical(jws, createPublicKey(w.bank.pub))).toBeUndefined();
    // a 1024-bit key: jose refuses RSA keys under 2048 bits, so the fast path does not take it either
    const small = rsaPair(1024);
    expect(await decryptCanonical(jwe, createPrivateKey(small.priv))).toBeUndefined();
    expect(verifyCanonical(jws, createPublicKey(small.pub))).toBeUndefined();
  });

  it('open() answers the same through the fast path as through jose alone', async () => {
    const sealed = await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub });
    const opened = await open(sealed, { decryptionKey: w.bank.priv, verificationKey: w.client.pub });
    expect(opened).toMatchObject({ ok: true, payload: DOC, jweForm: 'general', jwsForm: 'general' });
  });
});
