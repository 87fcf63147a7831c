/** the independent implementation agrees with jose (so the negatives it builds are well-formed JOSE) */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { compactDecrypt, compactVerify, flattenedDecrypt, flattenedVerify, generalDecrypt, generalVerify } from 'jose';
import type { FlattenedJWE, FlattenedJWS, GeneralJWE, GeneralJWS } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { craftJwe, craftJws, tamper, unb64u } from '../../lib/jose/craft.ts';
import { DOC, makeWorld, type World } from './helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});
const text = (u: Uint8Array): string => new TextDecoder().decode(u);

describe('craftJws', () => {
  it('general / flattened / compact RS256 verify with jose', async () => {
    const base = {
      payload: 'hello',
      protectedHeader: { alg: 'RS256', kid: 'k' },
      signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.client.priv },
    } as const;
    const key = createPublicKey(w.client.pub);
    const g = craftJws({ ...base, form: 'general', unprotectedHeader: { x: 1 } }) as unknown as GeneralJWS;
    expect(text((await generalVerify(g, key, { algorithms: ['RS256'] })).payload)).toBe('hello');
    const f = craftJws({ ...base, form: 'flattened' }) as unknown as FlattenedJWS;
    expect(text((await flattenedVerify(f, key)).payload)).toBe('hello');
    const c = craftJws({ ...base, form: 'compact' }) as string;
    expect((await compactVerify(c, key)).protectedHeader).toEqual({ alg: 'RS256', kid: 'k' });
  });

  it('HS256 verifies with jose; extra signatures are ordered', async () => {
    const secret = Buffer.from('0123456789abcdef0123456789abcdef');
    const c = craftJws({
      payload: 'x',
      protectedHeader: { alg: 'HS256' },
      signer: { kind: 'hmac', alg: 'HS256', secret },
      form: 'compact',
    }) as string;
    await expect(compactVerify(c, secret)).resolves.toBeTruthy();
    const g = craftJws({
      payload: 'x',
      protectedHeader: { alg: 'RS256', kid: 'main' },
      signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.client.priv },
      form: 'general',
      extraSignatures: [
        { protectedHeader: { alg: 'RS256', kid: 'first' }, signer: { kind: 'none' }, first: true },
        { protectedHeader: { alg: 'RS256', kid: 'last' }, signer: { kind: 'none' } },
      ],
    }) as { signatures: { protected: string }[] };
    expect(g.signatures.map((s) => JSON.parse(unb64u(s.protected).toString()).kid)).toEqual(['first', 'main', 'last']);
  });

  it('rawProtected is used byte for byte', () => {
    const c = craftJws({
      payload: 'x',
      protectedHeader: {},
      rawProtected: '{"alg":"RS256", "alg":"none"}',
      signer: { kind: 'none' },
      form: 'compact',
    }) as string;
    expect(unb64u(c.split('.')[0] ?? '').toString()).toBe('{"alg":"RS256", "alg":"none"}');
    expect(c.endsWith('.')).toBe(true);
  });
});

describe('craftJwe', () => {
  const key = (): ReturnType<typeof createPrivateKey> => createPrivateKey(w.bank.priv);
  it.each(['A256CBC-HS512', 'A128CBC-HS256', 'A128GCM', 'A256GCM'] as const)(
    '%s decrypts with jose (general, flattened, compact)',
    async (enc) => {
      const base = {
        plaintext: JSON.stringify(DOC),
        recipientPublicKeyPem: w.bank.pub,
        alg: 'RSA-OAEP-256',
        enc,
      } as const;
      const g = craftJwe({ ...base, form: 'general', protectedHeader: { kid: 'b' } }) as unknown as GeneralJWE;
      expect(JSON.parse(text((await generalDecrypt(g, key())).plaintext))).toEqual(DOC);
      const f = craftJwe({ ...base, form: 'flattened', unprotectedHeader: { u: 1 } }) as unknown as FlattenedJWE;
      expect((await flattenedDecrypt(f, key())).sharedUnprotectedHeader).toEqual({ u: 1 });
      const c = craftJwe({ ...base, form: 'compact' }) as string;
      expect((await compactDecrypt(c, key())).protectedHeader).toEqual({ alg: 'RSA-OAEP-256', enc });
    },
  );

  it('RSA-OAEP (sha1) decrypts with lenient jose; extra recipients are listed', async () => {
    const g = craftJwe({
      plaintext: 'p',
      recipientPublicKeyPem: w.bank.pub,
      alg: 'RSA-OAEP',
      enc: 'A256GCM',
      form: 'general',
      extraRecipients: 2,
    }) as unknown as GeneralJWE;
    expect(g.recipients).toHaveLength(3);
    expect(text((await generalDecrypt(g, key())).plaintext)).toBe('p');
  });
});

describe('tamper', () => {
  it.each(['iv', 'ciphertext', 'tag', 'encrypted_key', 'protected'] as const)(
    'flips exactly one bit of %s',
    (field) => {
      const env = craftJwe({
        plaintext: 'p',
        recipientPublicKeyPem: w.bank.pub,
        alg: 'RSA-OAEP-256',
        enc: 'A256CBC-HS512',
        form: 'general',
      }) as Record<string, unknown>;
      const t = tamper(env, field);
      const pick = (e: Record<string, unknown>): string =>
        (field === 'encrypted_key' ? (e.recipients as Record<string, string>[])[0]?.encrypted_key : e[field]) as string;
      const a = unb64u(pick(env));
      const b = unb64u(pick(t));
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff += (((a[i] ?? 0) ^ (b[i] ?? 0)).toString(2).match(/1/g) ?? []).length;
      expect(diff).toBe(1);
      expect(pick(env)).not.toBe(pick(t));
    },
  );
});
