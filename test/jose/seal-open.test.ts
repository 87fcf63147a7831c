import { beforeAll, describe, expect, it } from 'vitest';
import { classify, formOf, inspect, open, publicKeyFromPem, privateKeyFromPem, seal } from '../../lib/jose/index.ts';
import { openByHand, sealByHand } from '../../lib/jose/craft.ts';
import { DOC, envelope, makeWorld, rsaPair, selfSignedCert, type World } from './helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});

describe('seal / open round trip', () => {
  it('opens what it seals (object, JSON text and bytes), headers minimal', async () => {
    const env = await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub });
    expect(Object.keys(env).sort()).toEqual(['ciphertext', 'iv', 'protected', 'recipients', 'tag']);
    expect(env.recipients).toHaveLength(1);
    expect(Object.keys(env.recipients[0] ?? {})).toEqual(['encrypted_key']);
    for (const input of [env, JSON.stringify(env), new TextEncoder().encode(JSON.stringify(env))]) {
      const r = await open(input, w.opts);
      expect(r).toEqual({
        ok: true,
        payload: DOC,
        jweForm: 'general',
        jwsForm: 'general',
        jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' },
        jwsHeader: { alg: 'RS256' },
        ignoredHeaderKeys: [],
      });
    }
  });

  it('puts kid and cty in the protected headers only when asked', async () => {
    const env = await seal([1, 'two'], {
      signingKey: w.client.priv,
      encryptionKey: w.bank.pub,
      signingKid: 'c1',
      encryptionKid: 'b1',
      cty: 'JSON',
    });
    const r = await open(env, w.opts);
    expect(r.ok && r.jweHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', cty: 'JSON', kid: 'b1' });
    expect(r.ok && r.jwsHeader).toEqual({ alg: 'RS256', kid: 'c1' });
    expect(r.ok && r.payload).toEqual([1, 'two']);
  });

  it('accepts certificate PEMs for the public keys', async () => {
    const bankCert = selfSignedCert(w.bank, 'bank');
    const clientCert = selfSignedCert(w.client, 'client');
    const env = await seal(DOC, { signingKey: w.client.priv, encryptionKey: bankCert });
    const r = await open(env, { decryptionKey: w.bank.priv, verificationKey: clientCert });
    expect(r.ok && r.payload).toEqual(DOC);
  });

  it('builds the canonical envelope and leaves keys it does not build with to jose', async () => {
    const env = await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub });
    const text = (b64: string | undefined): string => Buffer.from(b64 ?? '', 'base64url').toString();
    expect(text(env.protected)).toBe('{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}');
    expect([Buffer.from(env.iv, 'base64url').length, Buffer.from(env.tag, 'base64url').length]).toEqual([16, 32]);
    // jose refuses RSA keys under 2048 bits: seal() hands such keys to jose, which refuses them as it did
    const weak = rsaPair(1024);
    await expect(seal(DOC, { signingKey: weak.priv, encryptionKey: w.bank.pub })).rejects.toThrow(/2048/);
    await expect(seal(DOC, { signingKey: w.client.priv, encryptionKey: weak.pub })).rejects.toThrow(/2048/);
  });

  it('imports each PEM once (cache)', () => {
    expect(publicKeyFromPem(w.bank.pub)).toBe(publicKeyFromPem(w.bank.pub));
    expect(privateKeyFromPem(w.bank.priv)).toBe(privateKeyFromPem(w.bank.priv));
  });
});

describe('interop with the independent node:crypto implementation', () => {
  it('sealByHand -> open', async () => {
    const env = sealByHand(DOC, { signingKeyPem: w.client.priv, encryptionKeyPem: w.bank.pub });
    const r = await open(env, w.opts);
    expect(r.ok && r.payload).toEqual(DOC);
  });

  it('seal -> openByHand', async () => {
    const env = await seal(DOC, {
      signingKey: w.client.priv,
      encryptionKey: w.bank.pub,
      signingKid: 'k',
      encryptionKid: 'k',
    });
    await expect(
      openByHand({ envelope: env, decryptionKeyPem: w.bank.priv, verificationKeyPem: w.client.pub }),
    ).resolves.toEqual(DOC);
    await expect(
      openByHand({ envelope: JSON.stringify(env), decryptionKeyPem: w.bank.priv, verificationKeyPem: w.client.pub }),
    ).resolves.toEqual(DOC);
  });

  it('openByHand refuses a wrong key with a reason', async () => {
    const env = await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub });
    await expect(
      openByHand({ envelope: env, decryptionKeyPem: w.bank.priv, verificationKeyPem: w.attacker.pub }),
    ).rejects.toThrow(/signature/);
    await expect(
      openByHand({ envelope: env, decryptionKeyPem: w.attacker.priv, verificationKeyPem: w.client.pub }),
    ).rejects.toThrow();
  });
});

describe('inspect / formOf', () => {
  it('shows the visible headers of a general JWE, no key needed', async () => {
    const env = await seal(DOC, { signingKey: w.client.priv, encryptionKey: w.bank.pub, encryptionKid: 'b1' });
    expect(inspect(env)).toEqual({
      jweForm: 'general',
      headers: [{ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', kid: 'b1' }],
    });
    expect(inspect(JSON.stringify(env)).jweForm).toBe('general');
  });

  it('keeps only kty/kid/alg of an embedded jwk', () => {
    const jwk = { kty: 'RSA', kid: 'evil', n: 'AAAA', e: 'AQAB', d: 'SECRET' };
    const env = envelope(w, {}, { unprotectedHeader: { jwk } });
    const i = inspect(env);
    expect(i.headers[1]).toEqual({ jwk: { kty: 'RSA', kid: 'evil' } });
    expect(JSON.stringify(i)).not.toContain('SECRET');
  });

  it('shows a top-level JWS and compact forms', () => {
    const jws = envelope(w, {}, { form: 'compact' });
    expect(inspect(jws)).toEqual({ jweForm: 'compact', headers: [{ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' }] });
    const signed = {
      payload: 'e30',
      signatures: [{ protected: Buffer.from('{"alg":"RS256","kid":"x"}').toString('base64url'), signature: 'AA' }],
    };
    expect(inspect(signed)).toEqual({
      jweForm: 'plain-json',
      jwsForm: 'general',
      headers: [{ alg: 'RS256', kid: 'x' }],
    });
    expect(inspect('not json')).toEqual({ jweForm: 'not-json', headers: [] });
  });

  it('formOf / classify', () => {
    expect(formOf({ recipients: [], iv: '', ciphertext: '', tag: '' })).toBe('general');
    expect(formOf({ encrypted_key: 'x', iv: '', ciphertext: '', tag: '' })).toBe('flattened');
    expect(formOf({ payload: 'x', signatures: [] })).toBe('general');
    expect(classify({ payload: 'x', protected: 'y', signature: 'z' })).toEqual({ kind: 'jws', form: 'flattened' });
    expect(formOf('a.b.c.d.e')).toBe('compact');
    expect(classify('a.b.c')).toEqual({ kind: 'jws', form: 'compact' });
    expect(formOf({ amount: 1 })).toBe('plain-json');
    expect(formOf('[1]')).toBe('plain-json');
    expect(formOf('{oops')).toBe('not-json');
    expect(formOf(undefined)).toBe('unknown');
  });
});
