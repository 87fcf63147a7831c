/**
 * The clean mock's own sealer (lib/mock/jose/seal-clean.ts): what it builds as text is the profile's envelope, read by jose's
 * primitives pinned to the profile's algorithms (not by the harness's opener): general JWE with one recipient and the
 * protected header {alg RSA-OAEP-256, enc A256CBC-HS512} and nothing else, around a general JWS with one signature and
 * the protected header {alg RS256} and nothing else, whose payload is the text sealed; each envelope with a fresh key.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { generalVerify, flattenedDecrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../lib/mock/server/http.ts';
import { sealCleanText } from '../../lib/mock/jose/seal-clean.ts';
import { DOC, makeWorld } from '../jose/helpers.ts';

type Json = Record<string, unknown>;
const header = (b64: unknown): unknown => JSON.parse(Buffer.from(String(b64), 'base64url').toString('utf8'));

describe('the mock sealer', () => {
  const w = makeWorld();
  const text = JSON.stringify({ ...DOC, note: 'é ✓ \u2028' });

  it('seals the profile envelope that jose opens, pinned, to the same text', async () => {
    const sealed = await sealCleanText(text, createPrivateKey(w.bank.priv), createPublicKey(w.client.pub));
    expect(sealed).toBeInstanceOf(JsonText);
    const jwe = JSON.parse(sealed.text) as Json;
    expect(Object.keys(jwe).sort()).toEqual(['ciphertext', 'iv', 'protected', 'recipients', 'tag']);
    expect(header(jwe.protected)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' });
    const recipients = jwe.recipients as Json[];
    expect(recipients).toHaveLength(1);
    expect(Object.keys(recipients[0]!)).toEqual(['encrypted_key']);
    const { recipients: _, ...shared } = jwe;
    const opened = await flattenedDecrypt(
      { ...shared, ...recipients[0] } as unknown as Parameters<typeof flattenedDecrypt>[0],
      createPrivateKey(w.client.priv),
      { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] },
    );
    const jws = JSON.parse(Buffer.from(opened.plaintext).toString('utf8')) as Json;
    const signatures = jws.signatures as Json[];
    expect(signatures).toHaveLength(1);
    expect(Object.keys(signatures[0]!).sort()).toEqual(['protected', 'signature']);
    expect(header(signatures[0]!.protected)).toEqual({ alg: 'RS256' });
    const verified = await generalVerify(
      jws as unknown as Parameters<typeof generalVerify>[0],
      createPublicKey(w.bank.pub),
      { algorithms: ['RS256'] },
    );
    expect(Buffer.from(verified.payload).toString('utf8')).toBe(text);
    // serialized by anything else, the value is the envelope
    expect(JSON.parse(JSON.stringify({ body: sealed })) as unknown).toEqual({ body: jwe });
  });

  it('draws a fresh content key and IV for every envelope', async () => {
    const seal = async (): Promise<Json> =>
      JSON.parse(
        (await sealCleanText(text, createPrivateKey(w.bank.priv), createPublicKey(w.client.pub))).text,
      ) as Json;
    const [a, b] = [await seal(), await seal()];
    expect(a.iv).not.toBe(b.iv);
    expect((a.recipients as Json[])[0]!.encrypted_key).not.toBe((b.recipients as Json[])[0]!.encrypted_key);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('envelopes sealed side by side, more than one block of random bytes, each open with their own key and IV', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => JSON.stringify({ ...DOC, note: `answer ${i}` }));
    const sealed = await Promise.all(
      texts.map((t) => sealCleanText(t, createPrivateKey(w.bank.priv), createPublicKey(w.client.pub))),
    );
    const opened = await Promise.all(
      sealed.map(async (s) => {
        const { recipients, ...shared } = JSON.parse(s.text) as Json;
        const jwe = { ...shared, ...(recipients as Json[])[0] };
        const { plaintext } = await flattenedDecrypt(
          jwe as unknown as Parameters<typeof flattenedDecrypt>[0],
          createPrivateKey(w.client.priv),
          { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256CBC-HS512'] },
        );
        const jws = JSON.parse(Buffer.from(plaintext).toString('utf8')) as Json;
        return { iv: jwe.iv, text: Buffer.from(String(jws.payload), 'base64url').toString('utf8') };
      }),
    );
    expect(opened.map((o) => o.text)).toEqual(texts);
    expect(new Set(opened.map((o) => o.iv)).size).toBe(texts.length);
  });
});
