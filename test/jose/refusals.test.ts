/**
 * The negative catalogue: every refusal of open() with its step and stable code. Where the crafted envelope
 * would pass a naive receiver (jose with its lenient defaults), that is asserted too: it proves the
 * negative is real and that the explicit check is what refuses it.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddedJWK, generalDecrypt, generalVerify, type GeneralJWE, type GeneralJWS } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import { sealByHand, tamper, type ContentEnc } from '../../lib/jose/craft.ts';
import type { OpenResult, OpenStep } from '../../lib/jose/types.ts';
import { DOC, envelope, jweOf, jwsOf, makeWorld, type World } from './helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});

function refused(r: OpenResult, step: OpenStep, code: string): void {
  expect(r).toMatchObject({ ok: false, step, code });
  if (!r.ok) expect(r.reason).toBeTypeOf('string');
}

/** what a naive receiver does: lenient jose, any alg that fits the key, any recipient/signature that works */
async function naiveAccepts(
  env: unknown,
  verifyKey: Parameters<typeof generalVerify>[1] = createPublicKey(w.client.pub),
): Promise<boolean> {
  try {
    const jwe = (typeof env === 'string' ? JSON.parse(env) : env) as GeneralJWE;
    const { plaintext } = await generalDecrypt(jwe, createPrivateKey(w.bank.priv));
    const jws = JSON.parse(new TextDecoder().decode(plaintext)) as GeneralJWS;
    await generalVerify(jws, verifyKey);
    return true;
  } catch {
    return false;
  }
}

const b64 = (s: string): string => Buffer.from(s).toString('base64url');

describe('JWS algorithm (jws-header)', () => {
  it.each(['RS512', 'PS256'] as const)('%s signed by the right key: refused (naive jose accepts)', async (alg) => {
    const env = envelope(w, { protectedHeader: { alg }, signer: { kind: 'rsa', alg, privateKeyPem: w.client.priv } });
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jws-header', 'JWS_ALG_NOT_ALLOWED');
  });

  it('HS256 keyed with the public key PEM (key confusion): refused', async () => {
    const env = envelope(w, {
      protectedHeader: { alg: 'HS256' },
      signer: { kind: 'hmac', alg: 'HS256', secret: Buffer.from(w.client.pub) },
    });
    refused(await open(env, w.opts), 'jws-header', 'JWS_ALG_NOT_ALLOWED');
  });

  it('alg none (empty signature): refused', async () => {
    const env = envelope(w, { protectedHeader: { alg: 'none' }, signer: { kind: 'none' } });
    const r = await open(env, w.opts);
    refused(r, 'jws-header', 'JWS_ALG_NOT_ALLOWED');
    expect(!r.ok && r.jwsHeader).toEqual({ alg: 'none' });
  });

  it('duplicated alg (last wins in jose): refused as a duplicate (naive accepts)', async () => {
    const env = envelope(w, { rawProtected: '{"alg":"none","alg":"RS256"}' });
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jws-header', 'DUPLICATE_MEMBER');
  });

  it('escaped duplicate alg ("\\u0061lg"): refused as a duplicate (naive accepts RS512)', async () => {
    const env = envelope(w, {
      rawProtected: '{"alg":"RS256","\\u0061lg":"RS512"}',
      signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: w.client.priv },
    });
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jws-header', 'DUPLICATE_MEMBER');
  });

  it('escaped lone alg: the check sees what jose sees (RS512)', async () => {
    const env = envelope(w, {
      rawProtected: '{"\\u0061lg":"RS512"}',
      signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: w.client.priv },
    });
    const r = await open(env, w.opts);
    refused(r, 'jws-header', 'JWS_ALG_NOT_ALLOWED');
    expect(!r.ok && r.jwsHeader).toEqual({ alg: 'RS512' });
  });

  it('b64:false (with and without crit): refused', async () => {
    for (const protectedHeader of [
      { alg: 'RS256', b64: false, crit: ['b64'] },
      { alg: 'RS256', b64: false },
    ]) {
      refused(await open(envelope(w, { protectedHeader }), w.opts), 'jws-header', 'JWS_B64_NOT_ALLOWED');
    }
  });

  it('unknown crit: refused', async () => {
    refused(
      await open(envelope(w, { protectedHeader: { alg: 'RS256', crit: ['exp'], exp: 1 } }), w.opts),
      'jws-header',
      'CRIT_UNSUPPORTED',
    );
  });

  it('alg in both protected and unprotected headers: refused', async () => {
    refused(
      await open(envelope(w, { unprotectedHeader: { alg: 'RS256' } }), w.opts),
      'jws-header',
      'HEADER_NOT_DISJOINT',
    );
  });
});

describe('signature (verify)', () => {
  it('RS256 by another key: SIGNATURE_INVALID', async () => {
    const env = envelope(w, { signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv } });
    refused(await open(env, w.opts), 'verify', 'SIGNATURE_INVALID');
  });

  it("attacker's embedded jwk: the pinned key is used (naive EmbeddedJWK accepts), jwk sanitized in evidence", async () => {
    const jwk = createPublicKey(w.attacker.pub).export({ format: 'jwk' });
    const env = envelope(w, {
      protectedHeader: { alg: 'RS256', jwk: { ...jwk, kid: 'evil' } },
      signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv },
    });
    expect(await naiveAccepts(env, EmbeddedJWK)).toBe(true);
    const r = await open(env, w.opts);
    refused(r, 'verify', 'SIGNATURE_INVALID');
    expect(!r.ok && r.jwsHeader).toEqual({ alg: 'RS256', jwk: { kty: 'RSA', kid: 'evil' } });
  });

  describe('jku / x5u pointing at a local listener', () => {
    let server: Server;
    let hits = 0;
    let url = '';
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits += 1;
        res.end('{"keys":[]}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('attacker-signed with jku: SIGNATURE_INVALID; legit with jku/x5u: opened, reported as ignored; zero fetches', async () => {
      const bad = envelope(w, {
        protectedHeader: { alg: 'RS256', jku: url },
        signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv },
      });
      refused(await open(bad, w.opts), 'verify', 'SIGNATURE_INVALID');
      const good = envelope(
        w,
        { protectedHeader: { alg: 'RS256', jku: url, x5u: url } },
        { protectedHeader: { jku: url } },
      );
      const r = await open(good, w.opts);
      expect(r.ok).toBe(true);
      expect(r.ok && r.ignoredHeaderKeys).toEqual(['jwe.jku', 'jws.jku', 'jws.x5u']);
      expect(hits).toBe(0);
    });
  });
});

describe('JWE algorithms (jwe-header)', () => {
  it.each(['A128GCM', 'A256GCM', 'A128CBC-HS256'] as ContentEnc[])(
    'enc %s: refused (naive jose accepts)',
    async (enc) => {
      const env = envelope(w, {}, { enc });
      expect(await naiveAccepts(env)).toBe(true);
      refused(await open(env, w.opts), 'jwe-header', 'JWE_ENC_NOT_ALLOWED');
    },
  );

  it('alg RSA-OAEP: refused (naive jose accepts)', async () => {
    const env = envelope(w, {}, { alg: 'RSA-OAEP' });
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jwe-header', 'JWE_ALG_NOT_ALLOWED');
  });

  it('alg RSA1_5: refused', async () => {
    refused(await open(envelope(w, {}, { alg: 'RSA1_5' }), w.opts), 'jwe-header', 'JWE_ALG_NOT_ALLOWED');
  });

  it('duplicated enc in the protected header: refused (naive accepts the last one)', async () => {
    const env = envelope(
      w,
      {},
      { enc: 'A128GCM', rawProtected: '{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512","enc":"A128GCM"}' },
    );
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jwe-header', 'DUPLICATE_MEMBER');
  });

  it('PBES2 with p2c=1e9: refused at the header step, before any KDF', async () => {
    const env = envelope(
      w,
      {},
      { protectedHeader: { alg: 'PBES2-HS512+A256KW', p2s: b64('salt-salt-salt-s'), p2c: 1e9 } },
    );
    const r = await open(env, w.opts);
    refused(r, 'jwe-header', 'JWE_ALG_NOT_ALLOWED');
    expect(!r.ok && r.jweHeader).toMatchObject({ alg: 'PBES2-HS512+A256KW', p2c: 1e9 });
  });

  it('ECDH-ES: refused at the header step', async () => {
    const epk = { kty: 'EC', crv: 'P-256', x: b64('x'.repeat(32)), y: b64('y'.repeat(32)) };
    refused(
      await open(envelope(w, {}, { protectedHeader: { alg: 'ECDH-ES+A256KW', epk } }), w.opts),
      'jwe-header',
      'JWE_ALG_NOT_ALLOWED',
    );
  });

  it('zip, crit, alg in two header parts: refused', async () => {
    refused(
      await open(envelope(w, {}, { protectedHeader: { zip: 'DEF' } }), w.opts),
      'jwe-header',
      'JWE_ZIP_NOT_ALLOWED',
    );
    refused(
      await open(envelope(w, {}, { protectedHeader: { crit: ['x'], x: 1 } }), w.opts),
      'jwe-header',
      'CRIT_UNSUPPORTED',
    );
    refused(
      await open(envelope(w, {}, { recipientHeader: { alg: 'RSA-OAEP-256' } }), w.opts),
      'jwe-header',
      'HEADER_NOT_DISJOINT',
    );
    refused(
      await open(envelope(w, {}, { rawProtected: '{"alg":"RSA-OAEP-256",' }), w.opts),
      'jwe-header',
      'JWE_HEADER_INVALID',
    );
  });
});

describe('decryption', () => {
  it('encrypted to another key: DECRYPT_FAILED', async () => {
    const r = await open(envelope(w, {}, { recipientPublicKeyPem: w.attacker.pub }), w.opts);
    refused(r, 'decrypt', 'DECRYPT_FAILED');
    expect(!r.ok && r.jweForm).toBe('general');
  });

  it.each(['iv', 'ciphertext', 'tag', 'encrypted_key'] as const)('tampered %s: DECRYPT_FAILED', async (field) => {
    const env = envelope(w) as Record<string, unknown>;
    expect((await open(env, w.opts)).ok).toBe(true);
    refused(await open(tamper(env, field), w.opts), 'decrypt', 'DECRYPT_FAILED');
  });

  it('tampered protected header: DECRYPT_FAILED when still valid (kid), header refusal otherwise', async () => {
    const withKid = envelope(w, {}, { protectedHeader: { kid: 'bank-1' } }) as Record<string, unknown>;
    refused(await open(tamper(withKid, 'protected'), w.opts), 'decrypt', 'DECRYPT_FAILED');
    refused(
      await open(tamper(envelope(w) as Record<string, unknown>, 'protected'), w.opts),
      'jwe-header',
      'JWE_ENC_NOT_ALLOWED',
    );
  });
});

describe('structure and forms', () => {
  it('compact JWE: COMPACT_FORM; compact JWS inside: COMPACT_FORM at the JWS step', async () => {
    refused(await open(envelope(w, {}, { form: 'compact' }), w.opts), 'jwe-structure', 'COMPACT_FORM');
    const r = await open(envelope(w, { form: 'compact' }), w.opts);
    refused(r, 'jws-structure', 'COMPACT_FORM');
    expect(!r.ok && r.jwsForm).toBe('compact');
  });

  it('flattened JWE / JWS: refused, accepted with allowFlattened (form reported)', async () => {
    const flatJwe = envelope(w, {}, { form: 'flattened' });
    const flatJws = envelope(w, { form: 'flattened' });
    const both = envelope(w, { form: 'flattened' }, { form: 'flattened' });
    refused(await open(flatJwe, w.opts), 'jwe-structure', 'FLATTENED_FORM');
    refused(await open(flatJws, w.opts), 'jws-structure', 'FLATTENED_FORM');
    const lax = { ...w.opts, allowFlattened: true };
    expect(await open(flatJwe, lax)).toMatchObject({
      ok: true,
      jweForm: 'flattened',
      jwsForm: 'general',
      payload: DOC,
    });
    expect(await open(flatJws, lax)).toMatchObject({
      ok: true,
      jweForm: 'general',
      jwsForm: 'flattened',
      payload: DOC,
    });
    expect(await open(both, lax)).toMatchObject({ ok: true, jweForm: 'flattened', jwsForm: 'flattened', payload: DOC });
  });

  it('two recipients (both decryptable, or one the attacker): MULTIPLE_RECIPIENTS (naive accepts)', async () => {
    const twoSame = envelope(w, {}, { extraRecipients: 1 });
    const withAttacker = envelope(w, {}, { extraRecipientPublicKeyPems: [w.attacker.pub] });
    expect(await naiveAccepts(withAttacker)).toBe(true);
    refused(await open(twoSame, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
    refused(await open(withAttacker, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
    const none = { ...(envelope(w) as Record<string, unknown>), recipients: [] };
    refused(await open(none, w.opts), 'jwe-structure', 'MULTIPLE_RECIPIENTS');
  });

  it("two signatures, the attacker's first: MULTIPLE_SIGNATURES (naive accepts)", async () => {
    const env = envelope(w, {
      extraSignatures: [
        {
          protectedHeader: { alg: 'RS256' },
          signer: { kind: 'rsa', alg: 'RS256', privateKeyPem: w.attacker.priv },
          first: true,
        },
      ],
    });
    expect(await naiveAccepts(env)).toBe(true);
    refused(await open(env, w.opts), 'jws-structure', 'MULTIPLE_SIGNATURES');
  });

  it('duplicate members in the envelope, the JWS text and the payload: DUPLICATE_MEMBER at each step', async () => {
    const text = JSON.stringify(envelope(w));
    const dupEnvelope = `{"ciphertext":"AAAA",${text.slice(1)}`;
    expect(await naiveAccepts(dupEnvelope)).toBe(true);
    refused(await open(dupEnvelope, w.opts), 'parse', 'DUPLICATE_MEMBER');

    const jwsText = JSON.stringify(jwsOf(w));
    const dupJws = jweOf(w, `{"payload":"${b64('{"amount":"1"}')}",${jwsText.slice(1)}`);
    refused(await open(dupJws, w.opts), 'jws-structure', 'DUPLICATE_MEMBER');

    const dupPayload = envelope(w, { payload: '{"amount":"1","amount":"1000000"}' });
    refused(await open(dupPayload, w.opts), 'payload', 'DUPLICATE_MEMBER');
  });

  it('payload not JSON: PAYLOAD_NOT_JSON', async () => {
    refused(await open(envelope(w, { payload: 'hello' }), w.opts), 'payload', 'PAYLOAD_NOT_JSON');
  });

  it('encrypted but unsigned: NOT_SIGNED', async () => {
    const r = await open(jweOf(w, DOC), w.opts);
    refused(r, 'jws-structure', 'NOT_SIGNED');
    expect(!r.ok && r.jwsForm).toBe('plain-json');
    refused(await open(jweOf(w, 'plain text'), w.opts), 'jws-structure', 'NOT_SIGNED');
  });

  it('signed but unencrypted: NOT_ENCRYPTED (JSON and compact)', async () => {
    const r = await open(jwsOf(w), w.opts);
    refused(r, 'jwe-structure', 'NOT_ENCRYPTED');
    expect(!r.ok && r.jwsForm).toBe('general');
    refused(await open(jwsOf(w, { form: 'compact' }), w.opts), 'jwe-structure', 'NOT_ENCRYPTED');
  });

  it('plain JSON: NOT_SEALED; not JSON: NOT_JSON', async () => {
    refused(await open(DOC, w.opts), 'jwe-structure', 'NOT_SEALED');
    refused(await open(JSON.stringify(DOC), w.opts), 'jwe-structure', 'NOT_SEALED');
    refused(await open('{"oops"', w.opts), 'parse', 'NOT_JSON');
  });

  it('oversize (8 MB payload): TOO_LARGE before parsing; opens with a higher maxBytes', async () => {
    const big = sealByHand(
      { blob: 'x'.repeat(8 * 1024 * 1024) },
      { signingKeyPem: w.client.priv, encryptionKeyPem: w.bank.pub },
    );
    const text = JSON.stringify(big);
    expect(await naiveAccepts(big)).toBe(true);
    refused(await open(text, w.opts), 'size', 'TOO_LARGE');
    refused(await open(big, w.opts), 'size', 'TOO_LARGE');
    refused(await open(Buffer.alloc(8 * 1024 * 1024, 0x20), w.opts), 'size', 'TOO_LARGE');
    const r = await open(text, { ...w.opts, maxBytes: 32 * 1024 * 1024 });
    expect(r.ok).toBe(true);
  });

  it('never throws on junk', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const junk: unknown[] = [
      undefined,
      null,
      42,
      '',
      '   ',
      'a.b',
      cyclic,
      new Uint8Array([0xff, 0xfe]),
      [],
      { recipients: 'x' },
      { recipients: [null], iv: 'a', ciphertext: 'b', tag: 'c' },
      { recipients: [{}], iv: 1, ciphertext: 'b', tag: 'c' },
      { recipients: [{ encrypted_key: '!!' }], protected: '!!', iv: 'a', ciphertext: 'b', tag: 'c' },
      { recipients: [{ encrypted_key: 'AA' }], protected: b64('[1]'), iv: 'AA', ciphertext: 'AA', tag: 'AA' },
      {
        recipients: [{ encrypted_key: 'AA' }],
        protected: b64('{"alg":"RSA-OAEP-256","enc":"A256CBC-HS512"}'),
        iv: 'AA',
        ciphertext: 'AA',
        tag: 'AA',
      },
      { payload: 'x', signatures: 'y' },
      10n,
    ];
    for (const j of junk) {
      const r = await open(j, w.opts);
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.code).toMatch(/^[A-Z_]+$/);
      expect(r.ok ? '' : r.code).not.toBe('INTERNAL');
    }
    // a bad key is our side's error, still reported, not thrown
    const env = envelope(w);
    refused(await open(env, { decryptionKey: 'not a pem', verificationKey: w.client.pub }), 'decrypt', 'KEY_INVALID');
    refused(await open(env, { decryptionKey: w.bank.priv, verificationKey: 'not a pem' }), 'verify', 'KEY_INVALID');
  });
});
