/**
 * The negative catalogue: every refusal of open() with its step and stable code. Where the crafted envelope
 * would pass a naive receiver (jose with its lenient defaults), that is asserted too: it proves the
 * negative is real and that the explicit check is what refuses it.
 */
import { createPublicKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddedJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../lib/jose/index.ts';
import { tamper, type ContentEnc } from '../../lib/jose/craft.ts';
import { envelope, makeWorld, type World } from './helpers.ts';
import { b64, naiveAccepts, refused } from './refusal-helpers.ts';

let w: World;
beforeAll(() => {
  w = makeWorld();
});

describe('JWS algorithm (jws-header)', () => {
  it.each(['RS512', 'PS256'] as const)('%s signed by the right key: refused (naive jose accepts)', async (alg) => {
    const env = envelope(w, { protectedHeader: { alg }, signer: { kind: 'rsa', alg, privateKeyPem: w.client.priv } });
    expect(await naiveAccepts(w, env)).toBe(true);
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
    expect(await naiveAccepts(w, env)).toBe(true);
    refused(await open(env, w.opts), 'jws-header', 'DUPLICATE_MEMBER');
  });

  it('escaped duplicate alg ("\\u0061lg"): refused as a duplicate (naive accepts RS512)', async () => {
    const env = envelope(w, {
      rawProtected: '{"alg":"RS256","\\u0061lg":"RS512"}',
      signer: { kind: 'rsa', alg: 'RS512', privateKeyPem: w.client.priv },
    });
    expect(await naiveAccepts(w, env)).toBe(true);
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
    expect(await naiveAccepts(w, env, EmbeddedJWK)).toBe(true);
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
      expect(await naiveAccepts(w, env)).toBe(true);
      refused(await open(env, w.opts), 'jwe-header', 'JWE_ENC_NOT_ALLOWED');
    },
  );

  it('alg RSA-OAEP: refused (naive jose accepts)', async () => {
    const env = envelope(w, {}, { alg: 'RSA-OAEP' });
    expect(await naiveAccepts(w, env)).toBe(true);
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
    expect(await naiveAccepts(w, env)).toBe(true);
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
